# The read, write and watch surface of the Python clients (kubernetes, lightkube, kr8s) against
# the embedded cluster; prints one JSON object of what each call returned, for survey.rs.
import json, os, sys

from kubernetes import client, config, watch

out = {}
config.load_kube_config(config_file=os.environ["KUBECONFIG"])
core = client.CoreV1Api()
out["argocd_pods"] = sorted(p.metadata.name.rsplit("-", 2)[0] if not p.metadata.name.endswith("-0") else p.metadata.name
                            for p in core.list_namespaced_pod("argocd").items)
out["argocd_cm_keys"] = len(core.read_namespaced_config_map("argocd-cm", "argocd").data)
cm = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-survey"), data={"a": "1"})
core.create_namespaced_config_map("default", cm)
core.patch_namespaced_config_map("py-survey", "default", {"data": {"a": "2"}})
out["patched"] = core.read_namespaced_config_map("py-survey", "default").data["a"]
seen = []
w = watch.Watch()
for event in w.stream(core.list_namespaced_config_map, "default", timeout_seconds=2, allow_watch_bookmarks=True):
    seen.append(event["type"])
out["watch_types"] = sorted(set(seen))
core.delete_namespaced_config_map("py-survey", "default")
apps = client.CustomObjectsApi().list_namespaced_custom_object("argoproj.io", "v1alpha1", "argocd", "applications")
out["apps"] = [(a["metadata"]["name"], a["status"]["sync"]["status"]) for a in apps["items"]]
out["version"] = client.VersionApi().get_code().git_version
try:
    core.read_namespaced_config_map("nope", "default")
except client.exceptions.ApiException as e:
    out["not_found"] = [e.status, json.loads(e.body)["reason"]]

from lightkube import Client as LightClient
from lightkube.resources.core_v1 import Pod, Service
light = LightClient()
out["lightkube_pods"] = len(list(light.list(Pod, namespace="argocd")))
out["lightkube_services"] = sorted(s.metadata.name for s in light.list(Service, namespace="gitsrv"))

import kr8s
api = kr8s.api(kubeconfig=os.environ["KUBECONFIG"])
out["kr8s_sts"] = [s.name for s in kr8s.get("statefulsets", namespace="argocd", api=api)]
out["kr8s_apps"] = sorted(a.name for a in kr8s.get("applications.argoproj.io", namespace="argocd", api=api))

json.dump(out, sys.stdout)
