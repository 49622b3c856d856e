# The helpers every probe's script can use (sourced before it). A probe runs with:
#   NS      its group's namespace          KUBECONFIG, PATH  the cluster and the real kubectl/helm
#   BARE    the cluster's bare repo dir    WORK              a folder of the group's own (the cwd)
#   GIT     the lab's git URL base: git://gitd.gitsrv.svc.cluster.local:9418
# Commits are made with one author and fixed dates, so the same files give the same SHAs on
# both clusters.
set -o pipefail
export GIT_AUTHOR_NAME=Learner GIT_AUTHOR_EMAIL=learner@example.com
export GIT_COMMITTER_NAME=Learner GIT_COMMITTER_EMAIL=learner@example.com
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"

# repo NAME: a new bare repo $BARE/NAME.git (replacing one left by an earlier run) cloned into
# $WORK/NAME, which becomes the current folder.
repo() {
  rm -rf "$BARE/$1.git" "$WORK/$1"
  git init -q --bare -b main "$BARE/$1.git"
  git clone -q "$BARE/$1.git" "$WORK/$1" 2>/dev/null
  cd "$WORK/$1" && git checkout -q -b main
}

# put PATH <<EOF ... EOF: writes a file of the current repo from stdin.
put() {
  mkdir -p "$(dirname "$1")" && cat >"$1"
}

# push MESSAGE: commits everything and pushes main; prints nothing.
push() {
  git add -A && git commit -q -m "$1" && git push -q origin main 2>/dev/null
}

# app NAME PATH [SPEC_EXTRA]: an automated Application of the current repo's PATH into $NS
# (replacing one left by an earlier run); SPEC_EXTRA is YAML appended under spec.
app() {
  local name="$1" path="$2" extra="${3:-}" repo
  repo=$(basename "$(git rev-parse --show-toplevel)")
  kubectl -n argocd delete application "$name" --ignore-not-found --wait=false >/dev/null 2>&1
  kubectl -n argocd patch application "$name" --type merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1
  cat <<EOF | kubectl apply -f - >/dev/null
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: $name
  namespace: argocd
spec:
  project: default
  source:
    repoURL: $GIT/$repo.git
    targetRevision: main
    path: $path
  destination:
    server: https://kubernetes.default.svc
    namespace: $NS
$extra
EOF
}

# wait_app NAME JQ [SECONDS]: waits until `jq -e JQ` holds for the Application (default 120 s);
# on time out prints the status it last saw and fails.
wait_app() {
  local name="$1" cond="$2" seconds="${3:-120}" deadline
  deadline=$((SECONDS + seconds))
  while [ $SECONDS -lt $deadline ]; do
    if kubectl -n argocd get application "$name" -o json 2>/dev/null | jq -e "$cond" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.5
  done
  echo "wait_app $name: '$cond' never held; last status:"
  kubectl -n argocd get application "$name" -o json | jq .status
  return 1
}

