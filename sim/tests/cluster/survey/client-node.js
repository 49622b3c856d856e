// The read, write and watch surface of @kubernetes/client-node against the embedded cluster;
// prints one JSON object of what each call returned, for survey.rs.
const k8s = require('@kubernetes/client-node');

async function main() {
  const kc = new k8s.KubeConfig();
  kc.loadFromDefault();
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const out = {};
  const pods = await core.listNamespacedPod({ namespace: 'argocd' });
  out.argocd_pods = pods.items.length;
  const cm = await core.readNamespacedConfigMap({ name: 'argocd-cm', namespace: 'argocd' });
  out.argocd_cm_keys = Object.keys(cm.data).length;
  await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'node-survey' }, data: { a: '1' } } });
  await core.patchNamespacedConfigMap({ name: 'node-survey', namespace: 'default', body: { data: { a: '2' } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
  out.patched = (await core.readNamespacedConfigMap({ name: 'node-survey', namespace: 'default' })).data.a;
  const seen = new Set();
  await new Promise((resolve, reject) => {
    new k8s.Watch(kc).watch('/api/v1/namespaces/default/configmaps', { timeoutSeconds: 2, allowWatchBookmarks: true },
      (type) => seen.add(type), (err) => (err && err.name !== 'AbortError' ? reject(err) : resolve())).catch(reject);
  });
  out.watch_types = [...seen].sort();
  await core.deleteNamespacedConfigMap({ name: 'node-survey', namespace: 'default' });
  const custom = kc.makeApiClient(k8s.CustomObjectsApi);
  const apps = await custom.listNamespacedCustomObject({ group: 'argoproj.io', version: 'v1alpha1', namespace: 'argocd', plural: 'applications' });
  out.apps = apps.items.map((a) => [a.metadata.name, a.status.sync.status]);
  const apps1 = kc.makeApiClient(k8s.AppsV1Api);
  out.statefulsets = (await apps1.listNamespacedStatefulSet({ namespace: 'argocd' })).items.map((s) => s.metadata.name);
  try {
    await core.readNamespacedConfigMap({ name: 'nope', namespace: 'default' });
  } catch (e) {
    out.not_found = e.code;
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((e) => { console.error(e); process.exit(1); });
