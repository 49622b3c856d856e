## The strings a person reads in capa-tui, in English (the fallback for every language).
## Each message id is checked at compile time; every language has every id (a test says so).
## Keep Argo CD's and Kubernetes' own words (Synced, OutOfSync, PreSync, field paths, commands).

## Keys: what each key does, as the help lists it (tui/keymap.rs).
key-shell = shell: type the lab's commands here (starts one with the lab's environment)
key-next-command = select the next command of the lesson
key-prev-command = select the previous command
key-type-command = type the selected command into the shell (you press Enter)
key-copy-command = copy the selected command to the clipboard (OSC 52)
key-leave-shell = leave the shell: keys go to the tutor again
key-scroll-up = scroll the focused pane up (the shell: back through its output)
key-scroll-down = scroll the focused pane down
key-scroll-top = to the top of the focused pane
key-scroll-bottom = to the bottom of the focused pane
key-quit = quit
key-help = help
key-close = close help / raw view
key-next-pane = next pane
key-prev-pane = previous pane
key-zoom = zoom the focused pane
key-next-section = next part of the lesson
key-next-section-stepping = step mode: run the next action (the clicker's key)
key-prev-section = previous part of the lesson
key-next-lesson = next lesson
key-prev-lesson = previous lesson
key-run = do it for me (run the lesson's plan)
key-step = step mode: show the next action of the lesson's plan, then run it
key-cancel = cancel the running plan
key-check = self-check this lesson's evidence
key-hint = one more hint
key-theme = theme: default / projector / monochrome
key-raw = raw managedFields
key-next-app = timeline: next Application
key-next-object = managedFields: next object

## Lesson parts (lab/catalog.rs).
section-goal = Goal
section-why = Why it matters
section-steps = Steps
section-mistakes = Common mistakes
section-hints = Hints
section-by-hand = By hand

## Panes: their titles and their names in the strip of every pane.
pane-lesson = Lesson
pane-shell = Shell
pane-apps = Applications
pane-timeline = Sync timeline
pane-fields = managedFields
pane-values = Values provenance
pane-evidence = Evidence
pane-lesson-short = Lesson
pane-shell-short = Shell
pane-apps-short = Apps
pane-timeline-short = Timeline
pane-fields-short = Fields
pane-values-short = Values
pane-evidence-short = Evidence

## How long ago: a stale watch's age.
age-seconds = { $seconds } s
age-minutes = { $minutes } min { $seconds } s
age-hours = { $hours } h { $minutes } min

## Plan steps: what each "do it for me" step does (lab/spec/plan.rs).
step-create-bare-repo = create the bare repo { $repo }.git
step-clone = clone { $repo }.git
step-write-templates = write the files of { $template }
step-commit-push = commit and push: { $message }
step-apply-app = apply { $file }
step-hard-refresh = hard-refresh { $app }
step-wait-synced-healthy = wait for { $app } to be Synced and Healthy
step-wait-succeeded = wait for { $app } to be Synced, Healthy and Succeeded
step-wait-operation-failed = wait for { $app } to fail its operation
step-end-blocking-operation = end an operation of { $app } that blocks the new commit
step-end-operation = end { $app }'s failing operation
step-end-operation-and-record = end { $app }'s failing operation and record { $file }
step-scale = scale { $deployment } to { $replicas }
step-hold-after-scale = wait { $seconds } s after scaling { $deployment }
step-evidence = write { $file } from the cluster

## Applications pane (tui/view/panes.rs).
apps-not-loaded = The Applications are not loaded yet: the cluster has not answered (see the header).
apps-none-yet = No Applications in argocd yet. r runs this lesson's plan, which creates what it needs.
apps-revisions = {"  "}git { $git }{ $git_subject } · synced { $synced }{ $synced_subject }
apps-operation = {"  "}op{" "}
retry-count = {" "}· retry { $count }
apps-retry-trap = {"  "}⚠ An operation is still retrying { $retrying } while Git is at { $git }: the new commit waits until it ends. End it with: { $command }

## managedFields pane.
fields-not-there = { $object } does not exist yet. o: next object
fields-heading = { $object }   (o: next object · v: raw)
fields-replicas-owner = spec.replicas is owned by { $manager } ({ $operation })
fields-replicas-owner-subresource = spec.replicas is owned by { $manager } ({ $operation }, subresource { $subresource })

## Values provenance pane.
values-none = No lesson traces Helm values.
values-app-missing = { $app } does not exist yet.
values-live-matches = live: { $value } ✓
values-live-differs = live: { $value } ✗ differs from the winning layer

## Evidence pane.
evidence-missing = missing
evidence-passes = passes
evidence-fails = fails
evidence-not-checked = not checked yet (c checks it)

## The footer: a word or two for each key it shows.
footer-help = help
footer-next-section = step
footer-shell = shell
footer-next-command = choose command
footer-type-command = type it
footer-run = do it for me
footer-step = step mode
footer-cancel = cancel
footer-check = check
footer-hint = hint
footer-next-pane = pane
footer-zoom = zoom
footer-quit = quit
footer-next-action = next action
footer-leave-shell = back to capa-tui (every other key goes to the shell)

## The frame: header, titles and overlays (tui/view/chrome.rs).
header-theme = {" "}· theme { $theme }
shell-typing = typing · Ctrl-] back to capa-tui
help-title = {" "}Keys · Esc closes{" "}
predict-title = {" "}Predict, then watch{" "}
confirm-title = {" "}Look before you change{" "}
confirm-about-to-change = Lesson { $lesson } is about to change { $target }
confirm-folders = Source dir { $src } · bare repos { $bare }
confirm-go-ahead = go ahead{"   "}
confirm-change-nothing = change nothing

## Live or stale: the header, stale panes, and the notice (tui/view/health.rs).
watch-live = ✓ live
watch-connecting = … connecting
watch-stale-since = ✗ stale since { $clock } ({ $age } ago) · reconnecting
watch-not-loaded = ✗ not loaded yet · reconnecting
watch-all = all watches
watch-more = { $count } more
watch-failing = { $who }: { $problem }
pane-as-of = {" "}· as of { $clock }
pane-not-loaded = {" "}· not loaded
notice-title = {" "}The cluster does not answer{" "}
notice-what-run = “Do it for me”
notice-what-check = The self-check
notice-what-step = Step mode
notice-what-other = This
notice-needs-cluster = { $what } ({ $key }) needs the cluster, and it does not answer:
notice-as-of = {"  "}The panes show it as of { $clock }.
notice-what-to-do = Start it again, or check the kubeconfig: capa-tui reconnects by itself. Press { $key } again once the header says ✓ live.
notice-any-key = Any key closes this.

## One-line summaries of the panes not given room (tui/view/summary.rs).
summary-shell-running = running · s to type
summary-shell-not-started = s opens one with the lab's environment
summary-shell-exited = exited · s starts another
summary-shell-failed = could not start: { $why }
summary-apps-none = none yet
summary-apps-retrying = {" "}⚠ retrying an old commit
summary-evidence-pass = { $passing }/{ $total } pass
summary-evidence-fail = {" "}· { $count } fail
summary-evidence-missing = {" "}· { $count } missing
timeline-no-operation = { $app }: no operation yet

## Sync timeline (tui/view/timeline.rs).
timeline-last-operation = { $app } · last operation{" "}
timeline-started = { $retry } · started { $started }
timeline-now = now: { $message }
timeline-head-lane = phase wave
timeline-head-resource = resource · outcome (s from start)
timeline-failed-gone = {" "}failed (gone)
timeline-gone-or-unseen = {" "}(gone or not yet seen)
timeline-existed-before = {" "}(existed before)
timeline-failed-at = {" "}failed +{ $at }s
timeline-created-ready = {" "}+{ $created }s → ready +{ $ready }s
timeline-created-failed = {" "}+{ $created }s → failed +{ $failed }s
timeline-created = {" "}+{ $created }s
timeline-wave-done-pause = wave done +{ $at }s · then the 2 s pause
timeline-wave-done-at = wave done +{ $at }s
timeline-wave-done-then-pause = wave done · then the 2 s pause
timeline-wave-done = wave done

## Shell pane (tui/view/shell.rs).
shell-press-s = Press s (or Enter here) to open a shell for the lab.
shell-about = { $marker }· in { $cwd } · KUBECONFIG { $kubeconfig }, kubectl and helm on PATH
shell-kubeconfig-inherited = inherited
shell-keys = Every key then goes to the shell; Ctrl-] hands the keys back to capa-tui.
shell-failed = ✗ The shell could not start: { $why }. capa-tui keeps working; press s to try again.
shell-exited = {" "}the shell exited · Enter starts another{" "}
shell-exited-code = {" "}the shell exited (code { $code }) · Enter starts another{" "}
shell-scrolled-back = {" "}↑ { $lines } lines back · ↓/j forward, typing returns{" "}