# view NAME: what the suite compares of an Application: sync and health, the operation's phase,
# message and each resource's result, the conditions, and the resources with their health.
view() {
  kubectl -n argocd get application "$1" -o json | jq '{
    sync: .status.sync.status,
    health: .status.health.status,
    operation: (.status.operationState | if . == null then null else {
      phase, message,
      results: [(.syncResult.resources // [])[] | {kind, name, syncPhase, hookType, hookPhase, status, message}]
    } end),
    conditions: [(.status.conditions // [])[] | {type, message}],
    resources: [(.status.resources // [])[] | {kind, name, status, health: .health.status, hook: (.hook // false)}]
  }'
}

# objects: the kinds and names in $NS a learner would list (no Events, no generated token Secrets).
objects() {
  kubectl -n "$NS" get configmaps,deployments,jobs,services,secrets -o name 2>&1 | grep -v '^configmap/kube-root-ca.crt$'
}

# --- Argo CD scenario helpers (argocd-*.yaml) ---

# unapp NAME: removes the Application NAME (finalizers dropped first) without waiting.
unapp() {
  kubectl -n argocd patch application "$1" --type merge -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1
  kubectl -n argocd delete application "$1" --ignore-not-found --wait=false >/dev/null 2>&1
}

# apply_app NAME <<EOF ... EOF: replaces the Application NAME with the one on stdin.
apply_app() {
  unapp "$1"
  kubectl apply -f - >/dev/null
}

# app_x NAME PATH DEST_NS SOURCE_EXTRA [SPEC_EXTRA]: like app, but into DEST_NS (no
# destination namespace when empty), with SOURCE_EXTRA appended under spec.source (4-space
# indent, e.g. "    helm:\n      valueFiles: [values-prod.yaml]").
app_x() {
  local name="$1" path="$2" dest="$3" src="${4:-}" extra="${5:-}" repo nsline=""
  repo=$(basename "$(git rev-parse --show-toplevel)")
  [ -n "$dest" ] && nsline="    namespace: $dest"
  apply_app "$name" <<EOF2
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: $name
  namespace: argocd
spec:
  project: default
  source:
    repoURL: $GIT/$repo.git
    targetRevision: main
    path: $path
$src
  destination:
    server: https://kubernetes.default.svc
$nsline
$extra
EOF2
}

# auto [EXTRA_POLICY_LINES]: a syncPolicy block for app's SPEC_EXTRA: automated with prune and
# selfHeal, and the given lines (4-space indented, e.g. "    syncOptions: [Replace=true]").
auto() {
  printf '  syncPolicy:\n    automated:\n      prune: true\n      selfHeal: true\n%s' "${1:-}"
}

# refresh NAME [normal|hard]: asks the controller to re-read Git now.
refresh() {
  kubectl -n argocd annotate application "$1" argocd.argoproj.io/refresh="${2:-hard}" --overwrite >/dev/null
}

# sync_now NAME [SYNC_JSON]: starts a manual sync as kubectl can (the `.operation` field;
# SYNC_JSON becomes operation.sync, e.g. '{"prune":true}').
sync_now() {
  local extra="{}"
  [ -n "${2:-}" ] && extra="$2"
  kubectl -n argocd patch application "$1" --type merge \
    -p "{\"operation\":{\"initiatedBy\":{\"username\":\"learner\"},\"sync\":$extra}}" >/dev/null
}

# terminate NAME: what `argocd app terminate-op --core` does (operationState.phase=Terminating).
terminate() {
  kubectl -n argocd patch application "$1" --type merge -p '{"status":{"operationState":{"phase":"Terminating"}}}' >/dev/null
}

# get NAME JQ: a jq projection of the Application.
get() {
  kubectl -n argocd get application "$1" -o json | jq -c "$2"
}

# op NAME: the operation's phase, message and retry count, and the revision it syncs (7 chars).
op() {
  kubectl -n argocd get application "$1" -o json | jq -c '.status.operationState | if . == null then null else {
    phase, message, retryCount: (.retryCount // 0),
    revision: ((.operation.sync.revision // "") | .[0:7]), synced: ((.syncResult.revision // "") | .[0:7])
  } end'
}

# results NAME: the operation's resource results, one a line.
results() {
  kubectl -n argocd get application "$1" -o json |
    jq -r '(.status.operationState.syncResult.resources // [])[] | [.kind, .name, .syncPhase, (.hookType // "-"), (.hookPhase // "-"), .status, .message] | join(" | ")'
}

# resources NAME: status.resources, one a line.
resources() {
  kubectl -n argocd get application "$1" -o json |
    jq -r '(.status.resources // [])[] | [.kind, .name, (.status // "-"), (.health.status // "-"), (if .hook then "hook" else "-" end), (if .requiresPruning then "prune" else "-" end)] | join(" | ")'
}

# conditions NAME: the Application's conditions, one a line.
conditions() {
  kubectl -n argocd get application "$1" -o json | jq -r '(.status.conditions // [])[] | "\(.type): \(.message)"'
}

# done_ok NAME [SECONDS]: waits for a succeeded operation, Synced and Healthy, then for the
# app's view to settle. Real Argo CD writes the operation's end before the refresh that follows
# it, and what the sync deleted last (a HookSucceeded hook, a pruned object under foreground
# deletion) leaves status.resources only when the garbage collector and the watch have caught
# up: read at once, the real lab sometimes still lists it. Both clusters are read once settled.
done_ok() {
  until_app "$1" '.status.operationState.phase == "Succeeded" and .operation == null and .status.sync.status == "Synced" and .status.health.status == "Healthy"' "${2:-120}" || return 1
  compared_after_op "$1"
  steady_view "$1" 20
}

# compared_after_op NAME: waits (at most 30 s) for the comparison made after the app's last
# operation ended: Argo CD writes an operation's end before the refresh it requests next.
compared_after_op() {
  until_app "$1" '(.status.reconciledAt // "") >= .status.operationState.finishedAt' 30 >/dev/null
}

# steady_view NAME [SECONDS]: waits until the app's view reads the same twice, a second apart
# (at most SECONDS; a view that never settles is then compared as it is).
steady_view() {
  local previous="" current deadline=$((SECONDS + ${2:-20}))
  while [ $SECONDS -lt $deadline ]; do
    current=$(view "$1" 2>/dev/null)
    [ -n "$current" ] && [ "$current" = "$previous" ] && return 0
    previous=$current
    sleep 1
  done
  return 0
}

# until_done NAME [SECONDS]: waits for the operation to end, then for the comparison that
# follows it. Argo CD writes an operation's end before the refresh it requests next, so for a
# moment the sync status still describes the cluster as it was before the sync. That comparison
# can itself read objects the sync's last step created as Missing (real Argo CD's watch cache
# applies events in 100 ms batches): a probe of a settled sync status waits for it.
until_done() {
  until_app "$1" '.status.operationState.phase != null and .status.operationState.phase != "Running" and .status.operationState.phase != "Terminating" and .operation == null' "${2:-120}" || return 1
  compared_after_op "$1"
  return 0
}

# until_settled NAME [SECONDS]: until_done, then a comparison made after the watch cache has
# caught up (a normal refresh, waited for): what the app's sync status settles on.
until_settled() {
  until_done "$1" "${2:-120}" || return 1
  refresh "$1" normal
  until_app "$1" '(.metadata.annotations // {}) | has("argocd.argoproj.io/refresh") | not' 30 >/dev/null
  return 0
}

# proxy_up: starts `kubectl proxy` on a free port in the background, waits until it serves, and
# sets PROXY_PORT and PROXY_PID (`kill "$PROXY_PID"` ends it). The output file exists before the
# proxy starts, so the wait never reads a file the background job has not opened yet.
proxy_up() {
  : >proxy.out
  kubectl proxy --port=0 >proxy.out 2>&1 &
  PROXY_PID=$!
  for _ in $(seq 100); do grep -q 'Starting to serve' proxy.out && break; sleep 0.1; done
  PROXY_PORT=$(sed -nE 's/.*:([0-9]+)$/\1/p' proxy.out)
}

# watching SECONDS CHANGE KUBECTL-ARGS...: runs the watch `kubectl KUBECTL-ARGS` for at most
# SECONDS, and the shell command CHANGE once its watch request has been answered (kubectl -v=6
# logs it), never before: a change made a fixed 2 s after starting raced a slow kubectl, landed
# in what it listed first, and the watch then saw nothing. Prints the watch's output and exit.
watching() {
  local seconds="$1" change="$2"
  shift 2
  : >watch.log
  (
    for _ in $(seq 400); do grep -q 'watch=true' watch.log && break; sleep 0.05; done
    eval "$change"
  ) &
  timeout "$seconds" kubectl -v=6 "$@" 2>watch.log
  echo "exit=$?"
  wait
}

# settle SECONDS: sleeps (for probes that must show that nothing happens).
settle() { sleep "$1"; }

# lab_chart: lesson 1's Helm chart at charts/web of the current repo (repo-template/01-helm-chart).
lab_chart() {
  put charts/web/Chart.yaml <<'EOF2'
apiVersion: v2
name: web
version: 0.1.0
EOF2
  put charts/web/values.yaml <<'EOF2'
replicaCount: 1
greeting: chart-default
EOF2
  put charts/web/values-prod.yaml <<'EOF2'
replicaCount: 2
greeting: from-values-file
EOF2
  put charts/web/templates/configmap.yaml <<'EOF2'
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-greeting
data:
  greeting: {{ .Values.greeting | quote }}
EOF2
  put charts/web/templates/deployment.yaml <<'EOF2'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-web
spec:
  replicas: {{ .Values.replicaCount }}
  selector:
    matchLabels:
      app: {{ .Release.Name }}-web
  template:
    metadata:
      labels:
        app: {{ .Release.Name }}-web
    spec:
      containers:
        - name: web
          image: nginx:1.27-alpine
          ports:
            - containerPort: 80
EOF2
}

# lab_kust: lesson 4's Kustomize base and prod overlay at kust/ (repo-template/04-kustomize-image).
lab_kust() {
  put kust/base/deployment.yaml <<'EOF2'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  labels:
    app: api
spec:
  replicas: 1
  selector:
    matchLabels:
      app: api
  template:
    metadata:
      labels:
        app: api
    spec:
      containers:
        - name: api
          image: nginx:1.27-alpine
          ports:
            - containerPort: 80
EOF2
  put kust/base/kustomization.yaml <<'EOF2'
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - deployment.yaml
EOF2
  put kust/overlays/prod/kustomization.yaml <<'EOF2'
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../../base
namePrefix: prod-
replicas:
  - name: api
    count: 2
EOF2
}

# lab_waves [MODE] [MIGRATE_COMMAND]: lesson 5's four files at waves/ (repo-template/05-waves-hooks);
# MODE (blue) is settings' mode, MIGRATE_COMMAND (echo migrate ok) the PreSync hook's command.
lab_waves() {
  local mode="${1:-blue}" cmd="${2:-echo migrate ok}"
  put waves/config.yaml <<EOF2
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  annotations:
    argocd.argoproj.io/sync-wave: "-1"
data:
  mode: $mode
EOF2
  put waves/app.yaml <<'EOF2'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
  annotations:
    argocd.argoproj.io/sync-wave: "0"
spec:
  replicas: 1
  selector:
    matchLabels:
      app: app
  template:
    metadata:
      labels:
        app: app
    spec:
      containers:
        - name: app
          image: nginx:1.27-alpine
          ports:
            - containerPort: 80
          readinessProbe:
            httpGet:
              path: /
              port: 80
            initialDelaySeconds: 3
            periodSeconds: 2
EOF2
  put waves/smoke.yaml <<'EOF2'
apiVersion: batch/v1
kind: Job
metadata:
  name: smoke
  annotations:
    argocd.argoproj.io/sync-wave: "1"
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: smoke
          image: busybox:1.36
          command: ["sh", "-c", "echo smoke ok"]
EOF2
  put waves/migrate.yaml <<EOF2
apiVersion: batch/v1
kind: Job
metadata:
  generateName: migrate-
  annotations:
    argocd.argoproj.io/hook: PreSync
    argocd.argoproj.io/hook-delete-policy: BeforeHookCreation
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: migrate
          image: busybox:1.36
          command: ["sh", "-c", "$cmd"]
EOF2
}

# cm NAME [KEY=VALUE] [ANNOTATIONS_YAML]: a ConfigMap manifest on stdout (annotations at 4-space
# indent, e.g. "    argocd.argoproj.io/sync-wave: \"2\"").
cm() {
  local name="$1" kv="${2:-a=1}" ann="${3:-}"
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n' "$name"
  [ -n "$ann" ] && printf '  annotations:\n%s\n' "$ann"
  printf 'data:\n  %s: "%s"\n' "${kv%%=*}" "${kv#*=}"
}

# hookjob NAME HOOK [COMMAND] [MORE_ANNOTATIONS]: a hook Job manifest (busybox, backoffLimit 0).
hookjob() {
  local name="$1" hook="$2" cmd="${3:-echo ok}" ann="${4:-}"
  cat <<EOF2
apiVersion: batch/v1
kind: Job
metadata:
  name: $name
  annotations:
    argocd.argoproj.io/hook: $hook
$ann
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: main
          image: busybox:1.36
          command: ["sh", "-c", "$cmd"]
EOF2
}

# auto_noheal [EXTRA_POLICY_LINES]: like auto, without selfHeal (a sync's results stay in view:
# right after a sync, Argo CD's watch cache can lag and self-heal a just-created object).
auto_noheal() {
  printf '  syncPolicy:\n    automated:\n      prune: true\n%s' "${1:-}"
}

# until_app NAME JQ [SECONDS]: like wait_app, but on time out prints one line (what held
# instead: sync, health, the operation's phase and message, the condition types) and fails.
until_app() {
  local name="$1" cond="$2" seconds="${3:-120}" deadline
  deadline=$((SECONDS + seconds))
  while [ $SECONDS -lt $deadline ]; do
    if kubectl -n argocd get application "$name" -o json 2>/dev/null | jq -e "$cond" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.5
  done
  echo "timed out: $name never had $cond; it had:"
  kubectl -n argocd get application "$name" -o json | jq -c '{sync: .status.sync.status, health: .status.health.status,
    phase: .status.operationState.phase, message: .status.operationState.message,
    conditions: [(.status.conditions // [])[] | .type]}'
  return 1
}

# heals NAME: the self-heal counter of the app's last operation (0 when none).
heals() {
  kubectl -n argocd get application "$1" -o json | jq '.status.operationState.operation.sync.autoHealAttemptsCount // 0'
}

# view_sorted NAME: view, with the operation's results sorted by kind and name (one step's
# objects are applied at once, and real Argo CD records their results in any order).
view_sorted() {
  view "$1" | jq '.operation.results |= (. // [] | sort_by(.kind, .name))'
}

# fresh_conditions NAME: the conditions after a hard refresh. The repo server caches a
# manifest generation error after 3 failures for the same revision and inputs (then prefixed
# "Manifest generation error (cached): "); commits here have fixed SHAs, so runs of the suite
# on one real lab within the hour would otherwise read that cache.
fresh_conditions() {
  refresh "$1" hard
  until_app "$1" '(.metadata.annotations // {}) | has("argocd.argoproj.io/refresh") | not' 60 >/dev/null
  conditions "$1"
}
