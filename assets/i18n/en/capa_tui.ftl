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
key-close = close help / raw view / zoom, else let go of the chosen command
key-next-pane = next pane
key-prev-pane = previous pane
key-zoom = zoom the focused pane
key-next-section = next page of the lesson, then its next part
key-next-section-stepping = step mode: run the next action (the clicker's key)
key-prev-section = previous page, then the previous part
key-next-lesson = next lesson
key-prev-lesson = previous lesson
key-run = do it for me (run the lesson's plan)
key-step = step mode: show the next action of the lesson's plan, then run it
key-cancel = cancel the running plan
key-check = self-check this lesson's evidence
key-hint = one more hint
key-theme = theme: default / projector / monochrome
key-language = language: the next one the tutor speaks (the lesson, the panes, the messages; your work stays as it is)
key-raw = on managedFields: its raw entries; elsewhere: show which Helm layer wins
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
command-write-templates = write the files of repo-template/{ $template } into { $repo } and { $src }
command-evidence = read the values with kubectl and write { $path }
command-evidence-fields = read { $fields } with kubectl and write them into { $path }
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
step-evidence-fields = write { $fields } into { $file } from the cluster
step-remove-files = remove { $paths } from the working copy

## Applications pane (tui/view/panes.rs).
apps-not-loaded = The Applications are not loaded yet: the cluster has not answered (see the header).
apps-none-yet = There are no Applications in argocd. r runs this lesson's plan, which creates what it needs.
apps-none-builds-on = There are no Applications in argocd. This lesson builds on lesson { $needs }: once that is done, r runs this lesson's plan (n/p reaches a lesson).
apps-revisions = {"  "}git { $git }{ $git_subject } · { $good }
apps-last-good = last synced OK { $revision }{ $subject }
# When the commit that last synced OK is Git\'s own: its subject is not said twice.
apps-last-good-here = last synced OK: this commit
# Synced at Git's commit, which is not the one that last synced: the commits since had nothing to apply.
apps-nothing-since = nothing to apply since { $revision }{ $subject }
apps-never-good = never synced OK yet
apps-op-ended = {"  "}last sync of { $revision }:{" "}
apps-op-running = {"  "}⧗ syncing { $revision }:{" "}
apps-op-retrying = {"  "}⧗ retrying { $revision } (retry #{ $count }):{" "}
apps-op-retrying-of = {"  "}⧗ retrying { $revision } (retry #{ $count } of { $limit }):{" "}
apps-op-after-retries = {" "}after { $count ->
    [one] 1 retry
   *[other] { $count } retries
}
apps-op-since = since { $time }
retry-count = {" "}· retry { $count }
retry-count-of = {" "}· retry { $count } of { $limit }
apps-retry-trap = {"  "}⚠ An operation is still retrying { $retrying } while Git is at { $git }: the new commit waits until it ends. End it with: { $command }

## managedFields pane.
fields-not-there = { $object } is not in the cluster. o: next object
fields-gone = { $object } was deleted at { $at }: it is not in the cluster now. o: next object
fields-heading = { $object }   (o: next object · v: raw)
fields-replicas-owner = spec.replicas is owned by { $manager } ({ $operation })
fields-replicas-owner-subresource = spec.replicas is owned by { $manager } ({ $operation }, subresource { $subresource })

## Values provenance pane.
values-none = No lesson traces Helm values.
values-app-missing = There is no Application { $app } in argocd.
values-live-matches = live: { $value } ✓
values-live-differs = live: { $value } ✗ differs from the winning layer
values-winner-hidden = Which layer wins stays hidden until you have written the evidence: predict it first (v shows it now).
summary-values-hidden = which layer wins: hidden until the evidence is written (v shows it)
values-winner-hidden-until-answered = Which layer wins stays hidden until the question is answered.
summary-values-hidden-until-answered = which layer wins: hidden until the question is answered

## Evidence pane.
evidence-missing = missing
evidence-passes = passes
evidence-fails = fails
evidence-not-checked = not checked yet (c checks it)
evidence-being-written = being written (checked once whole)

## The footer: a word or two for each key it shows.
footer-help = help
footer-next-section = page
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
header-learner = {" "}· learner { $learner }
shell-typing = typing · Ctrl-] back to capa-tui
help-title = {" "}Keys · Esc closes{" "}
help-mode-normal = What each key does now (dimmed: nothing to do here yet)
help-mode-present-step = Presenting, in step mode: space, PgDn and → run the next action (dimmed: nothing to do here yet)
help-scroll = ↑/↓ and PgUp/PgDn scroll this list · Esc or ? closes it
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
notice-title-lab = {" "}Your lab{" "}
notice-title-plan = {" "}A plan is running{" "}
notice-plan-running = { $what } waits: lesson { $lesson }'s plan is running, and one plan runs at a time. Let it finish, or press x to cancel it.
notice-quit-while-plan-runs = Lesson { $lesson }'s plan is running. Quitting stops it (and, on the embedded cluster, the cluster with it); run it again later with r and it carries on from where it stopped.
notice-quit-or-any-key = q again quits · any other key goes back
notice-what-run = “Do it for me”
notice-what-check = The self-check
notice-what-step = Step mode
notice-what-other = This
notice-needs-cluster = { $what } ({ $key }) needs the cluster, and it does not answer:
notice-as-of = {"  "}The panes show it as of { $clock }.
notice-what-to-do = Start it again, or check the kubeconfig: capa-tui reconnects by itself. Press { $key } again once the header says ✓ live.
notice-any-key = Any key closes this.

## One-line summaries of the panes not given room (tui/view/summary.rs).
# The start of a pane's one-line summary: its title, how old its data is, then what it shows.
summary-head = ▸ { $pane }{ $as_of }:{" "}
summary-shell-running = running · s to type
summary-shell-not-started = s opens one with the lab's environment
summary-shell-exited = exited · s starts another
summary-shell-failed = could not start: { $why }
summary-apps-none = none yet
summary-apps-retrying = {" "}⚠ retrying an old commit
summary-evidence-pass = { $passing }/{ $total } pass
summary-evidence-fail = {" "}· { $count } fail
summary-evidence-missing = {" "}· { $count } missing
summary-evidence-not-checked = {" "}· { $count } not checked yet
summary-evidence-being-written = {" "}· { $count } being written
timeline-no-operation = { $app }: no operation yet

## Sync timeline (tui/view/timeline.rs).
timeline-last-operation = { $app } · last operation{" "}
timeline-current-operation = { $app } · current operation{" "}
timeline-started = { $retry } · started { $started }
timeline-now = now: { $message }
timeline-head-lane = phase wave
timeline-head-resource = resource · outcome (s from start)
timeline-failed-gone = {" "}failed (gone)
timeline-gone-or-unseen = {" "}(gone or not yet seen)
timeline-pruned = {" "}pruned: this sync deleted it
timeline-prune-skipped = {" "}not pruned: its sync options keep it (Prune=false)
timeline-existed-before = {" "}(existed before)
timeline-existed-configured = {" "}changed (existed before)
timeline-existed-changed-at = {" "}changed +{ $at }s (existed before)
timeline-failed-at = {" "}failed +{ $at }s
timeline-created-ready = {" "}+{ $created }s → ready +{ $ready }s
timeline-created-done = {" "}+{ $created }s → done +{ $done }s
timeline-created-failed = {" "}+{ $created }s → failed +{ $failed }s
timeline-created = {" "}+{ $created }s
timeline-failed = {" "}failed
timeline-made-after = {" "}(made again after this operation)
timeline-changed-after = {" "}· settled after the operation ended
timeline-unfinished = {" "}· did not finish
timeline-wave-done-at = wave done +{ $at }s
timeline-wave-done = wave done
timeline-phase-done-at = { $phase } done +{ $at }s
timeline-phase-done = { $phase } done
timeline-pause = { $seconds } s pause
timeline-next-at = next +{ $at }s

## Shell pane (tui/view/shell.rs).
shell-press-s = Press s (or Enter here) to open a shell for the lab.
shell-about = { $marker }· in { $cwd } · KUBECONFIG { $kubeconfig }, kubectl and helm on PATH
shell-kubeconfig-inherited = inherited
shell-keys = Every key then goes to the shell; Ctrl-] hands the keys back to capa-tui.
shell-failed = ✗ The shell could not start: { $why }. capa-tui keeps working; press s to try again.
shell-exited = {" "}the shell exited · Enter starts another{" "}
shell-exited-code = {" "}the shell exited (code { $code }) · Enter starts another{" "}
shell-scrolled-back = {" "}↑ { $lines } lines back · ↓/j forward, typing returns{" "}
shell-tall-command-zoom = { $lines } lines, typed line by line · Ctrl-] z shows them all
shell-tall-command-lesson = { $lines } lines, typed line by line · the lesson pane shows them

## Lesson pane (tui/view/lesson.rs).
lesson-none = No lessons found.
lesson-no-evidence = none
lesson-part = { $part } ({ $at }/{ $of })  ·  evidence: { $evidence }
lesson-title-after-prediction = (the title shows once the room has seen the answer)
lesson-waits-for-prediction = The checklist and the lesson's text come back once the room has seen the answer: they could give it away.
lesson-end-next = {" "}End of this lesson · PgDn → lesson { $lesson }: { $title }{" "}
lesson-end-last = {" "}End of the last lesson · c checks the evidence, q quits{" "}
lesson-press-h = Press h for a first hint.
checklist-count = Checklist { $done }/{ $of }
checklist-all-done = {" "}· all done
checklist-next = {" "}· next: { $step }
step-mode-heading = Step mode · { $at }/{ $of } · { $now }
step-mode-all-done = all done · g leaves step mode
step-mode-running = running…
step-mode-g-runs-it = g runs it
step-mode-clicker-runs-it = space, PgDn or g runs it
predict-question = ? Predict: { $question }
predict-reveal = you said: { $said } · live: { $live }
predict-keys = { $keys }: press the number of your answer
predict-answer-first = The room answers first: press { $keys }
verdict-file-passes = { $file } passes the self-check{ $when }
verdict-file-fails = { $file } fails the self-check{ $when }:
verdict-steps-pass = lesson { $lesson }'s steps pass the self-check{ $when }
verdict-steps-fail = lesson { $lesson }'s steps fail the self-check{ $when }:
verdict-hint = hint { $n }: { $hint }
plan-heading = Do it for me · lesson { $lesson }{" "}
plan-waiting-for-g = · waiting for g
plan-waiting-for-next = · waiting for the next press
plan-running = … running · { $seconds }s
plan-done = ✓ done in { $seconds }s
plan-took-fast = { $said } ({ $seconds }s on the cluster's ×{ $speed } clock)
plan-failed-lab-moved-on = ✗ stopped at step { $step }; the lab has changed since, so why it stopped may no longer hold: r runs the plan again

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
stream-application = Application { $name }
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
cluster-no-operation = { $name } has no operation running, so there is nothing to end (Argo CD says: { $argo })

## Why a checklist step is not done, and what to do (lab/eval/unmet.rs). A message whose advice
## follows its fact keeps the fact alone as `.fact`: a lesson's prerequisite names only the fact,
## and says to do that lesson first instead.
unmet-no-bare-repo = { unmet-no-bare-repo.fact }: create it with git init --bare
    .fact = there is no bare repo { $repo }.git yet
unmet-not-cloned = { unmet-not-cloned.fact }: git clone it
    .fact = the working copy is not a clone of { $repo }.git yet
unmet-not-pushed = { unmet-not-pushed.fact }: commit it and git push
    .fact = { $path } is not on main of { $repo }.git yet
unmet-pushed-without = { unmet-pushed-without.fact }: commit the change and git push
    .fact = { $path } on main of { $repo }.git does not contain "{ $contains }"
unmet-not-removed = { unmet-not-removed.fact }: git rm it, commit and git push
    .fact = no commit of main of { $repo }.git has removed { $path }
unmet-git-sets-unwanted = { $file } on main of { $repo }.git sets { $path } to { $have }; the lab keeps it out of Git
unmet-git-lacks = { $file } on main of { $repo }.git does not set { $path }; it should be { $want }
unmet-git-differs = { $file } on main of { $repo }.git sets { $path } to { $have }, not { $want }
unmet-git-not-text = { unmet-git-not-text.fact }: write "{ $have }", commit and git push
    .fact = { $file } on main of { $repo }.git sets { $path } to { $have } without quotes, which YAML reads as a value, not as text
unmet-git-not-yaml = { unmet-git-not-yaml.fact }: fix it, commit and git push
    .fact = { $file } on main of { $repo }.git is not valid YAML ({ $why })
unmet-no-app = { unmet-no-app.fact }: kubectl apply it
    .fact = there is no Application { $app } in argocd
unmet-app-spec-lacks = { unmet-app-spec-lacks.fact }: edit the Application and kubectl apply it again
    .fact = { $app }'s spec.{ $at } should hold { $want }
unmet-app-spec-differs = { unmet-app-spec-differs.fact }: edit the Application and kubectl apply it again
    .fact = { $app }'s spec.{ $at } is { $have }, not { $want }
unmet-app-state = { $app } is { $sync }/{ $health } at { $at } (main is at { $main })
unmet-cannot-render = { unmet-cannot-render.fact }. Fix what that names, in Git (commit and push) or in the Application (kubectl apply); waiting or a hard refresh cannot help
    .fact = { $state }: Argo CD cannot render it: { $message }
unmet-retrying-other = { unmet-retrying-other.fact }: end that operation (capa-tui app terminate-op { $app }), and main syncs
    .fact = { $state }: an operation keeps retrying commit { $at } (attempt { $attempt }), and main's commit waits behind it
unmet-sync-fails-retrying = { unmet-sync-fails-retrying.fact }: fix what that names in Git (commit and push) or in the Application (kubectl apply)
    .fact = { $state }: the sync of main fails: { $message }. Argo CD retries it, but the same commit fails the same way
unmet-sync-failed = { unmet-sync-failed.fact }. Argo CD does not sync a failed commit again by itself: fix what that names in Git and push (the new commit is synced), or in the Application (kubectl apply)
    .fact = { $state }: the last sync of main failed: { $message }
unmet-syncing = { unmet-syncing.fact }: wait for it
    .fact = { $state }: the sync of main runs now
unmet-not-compared = { unmet-not-compared.fact }: hard-refresh { $app }
    .fact = { $state }: Argo CD has not read main yet
unmet-out-of-sync = { unmet-out-of-sync.fact }: give it an automated syncPolicy (spec.syncPolicy.automated) and apply it again
    .fact = { $state }: nothing syncs it
unmet-out-of-sync-automated = { unmet-out-of-sync-automated.fact }: Argo CD starts one within seconds of comparing main; if none starts, hard-refresh { $app }
    .fact = { $state }: its automated sync has not started yet
unmet-not-healthy = { unmet-not-healthy.fact }: wait, or see in Applications which resource is not
    .fact = { $state }: synced, not Healthy yet
unmet-not-succeeded = { $app }'s last operation is { $phase } on { $at }, not Succeeded on main ({ $main })
unmet-not-failed = { $app }'s operation on main ({ $main }) has not failed: its last operation is { $phase } on { $at }
unmet-not-in-cluster = { $object } is not in the cluster
unmet-owned-by = { $path } of { $object } is owned by { $owner }, not { $manager }
unmet-no-owner = no manager owns { $path } of { $object }
unmet-field-is = { $object } has { $path } { $have }, not { $want }
unmet-field-missing = { $object } has no { $path } (expected { $want })
unmet-runs-other-image = { $object }: its Pods run { $images }, not { $image }
unmet-not-rolled-out = { unmet-not-rolled-out.fact }: wait for the rollout
    .fact = { $object }: { $ready } of { $want } Pods ready on { $image } ({ $updated } updated, { $total } in all)
unmet-no-evidence = { $file } is not written yet
unmet-evidence-fails = { $file } does not pass the self-check
unmet-not-scaled = { unmet-not-scaled.fact } (kubectl scale)
    .fact = { $object } has not been scaled by hand yet
unmet-holding = holds; { $seconds } s of the wait still to go
unmet-no-clock = the cluster's clock is not known yet
unmet-not-read-yet = the cluster's Events are not read yet

## The self-check: the evidence file, each field's type, the values against the cluster
## (lab/eval/check.rs).
check-missing = { $path } is missing
check-missing-help = run the lesson (r in the tutor, or capa-tui do { $lesson }), or write it by hand as the lesson's By hand part shows
check-unreadable = { $path } cannot be read: { $why }
check-unreadable-help = check the file's permissions
check-empty = { $file } is empty
check-not-text = { $file } is not text, let alone JSON
check-not-json = { $file } is not JSON (line { $line }, column { $column })
json-type-number = number
json-type-string = string
json-type-boolean = boolean
json-type-string-or-null = string or null
check-not-object = { $file } must hold a JSON object ({"{"} "field": value, … {"}"})
check-wrote-it-help = did the command that wrote it fail? Run it again and read what it printed before the file was written
check-not-evidence = { $file } is not an evidence file of this lab
check-not-evidence-help = capa-tui check lists the lab's evidence files
check-type-ok = { $field } is a { $kind }
check-type-missing = { $field } is missing: it must be a { $kind }
check-type-wrong = { $field } must be a { $kind }, found { $found }
check-type-help-number = write the number without quotes: 3, not "3" (with jq: --argjson, or tonumber)
check-type-help-string = write the value in double quotes: "Synced" (with jq: --arg)
check-type-help-boolean = write true or false without quotes (with jq: --argjson)
check-type-help-string-or-null = write the value in double quotes, or null when there is none
check-type-help-missing = add { $field } to the file: the lesson's Steps say what it holds and when to record it
check-not-a-time = { $field } must be an RFC 3339 time, as creationTimestamp shows them, found { $found }
check-time-help = copy the time as the cluster shows it, e.g. 2026-03-01T10:02:11Z (kubectl get … -o jsonpath='{"{"}.metadata.creationTimestamp{"}"}')
check-live-ok = { $field } = { $value } matches the cluster
check-live-differs = { $field } is { $value } but the cluster shows { $live }
check-live-differs-syncing = { $app } is syncing now, so the cluster is still moving: check again once its sync has ended
check-live-differs-too-early = { $file } was written at { $written }, before { $app }'s last sync ended at { $ended }: the value was read too early; write the file again now
check-cannot-read-live = cannot check { $file } against the cluster: { $why }
check-cannot-read-live-help = the self-check needs the cluster: once it answers, check again (c)
check-cannot-read-steps = cannot read the cluster to check lesson { $lesson }'s steps: { $why }
check-cluster-help = the self-check needs to read the cluster: once it answers, check again (c)

## The rules a lesson's evidence must meet (lab/eval/check/rules.rs, history.rs).
check-step-unmet = { $step } — { $why }
rule-or = {" "}or{" "}
rule-in-order-ok = { $earlier } is no later than { $later }
rule-in-order-not = { $earlier } ({ $a }) is after { $later } ({ $b }): { $fix }
rule-before-condition-ok = { $field } came before { $object } became { $condition }
rule-before-condition-not = { $field } ({ $recorded }) is after { $object } became { $condition } ({ $at })
rule-apart-ok = { $to } is { $apart } s after { $from } (≥ { $seconds })
rule-apart-not = { $to } − { $from } is { $apart } s; wait at least { $seconds } s
rule-one-of-ok = { $field } is { $found }
rule-one-of-not = { $field } is { $found }, not { $allowed }
rule-one-of-not-why = { $field } is { $found }, not { $allowed }: { $why }
rule-cannot-read = cannot read { $object }: { $why }
rule-not-condition-yet = { $kind } { $name } is not { $condition } yet
rule-not-condition-yet-help = wait for the sync to finish, then check again (c)
rule-created-after-ok = { $object } was created after { $after } became { $condition }
rule-created-after-not = { $object } was created at { $created }, before { $after } became { $condition } ({ $since }): the waves did not hold it back; check the sync-wave annotations
rule-no-creation-time = { $object } has no creationTimestamp
rule-wave-object-gone = { $object } is not in the cluster, so the wave order cannot be checked
rule-sync-again-help = sync the app again, then check again (c)
rule-not-unix-seconds = { $field } is { $value }, not a time in Unix seconds: write date +%s (not milliseconds)
rule-in-the-future = { $field } ({ $value }) is in the future: the cluster's clock reads { $now }
rule-unix-seconds-ok = { $field } is a Unix time in seconds
rule-cannot-read-clock = cannot read the cluster's clock to check { $field }: { $why }
rule-after-write-ok = { $field } is right after { $manager } wrote { $path } ({ $at })
rule-after-write-not = { $field } is { $recorded }, but { $manager } wrote { $path } of { $object } at { $at }: record date +%s right after the scale
rule-after-write-owner = { $path } of { $object } is owned by { $owner }, not { $manager }: scale it with kubectl scale, then record the time
rule-after-write-undated = { $field } cannot be held against the cluster: { $manager } owns { $path } of { $object }, but the cluster no longer records when it wrote it (a scale is dated by its Event, kept an hour)
rule-nobody = nobody
rule-passes-ok = { $file } passes its own check
rule-passes-not = { $file } (lesson { $lesson }) does not pass its own check: { $why }
rule-passes-missing = { $file } (lesson { $lesson }) is not written yet, and this report builds on it
rule-passes-missing-help = do lesson { $lesson } first (capa-tui do { $lesson }, or by hand as its By hand part shows), then check this report again
rule-passes-not-help = fix lesson { $lesson } first (capa-tui check { $lesson } says what fails), then check this report again
rule-full-sha-ok = { $field } is a whole commit SHA
rule-full-sha-not = { $field } is { $found }: write the commit's whole 40-character SHA (git rev-parse prints it), not a branch, HEAD or a short SHA
rule-commit-sets-other = commit { $commit } sets { $path } in { $file } to { $set }, not { $value }
rule-commit-does-not-break = commit { $commit } does not have "{ $contains }" in { $file } (it is not the commit that broke it)
rule-commit-did-not-change = commit { $commit } did not change { $path }: its parent already has { $before }; the lab changes it in the same commit that breaks { $breaks }
rule-no-bare-repo = cannot open the bare repo { $bare }/{ $repo }.git to look at the commit
rule-no-bare-repo-help = the bare dir must be the lab's (--bare-dir)
rule-that-is = {" "}(that is { $commit })
rule-commit-not-in-main = { $field } "{ $commit }" is not a commit of { $repo }.git's main: write the SHA of the commit you pushed that broke the migration{ $suggest }
rule-commit-ok = commit { $commit } sets { $path } to { $value } and breaks { $breaks }
rule-commit-not = { $why }: write the SHA of the commit that broke the migration{ $suggest }
rule-not-applied-ok = { $field } { $live } is the value from before the commit: it was not applied
rule-not-applied-not = { $field } is { $live }, but while the hook failed the cluster still had the value from before the commit, { $before }: record { $field } from the live object while the operation is failing
rule-hook-name-not = { $field } "{ $job }" is not the name Argo CD gives a { $phase } hook with generateName { $generate_name } ({ $shape }): copy it from status.operationState.syncResult.resources
rule-hook-commit-ok = { $field } names commit { $rev } of { $repo }.git
rule-hook-commit-not = { $field } names commit { $rev }, which is not in { $repo }.git's main: record the hook of your own sync
rule-hook-gone = Job { $job } is not in { $namespace } any more, so { $field } cannot be checked against it: sync again and record the new hook Job
rule-lived-added-ok = { $field } { $commit } is the commit that added { $file }
rule-lived-added-not = { $field } "{ $commit }" is not a commit of { $repo }.git's main that added { $file }: write the SHA of the commit that did{ $suggest }
rule-lived-removed-ok = { $field } { $commit } is the commit that removed { $file }
rule-lived-removed-not = { $field } "{ $commit }" is not a commit of { $repo }.git's main that removed { $file }: write the SHA of the commit that did{ $suggest }
rule-lived-order-ok = { $added } added it, and { $removed } removed it later
rule-lived-order-not = { $removed_field } ({ $removed }) is not later than { $added_field } ({ $added }): record the removal that came after the addition
rule-lived-seen-ok = the cluster's events name { $kind } { $name } with uid { $uid } ({ $count } of them): it lived
rule-lived-seen-not = no event of the cluster names { $kind } { $name } with uid "{ $uid }": record { $field } (its metadata.uid) while it exists (the cluster keeps events for an hour)
rule-lived-gone-ok = { $kind } { $name } with that uid is gone
rule-lived-gone-not = { $kind } { $name } with the recorded uid is still there: push the commit that removes { $file } and wait for the sync
rule-hook-after-start-ok = { $field } is not before the operation that created { $job } started
rule-hook-after-start-not = { $field } ({ $at }) is before the operation that created { $job } started ({ $started }): record that Job's creationTimestamp
rule-hook-succeeded-ok = { $field } is a { $phase } hook that succeeded
rule-hook-succeeded-not = { $field } is not a { $phase } hook Job that succeeded: record the succeeded { $phase } hook
rule-hook-created-ok = { $field } is that Job's creationTimestamp
rule-hook-created-not = { $field } is { $recorded }, but that Job was created at { $real }: copy its metadata.creationTimestamp

## Reading evidence from the cluster (lab/eval/evidence.rs, derived.rs).
evidence-missing-field = { $path } of { $object }
evidence-missing-owner = an owner of { $path } of { $object }
evidence-missing-scale = a scale of { $deployment }
evidence-missing-added = a commit of main that adds { $file }
evidence-missing-removed = a commit of main that removes { $file }
evidence-look-again = look again in a moment
evidence-not-yet = { $what } is not there yet: { $hint }
evidence-cannot-write = cannot write { $path }: { $why }. Is the source dir writable?
evidence-redo-lesson = do lesson { $lesson } first (it writes { $file })
evidence-redo-file = write { $file } first
evidence-earlier-missing = { $file } is missing: { $redo }
evidence-earlier-not-json = { $file } is not valid JSON ({ $why }): fix it, or { $redo }
evidence-earlier-lacks = { $file } has no { $field }: { $redo }
evidence-no-layer = no layer sets { $key }
evidence-layer-disagrees = { $key }: the { $layer } layer says { $value } but the evidence recorded { $recorded }; do that lesson again so the evidence matches the cluster
checklist-undone = done at { $was }, undone since: { $why }
checklist-counting = { $seconds } s to go
verdict-checked-at = {" "}(checked { $clock })
verdict-help = what to do: { $help }
verdict-changed-since = it passed as of then; the cluster has moved on since, as the lab expects: { $what }

## Git (git.rs).
git-failed = git could not { $what }: { $why }
git-op-create-bare = create the bare repo { $path }
git-op-clone = clone { $url } into { $dest }
git-op-set-head = point HEAD at main
git-op-open = open { $path }
git-op-fetch = fetch origin
git-op-status = read the working copy's status
git-op-compare = compare with origin
git-op-index = stage the files
git-op-commit = commit
git-op-find-remote = find the remote origin
git-op-push = push to { $url }
git-op-configure = set the branch's upstream
git-rejected = the push to { $remote } was rejected: { $why }. Someone else pushed first: fetch and look at what changed (git -C { $repo } fetch && git -C { $repo } log --oneline HEAD..origin/main) before trying again

## "Do it for me": what each step did, what it waits for, and why it stopped (lab/engine/).
did-skip = already done (its condition holds now): skipped
did-skip-resume = done by the last run, which stopped after it; nothing has changed since: skipped
did-skip-passes = already done: lesson { $lesson }'s self-check passes now: skipped
did-create-bare = created { $path }
did-bare-there = { $path } is already there
did-hard-refresh = asked Argo CD to re-read { $app } from Git
did-write-evidence = wrote { $path }: { $value }
did-write-evidence-kept = wrote { $path } (your earlier file is kept as { $backup })
did-remove-files = removed { $paths }
did-remove-none = nothing to remove: the files are gone already
did-clone-there = { $dest } is already a clone
did-clone = cloned { $bare } into { $dest }
did-write-kept = { $path } (yours kept as { $backup })
did-files-there = the files are already there
did-write-files = wrote { $files }
did-commit-push = committed { $commit } and pushed
did-nothing-to-commit = nothing new to commit; { $commit } is pushed
did-apply = applied Application { $app } from { $path }
did-wait = { $app }: { $sync } · { $health } · revision { $revision }
did-nothing-blocks = no operation was running; nothing blocks the new commit
did-already-targets = the running operation already targets { $commit }
did-end-blocking = ended the operation retrying { $retrying }; automated sync can now pick up { $git }
did-no-operation = { $app } has no running operation (phase { $phase })
did-end-operation = ended: phase { $phase } · { $message }
did-end-and-record = ended the operation; wrote { $path }: { $value }
did-hold = { $seconds } s have passed since the scale
plan-pushing = pushing: { $current }/{ $total } objects, { $bytes } bytes
plan-waiting-cluster = waiting: the cluster does not answer ({ $why }); the step carries on when it is back
plan-waiting-deployment = waiting: wave { $wave } · Deployment/{ $name } { $have }/{ $want } available
plan-waiting-healthy = waiting: wave { $wave } · { $kind }/{ $name } to become healthy
plan-waiting-argo = waiting: { $message }
plan-waiting-status = waiting: sync { $sync } · health { $health }
plan-waiting-watch-stopped = waiting: the watch on the Application stopped ({ $why }); re-reading
plan-waiting-no-app = waiting: Application { $app } does not exist yet
plan-waiting-see-commit = waiting: Argo CD to see commit { $commit }
plan-waiting-refresh = waiting: Argo CD to read { $app } again
plan-ending-blocking = an operation is still retrying { $retrying } while Git is at { $git }: ending it ({ $command })
plan-waiting-end = waiting: the operation to end (phase { $phase })
plan-waiting-hold = waiting: { $seconds } s to go (selfHeal would revert replicas in that time if ignoreDifferences did not hold)
plan-waiting-scale-record = waiting: the deployment controller to record the scale of { $deployment } (its Event dates the scale)
run-cancelled = cancelled during step { $step }; run the lesson again to finish it
run-step-failed = step { $step } ({ $title }) failed: { $why }
run-no-actions = lesson { $folder } has no actions in its lesson.yaml
run-needs-lesson = lesson { $lesson } needs lesson { $needs } first: { $why }. Nothing was changed: do lesson { $needs } first (n/p reaches it, or capa-tui do { $needs })
run-unknowable = cannot tell whether this lesson's prerequisites are there: { $why }
step-error-bare-dir = { $why }. Is the bare dir right (--bare-dir) and writable?
step-error-clone-of-other = { $dest } is a clone of { $url }, not of { $wanted }: move it aside or pass another --src-dir
step-error-no-bare-repo = the bare repo { $bare } does not exist: create it first (git init --bare -b main { $bare })
step-error-cannot-write-in = cannot write in { $path }: { $why }. Is the source dir writable (--src-dir)?
step-error-cannot-move-clone = cannot move the clone into { $dest }: { $why }
step-error-no-template = capa-tui has no template { $template }
step-error-cannot-write = cannot write { $path }: { $why }
step-error-cannot-read = cannot read { $path }: { $why }
step-error-not-yaml = { $path } is not valid YAML: { $why }
step-error-no-name = { $path } has no metadata.name
step-error-sync-failed = the sync failed: { $message }
step-error-nothing-to-sync = { $app } is Synced at { $commit } and no sync ran on it: the commit changes nothing Argo CD compares (a hook alone does not make an app OutOfSync), so no hook runs. This lab is past where the lesson starts: run its whole plan (r, or capa-tui do) to stage it again
step-error-cannot-render = Argo CD cannot render the app: { $message }
step-error-gave-up = gave up after { $seconds } s; last seen: { $last }
step-error-watch-ended = the watch on the Application ended
step-error-no-commit = the working copy has no commit
step-error-would-lose-changes = { $path } holds changes that are in no commit: commit them, or move the file out of the working copy, then run the step again
step-error-never-saw = Argo CD never saw commit { $commit } on { $app }: hard-refresh it
step-error-did-not-end = the operation of { $app } did not end; phase is { $phase }
step-error-moment-passed = the moment this step records is over: { $app }'s failing operation ended unrecorded (its retries ran out) and { $app } has synced { $revision } since. Run lesson { $lesson }'s whole plan (r, or capa-tui do { $lesson }) to stage it again
plan-restage = { $app } is past where this lesson starts (step { $step } cannot happen on it): putting back the files lesson { $lesson } left and letting { $app } sync them, to stage the lesson again
plan-restage-commit = Back to lesson { $lesson }'s files, to stage this lesson again
plan-started-over = started over from step 1: { $why }
step-error-no-lesson-writes = no lesson writes { $file }
step-error-no-kubectl = kubectl is not on PATH. This step must run `kubectl scale` (the lab asks for it, and its report asks which manager owns spec.replicas): install kubectl or put it on PATH (scripts/install-tools puts one in .tools/bin: export PATH="$PWD/.tools/bin:$PATH"), then run this step again
step-error-cannot-run-kubectl = cannot run kubectl: { $why }
step-error-kubectl-failed = kubectl scale failed: { $said }
step-error-no-working-copy-lesson = there is no working copy at { $dir }: do lesson { $lesson } first (it creates and clones the repo)
step-error-no-working-copy = there is no working copy at { $dir }: clone the bare repo there first
step-error-uncommitted = the working copy { $dir } has changes of yours that are not committed ({ $files }). capa-tui never overwrites your work: commit them (git -C { $dir } commit -am ...) or put them aside (git -C { $dir } stash), then run the lesson again
step-error-behind = the remote has { $count } commit(s) your working copy { $dir } does not: bring them in first (git -C { $dir } pull --rebase), then run the lesson again
step-error-unpushed = the working copy { $dir } has { $count } commit(s) of yours that are not pushed: push them (git -C { $dir } push) or undo them, then run the lesson again
step-error-cluster-away = the cluster did not answer for { $seconds } s ({ $why }). Start it again (or fix the kubeconfig), then run the lesson again: it carries on from this step
step-error-evidence-fails = wrote { $file }, but it does not pass its own check: { $what }{ $more ->
    [0] {""}
   *[other] {" "}(and { $more } more)
 }. The file is kept: read it and the cluster (`capa-tui check { $lesson }` lists every finding), then run the lesson again or fix it by hand
step-error-lesson-fails = every step ran, but lesson { $lesson }'s check does not pass: { $what }{ $more ->
    [0] {""}
   *[other] {" "}(and { $more } more)
 }. `capa-tui check { $lesson }` lists every finding; fix what it names, then run the lesson again

## Sessions: which cluster, and one embedded cluster per lab (session.rs).
target-embedded = the embedded lab cluster at { $url } (state in { $state })
target-embedded-attached = the embedded lab cluster at { $url } (state in { $state }, served by process { $pid })
target-context = the cluster of context { $context } in { $kubeconfig }
# Shorter forms, for a header with no room for the whole: the first that fits is shown.
target-embedded-short = the embedded lab cluster at { $url }
target-embedded-shortest = the embedded lab cluster
target-context-short = context { $context }
target-current = (current)
session-kept-aside = A new lab: the previous one is kept in { $path }.
session-took-over = The process that served this lab before ({ $pid }) is gone; this one serves it now, with everything it kept.
session-attached = Using the embedded cluster that process { $pid } serves for this lab.
session-move-aside = cannot move the old lab { $from } aside to { $to }: { $why }. Move it yourself, or pick another --state-dir
session-state-dir = cannot use the state dir { $path }: { $why }. Pick a writable --state-dir
session-served = process { $pid } serves this lab's embedded cluster at { $url }: capa-tui --sim and the other --sim commands use it; stop that process first to move the lab aside or to serve it from here
session-not-saying = another capa-tui holds the lab in { $state } but has not said where it serves; if no capa-tui is running, remove { $state }/serve.lock and try again
sim-not-loopback = the embedded lab cluster only listens on loopback; { $addr } is not a loopback address (use 127.0.0.1:PORT)
sim-cannot-listen = cannot listen on { $addr }: { $why } (is another capa-tui sim already running there? pick another --listen port, or 0 for any free one)
sim-bad-speed = --speed must be a positive number (1 is real time, 10 is ten times faster); got { $speed }
repair-served = another process serves this lab ({ $state }): stop it first, then repair
repair-nothing = the journal reads whole: nothing to repair
repair-done = the journal was damaged at line { $line }: kept the { $kept } changes before it and left out { $aside } lines; the whole journal as it was is in { $copy }
sim-bare-dir = cannot use { $path } for bare repos: { $why }
sim-kubeconfig = cannot write the kubeconfig to { $path }: { $why }

## Settings (config.rs).
config-malformed = { $path }, line { $line }: { $message }. Fix or remove that line (`capa-tui config` shows the settings in effect).
config-bad-value = { $path }, line { $line }: { $key } = "{ $value }": { $expected }. Fix or remove that line (`capa-tui config` shows the settings in effect).
config-unreadable = cannot read { $path }: { $why }
config-bad-env = ${ $var } is "{ $value }": { $expected }
config-bad-flag = { $flag } "{ $value }": { $expected }
config-use-languages = use one of { $codes }
config-use-themes = use default, projector or monochrome
config-use-yes-no = use 1 or 0
config-use-learner = use lowercase letters, digits and - (at most 20), for example alice
origin-flag = the { $flag } flag
origin-not-presenting = not presenting unless asked
origin-locale = from the locale
origin-presenting = presenting
origin-default = the default

## The command line (cli/).
cli-needs-terminal = the tutor needs a terminal; for scripts use `capa-tui do|check|status` (see --help)
cli-no-lesson = no lesson "{ $key }"; the lessons are: { $lessons }, or all
config-file = config file: { $path }
config-file-absent = config file: { $path } (not there; see capa-tui config --help)
config-file-none = config file: none (no home directory)
app-refresh = Application '{ $name }' refresh requested
app-refresh-hard = Application '{ $name }' refresh requested (hard)
app-terminating = Application '{ $name }' operation terminating
serve-serving = embedded lab cluster serving at { $url }
serve-kubeconfig = kubeconfig: { $path }
serve-bare = bare git repos: { $bare } (create one: git init --bare -b main { $bare }/src.git)
serve-git = git URL: { $url } (Applications use git://{ $host }/src.git)
serve-try = try: KUBECONFIG={ $kubeconfig } kubectl get namespaces
serve-state = state dir: { $state } (capa-tui --sim and the other --sim commands here use this cluster)
serve-stopping = stopping the embedded lab cluster...
do-about-to-change = capa-tui is about to change { $target }.
do-folders = Source dir: { $src }   Bare repos: { $bare }
do-lesson = Lesson { $lesson } · { $title }
do-not-asking = not asking on a non-interactive input; add --yes to go ahead
do-go-ahead = Go ahead? [y/N]{" "}
do-answer-yes = y
do-nothing-changed = Nothing was changed.
do-cannot-create-src = cannot create the source dir { $path }: { $why }. Pass a writable --src-dir.
do-lesson-failed = lesson { $lesson }: { $why }
do-lesson-done = == lesson { $lesson } done in { $seconds }s
check-pass = ✓ PASS
check-fail = ✗ FAIL
check-steps = steps
check-line = { $verdict } { $what } (lesson { $lesson } · { $title })
check-hint = hint { $n }: { $hint }
status-not-created = (not in the cluster)
status-on-lesson = Progress: on lesson { $lesson }, { $part }
status-not-opened = Progress: the tutor has not been opened on this lab yet
status-checklist = lesson { $lesson }: { $done }/{ $of } steps done now
status-undone = {"    "}✗ { $step } — { $why }
status-prediction = lesson { $lesson }, action { $action }: predicted { $answer }
doctor-no-cluster = no cluster: pass --kubeconfig/--context, set KUBECONFIG, or use --sim ({ $why })
doctor-target = target: { $target }
doctor-api = API reachable: Kubernetes { $version }
doctor-no-api = API not reachable: { $why }
doctor-crd = the Application CRD is installed
doctor-no-crd = the Application CRD is missing: is Argo CD installed?
doctor-argocd = Argo CD is in namespace argocd; application.resourceTrackingMethod: { $method }
doctor-tracking-unset = (unset: annotation, the 3.x default)
doctor-no-argocd = argocd-cm not readable in namespace argocd ({ $why }): is Argo CD installed there?
doctor-bare = bare dir { $path } is writable
doctor-no-bare = bare dir { $path } is not writable: pass --bare-dir
doctor-jq = jq is on PATH (the lessons' by-hand commands write evidence with it)
doctor-no-jq = jq is not on PATH: the lessons' by-hand commands write evidence with it (apt-get install jq)
doctor-kubectl = kubectl is on PATH
doctor-no-kubectl = kubectl is not on PATH: lesson { $lesson } stops at its kubectl scale step (run scripts/install-tools and add .tools/bin to PATH)
env-eval = # eval "$({ $command })" puts these in your shell
env-nothing-serves = capa-tui: no embedded cluster serves { $state } yet: start one with capa-tui --sim or capa-tui sim serve (same --state-dir), then kubectl works with these settings.
shell-opening = a shell for the lab on { $label } in { $cwd } (exit it to come back)
header-clock = ×{ $speed } clock{" "}
header-clock-ahead = clock +{ $ahead }{" "}
shell-clock-ahead-follows = The cluster's clock is { $ahead } ahead of yours (the lab once ran faster), and date in this shell keeps the cluster's time.
shell-clock-ahead-wall = The cluster's clock is { $ahead } ahead of yours (the lab once ran faster), but date in this shell keeps yours, so the lesson's own timings will not match the cluster: install Debian's faketime package (apt-get install faketime) and open the shell again.
shell-clock-follows = The cluster's clock runs { $speed }× as fast as yours, and date in this shell keeps the cluster's time (sleep still waits your seconds: longer than needed, never too short).
shell-clock-wall = The cluster's clock runs { $speed }× as fast as yours, but date and sleep in this shell keep yours, so the lesson's own timings will not match the cluster: install Debian's faketime package (apt-get install faketime) and open the shell again.
env-clock-fast = capa-tui: the cluster's clock runs { $speed }× as fast as yours; date and sleep in a shell with these settings keep yours. capa-tui shell --sim opens a shell on the cluster's clock.
shell-cannot-start = cannot start { $program }: { $why }
shell-error-no-shell = no shell to start: $SHELL is not set and bash is not installed. Set SHELL (export SHELL=/bin/sh) or install bash, then start the shell again
shell-error-rc-file = cannot write the shell's start-up file { $path }: { $why }
shell-error-create-dir = cannot create the shell's folder { $dir }: { $why }
shell-error-terminal = cannot open a pseudo-terminal for it: { $why }
# capa-tui lesson lint, new, test
lint-yaml = not YAML: { $why }
lint-not-text = not UTF-8 text from here on (read as nothing, the lesson would be left out): save the file as UTF-8
lint-cannot-read = cannot read this file: { $why }
lint-templates-unreadable = the templates cannot be read: { $why }
lint-unknown-field = unknown field { $field }: remove it or write one of: { $expected }
lint-shape = { $part } does not read: { $why }
lint-let = { $why }
lint-unknown-name = ${"{"}{ $name }{"}"} is not named in let: (it names: { $known }); add it to let: or fix the name
lint-literal-value = this text spells out { $value }, which let.{ $name } reads from the templates: write ${"{"}{ $name }{"}"} so it follows a lab whose templates set another value
lint-old-value = this text still says { $old }, as the built-in templates set it, but these templates set { $new }: write ${"{"}{ $name }{"}"}
lint-no-template = there is no template folder { $template }: add it to the templates (repo-template/ or --templates) or fix the name
lint-template-not-listed = the plan writes template { $template }, which templates: does not list: add it there
lint-no-app-file = none of the lesson's templates has { $file } at its top: put it there or fix the name
lint-unknown-app = no template defines an Application named { $app } (they define: { $known }): fix the name or add its file
lint-unknown-namespace = no Application deploys to namespace { $namespace } (the lab's namespaces: { $known }): fix the name
lint-unknown-object = no Application of the templates deploys { $object } (of that kind there they deploy: { $known }): fix the name, or add it to a template
lint-no-evidence-field = { $file } has no field { $field }: add it under evidence.fields or fix the name
lint-no-evidence-file = no lesson writes the evidence file { $file }: fix the name
lint-not-own-evidence = this plan writes { $file }, but the lesson's evidence file is { $own }: they must be the same
lint-no-lesson = there is no lesson { $number } here: fix the number
lint-needs-lesson = this lesson uses { $what }, which lesson { $lesson } makes: add {"{"}lesson: { $lesson }, done_when: …{"}"} to requires:
lint-needs-some-lesson = this lesson uses { $what }, which neither it nor a lesson it requires makes: add an action that makes it, or require the lesson that does
lint-unreachable = no action of the plan can make { $condition } true: add { $needs }
lint-value-differs = the lesson's templates set { $path } of { $file } to { $found }: say that value, or better read it with let: and say ${"{"}name{"}"}
lint-app-spec-differs = the Application { $app } of the lesson's templates ({ $at }) does not have { $field }: { $wants }, which this has: asks for: read its values with let:, or fix the template
lint-hint = hint { $hint }: the English text has { $count } hints (1 to { $count })
lint-asked-after-it-started = step mode asks this question after action { $action } ({ $does }) set off the sync that answers it: the room can watch the answer arrive before it predicts. Ask it at action { $action } or earlier
lint-narration-gives-away = the narration on screen while step mode asks this question names one of its answers ({ $choice }, in { $code }): ask it as a question here, and say the result in the `then:` of the action that answers it
lint-no-language = no { $code }.md: write the lesson's text in this language too (the six sections of en.md)
lint-sections = { $code }.md: expected 6 sections (## Goal, Why, Steps, Mistakes, Hints, By hand), found { $found }
lint-missing-text = no { $code }: text here: add it
lint-same-number = number { $number } is also lesson { $other }'s: give each lesson its own
lint-no-schema = the modeline names the schema { $schema }, and there is no file { $path }: write it with capa-tui lesson schema > { $path }, or fix the path
lint-translation = { $code }.md, { $section }: { $what }
lint-translation-hints = { $found } hints where en.md has { $en }: translate each hint of en.md, in its order
lint-translation-steps = { $found } numbered steps where en.md has { $en }: translate each step of en.md, in its order
lint-translation-code-blocks = { $found } code blocks where en.md has { $en }: copy en.md's code blocks, translating only their # comments
lint-translation-code = code block { $block } differs from en.md's: en.md has { $en }, { $code }.md has { $here }: copy the code from en.md (only a # comment may be translated)
lint-translation-block-end = the end of the block
lint-translation-inline-code = the inline code differs from en.md's ({ $diff }): write the same `code` as en.md (only the words in a <placeholder> may be translated)
lint-translation-numbers = the numbers outside code differ from en.md's ({ $diff }): say the same numbers as en.md
lint-translation-references = the ${"{"}…{"}"} values differ from en.md's ({ $diff }): use the same ${"{"}name{"}"}s as en.md
lint-translation-only-en = only en.md has { $items }
lint-translation-only-here = only { $code }.md has { $items }
lint-translation-more = and { $count } more
lint-no-lessons = { $path }: no lesson.yaml here or in its folders
lint-clean = { $lessons ->
        [one] 1 lesson
       *[other] { $lessons } lessons
    }, no problems
lint-problems = { $problems ->
        [one] 1 problem
       *[other] { $problems } problems
    } in { $lessons ->
        [one] 1 lesson
       *[other] { $lessons } lessons
    }
lesson-new-made = made { $dir }, with these files:
lesson-new-schema-note = the JSON Schema that each lesson.yaml's first line names, for editors
lesson-new-lint = lint it with capa-tui lesson lint { $dir }
lesson-new-bad-name = { $name }: a lesson folder is NN-slug (two digits, a dash, lowercase words with dashes), e.g. 09-greeting
lesson-new-exists = { $dir } is already there: choose another name
lesson-new-cannot-write = cannot write { $path }: { $why }
lesson-test-lint-first = the lessons do not lint clean: fix the problems above, then test again
lesson-test-no-state = cannot make a folder for the test lab: { $why }. Pass --state-dir DIR.
lesson-test-start = Testing { $lessons ->
        [one] one lesson
       *[other] { $lessons } lessons
    } from { $dir } on a fresh embedded cluster (its clock at { $speed }× speed; the lab in { $state })
lesson-test-step = { $step }. { $title } · { $seconds } s · { $summary }
lesson-test-passes = lesson { $lesson }: the self-check passes ({ $what })
lesson-test-fails = lesson { $lesson }: the self-check fails ({ $what }):
lesson-test-refuses = refuses { $what }
lesson-test-learner-reads = a learner reads: { $why }
lesson-test-accepts = accepts { $what }: nothing in lesson { $lesson }'s lesson.yaml refuses it; mark the field live: true, or add a rule that pins it
lesson-test-wrong-type = { $field } of the wrong type ({ $value })
lesson-test-one-off = { $field } one off ({ $value })
lesson-test-crosses = { $field } past its { $rule } rule ({ $value })
lesson-test-earlier = an earlier { $file } whose { $field } has the wrong type
lesson-test-at-the-end = Every lesson again, as the lab's grader sees the finished lab
lesson-test-summary = { $lessons ->
        [one] 1 lesson
       *[other] { $lessons } lessons
    } · { $steps } steps in { $seconds } s · self-check passed { $grades } of { $graded } · broken evidence refused { $refused } of { $broken }
lesson-test-kept = The lab is kept for a look: capa-tui --sim --state-dir { $state }
trial-cannot-write = cannot write the evidence file { $path }: { $why }

## lesson lint: what a let: value, a reference or a plan lacks, in the author's language
lint-shape-parser = { $part } does not read: { $why }
lint-needs-write-push = do: write-templates (a template with that file and value) and do: commit-push
lint-needs-apply-app = do: apply-app (an Application file that holds has:)
lint-needs-hold = do: hold-after-scale (as many seconds)
let-no-source = let.{ $name }: give either file: (a template file to read it from) or value:
let-both-sources = let.{ $name }: give file: or value:, not both
let-which-template = let.{ $name }: say which template to read (template:), the lesson writes { $count } (templates:)
let-no-template = let.{ $name }: there is no template folder { $template } (repo-template/ or --templates)
let-no-file = let.{ $name }: template { $template } has no file { $file }
let-not-yaml = let.{ $name }: { $file } does not read as YAML ({ $why }); leave out path: to read its text
let-no-path = let.{ $name }: { $file } has nothing at { $path }
let-not-text = let.{ $name }: after:/before: cut a text, and { $file } holds { $found } there
let-no-after = let.{ $name }: { $found } does not contain { $after } (after:)
let-unknown = ${"{"}{ $name }{"}"}: no such value; let: names { $known }
let-unknown-none = ${"{"}{ $name }{"}"}: no such value; let: names nothing
let-nested = let.{ $name }: cannot say ${"{"}{ $other }{"}"} inside let:; read it from its file instead
spec-not-evidence-ref = { $text } is not FILE#FIELD (e.g. precedence.json#replicas)
spec-not-object-ref = { $text } is not namespace/Kind/name
spec-unknown-kind = { $reference }: unknown kind { $kind } (Application, ConfigMap, Deployment, Job, Pod, Secret, Service)
spec-bad-path = path { $path }: { $why }
spec-path-unclosed-quote = unclosed ["
spec-path-unclosed = unclosed [
spec-path-filter = a list filter is [key=value,...]
spec-path-empty-key = empty key
spec-path-empty = empty
spec-no-english = a text needs its English ({ $code }:), which stands in for a language it lacks
lint-unknown-variant = { $part } does not read: unknown variant `{ $variant }`, expected one of: { $choices }
lint-missing-field = { $part } does not read: missing field `{ $field }`

## issue 32: the learner's files and signals
check-not-regular = { $path } is not a regular file (a pipe, a device or a folder), so it is not read
check-not-regular-help = remove it and write the evidence as a plain file
check-too-big = { $path } holds { $size } bytes, more than the { $limit } an evidence file may hold
progress-damaged = { $file } did not read, so your progress starts over; the damaged file is kept as { $kept }
progress-damaged-screen = Your saved progress did not read, so it starts over here. The damaged file is kept as { $kept }: nothing in it is lost.
spec-evidence-outside = { $text } leads out of the source dir: an evidence file is a relative path inside it, without ..
evidence-outside = { $file } leads out of the source dir { $dir } (through .., an absolute path or a symbolic link), so capa-tui neither reads nor writes it
evidence-outside-help = replace the link with a plain file inside the source dir, or ask the lesson's author to name a path inside it
session-fresh-in-use = A tutor, shell or plan still has the lab in { $state } open, so --fresh does not move it from under them: close them (q in the tutor, exit in the shell), then run --fresh again.
serve-log = log: { $path }
setup-lessons-builtin = capa-tui's own lessons
setup-lessons-in = the lessons in { $dir }
setup-templates-builtin = capa-tui's own templates
setup-templates-in = the templates in { $dir }
setup-of-the-lab = This lab uses { $lessons } and { $templates }, kept with it in { $file }: every command on this lab uses them without --lessons or --templates. Give --lessons builtin --templates builtin to go back to capa-tui's own.
setup-as-learner = { $setup } It is the lab of learner { $learner } (their own Application names), kept the same way.
setup-gone = This lab was set up with { $dir } (kept in { $file }), which is not there any more: put it back, or give --lessons or --templates again with the folder to use (builtin for capa-tui's own).
setup-damaged = { $file } (how this lab was set up) does not read: { $why }. Remove it and give --lessons and --templates again.
setup-cannot-keep = Cannot keep this lab's lessons and templates in { $file } ({ $why }): give --lessons and --templates on every command on this lab.
sim-folder-not-yours = { $path } belongs to another user (uid { $owner }), who could replace the cluster's files; use a folder of your own (for example the default state dir)
sim-folder-others-write = { $path } can be written by other users (mode { $mode }), who could replace the cluster's files; run `chmod go-w { $path }` or use a folder of your own
sim-folder-unreadable = cannot look at { $path }: { $why }
tutor-folder-not-yours = { $path } belongs to another user (uid { $owner }), who could change your progress and what the lab shell runs as it starts; use a source dir of your own (`--src-dir`)
tutor-folder-others-write = { $path } can be written by other users (mode { $mode }), who could change your progress and what the lab shell runs as it starts; run `chmod go-w { $path }` or use a source dir of your own (`--src-dir`)
learner-bad-name = { $name } is not a learner name: use lowercase letters, digits and '-' (at most { $most }), for example alice or team-7
class-passed = passed
class-failed = failed: { $why }
class-not-started = not started
class-collected = collected the lab into { $dir }: { $passed } of { $total } lessons pass
class-row = { $learner }  { $lessons }  · { $minutes } min · hints { $hints } · predictions { $right }/{ $predictions } right
class-title = The class
class-learner = learner
class-minutes = minutes
class-hints = hints
class-predictions = predictions right

## capa-tui replay: a recorded session played again
replay-playing = ▶ replay
replay-paused = ⏸ paused
replay-ended = ■ end
replay-position = { $at }/{ $total } · ×{ $speed } · step { $step }/{ $steps }
replay-keys = space play · PgDn/PgUp step · q quit · ←/→ 10 s · +/− speed · L language
replay-error-read = cannot read the recording { $path }: { $why }
replay-error-cast-without = { $cast } is a cast (asciinema plays it); capa-tui replays the messages recorded beside it, { $replay }, which is not there. Give the .replay file, or record again with --record.
replay-error-not-a-replay = { $path } is not a capa-tui recording: give the .replay file (or the .cast beside it) that --record wrote.
replay-error-version = { $path } was recorded by a capa-tui whose recordings are version { $found }; this one replays version { $reads }. Replay it with the capa-tui that recorded it, or record it again.
replay-error-write = cannot write { $out }: { $why }. Give --out a file in a folder you can write to.
replay-error-line = { $path }, line { $line }, does not read as a recorded message ({ $why }): the file was changed or cut. The replay needs it whole.
replay-error-lessons = the lessons recorded in { $path } do not load: { $why }
replay-exported = wrote { $out } ({ $width }×{ $height }, { $lang }, { $seconds } s): asciinema play { $out }
header-replay = REPLAY of { $at }{" "}
class-watch-heading = The room · { $learners ->
        [one] one learner
       *[other] { $learners } learners
    } · graded { $at } · again on every change · Ctrl-C ends
cli-cannot-record = cannot record into { $path }: { $why }. Give --record a file in a folder you can write to.