## Lesson pane (tui/view/lesson.rs).
lesson-none = No lessons found.
lesson-no-evidence = none
lesson-part = { $part } ({ $at }/{ $of })  ·  evidence: { $evidence }
lesson-lines-above = ↑ { $lines } lines above · ] [ choose · y type it · Y copy
lesson-press-h = Press h for a first hint.
checklist-count = Checklist { $done }/{ $of }
checklist-all-done = {" "}· all done
checklist-next = {" "}· next: { $step }
step-mode-heading = Step mode · { $at }/{ $of } · { $now }
step-mode-all-done = all done · g leaves step mode
step-mode-running = running…
step-mode-g-runs-it = g runs it
predict-question = ? Predict: { $question }
predict-reveal = you said: { $said } · live: { $live }
verdict-file-passes = { $file } passes the self-check
verdict-file-fails = { $file } fails the self-check:
verdict-steps-pass = lesson { $lesson }'s steps pass the self-check
verdict-steps-fail = lesson { $lesson }'s steps fail the self-check:
verdict-hint = hint { $n }: { $hint }
plan-heading = Do it for me · lesson { $lesson }{" "}
plan-waiting-for-g = · waiting for g
plan-running = … running · { $seconds }s
plan-done = ✓ done in { $seconds }s

## Argo CD's status words glossed where they appear (tui/theme.rs). English needs no gloss: each
## is the word itself, which the tutor then leaves out.
gloss-synced = Synced
gloss-out-of-sync = OutOfSync
gloss-healthy = Healthy
gloss-progressing = Progressing
gloss-degraded = Degraded
gloss-missing = Missing
gloss-suspended = Suspended
gloss-succeeded = Succeeded
gloss-failed = Failed
gloss-error = Error
gloss-running = Running
gloss-terminating = Terminating
gloss-unknown = Unknown

## Why the cluster gives no answer, and what the tutor says of it (cluster/).
why-refused = connection refused
why-dropped = the connection was dropped
why-timed-out = timed out
why-closed-early = the connection closed early
why-no-route = no route to the host
why-address-unavailable = the address is not available
why-untrusted = its TLS certificate is not trusted ({ $detail })
why-no-such-host = its host name does not resolve
problem-cannot-reach = cannot reach { $server }: { $why }
problem-cannot-reach-cluster = cannot reach the cluster: { $why }
problem-dropped = the connection dropped ({ $why })
problem-answered = the cluster answered { $code } { $reason }: { $message }
problem-watch-stopped = the watch stopped: { $message }
problem-history-expired = the server's history no longer reaches back to what capa-tui saw; re-listing
stream-applications = Applications
stream-of-kind = { $namespace } { $kind }s
cluster-no-kubeconfig = no kubeconfig found (looked at $KUBECONFIG, ~/.kube/config and /etc/rancher/k3s/k3s.yaml): pass --kubeconfig FILE, set KUBECONFIG, or start the embedded cluster with --sim
cluster-bad-kubeconfig = cannot read the kubeconfig { $path }: { $why }
cluster-bad-context-named = the kubeconfig has no usable context named "{ $context }": { $why }
cluster-bad-context = the kubeconfig has no usable context: { $why }
cluster-no-client = cannot make a client for { $server }: { $why }
cluster-unreachable = { $problem }. Is the cluster running, and is this the right kubeconfig/context?
cluster-not-an-application = { $name } does not read as an Application
cluster-bad-date = the API server's Date header "{ $date }" is not a date
cluster-no-date = the API server sent no Date header
cluster-kept-changing = could not terminate the operation of { $name }: the Application kept changing; try again
