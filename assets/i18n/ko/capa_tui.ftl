## capa-tui 화면에 나오는 문장(한국어). 메시지 id는 영어 파일과 하나하나 같아야 합니다.
## Argo CD와 Kubernetes의 용어(Synced, OutOfSync, PreSync, 필드 경로, 명령)는 그대로 둡니다.
## 문체: 합니다체(요청은 "~하세요"). 버튼·표제·목록은 짧은 명사형("~하기", "~함").
##
## 용어집 (ftl과 lessons/*/ko.md에서 똑같이 씁니다):
##   do it for me (r, 레슨의 계획 실행) = 대신 해 주기 · plan = 계획 · action = 동작
##   step mode = 단계 모드 · self-check = 자가 점검 · evidence (file) = 증거 (파일)
##   checklist = 체크리스트 · hint = 힌트 · prediction = 예측 · lesson = 레슨 · the lab = 실습
##   lesson parts: Goal = 목표 · Why it matters = 왜 중요한가 · Steps = 절차
##     · Common mistakes = 자주 하는 실수 · Hints = 힌트 · By hand = 직접 해 보기
##   working copy = 작업 사본 · bare repo = 베어 저장소 · repo = 저장소 · commit = 커밋
##   push = 푸시 · clone = 클론 · shell = 셸 · pane = 패널 · focused pane = 현재 패널
##   live / stale (watch) = 실시간 / 갱신 끊김 · live (object, value) = 실제 (클러스터의 실제 객체)
##   watch = 감시 · as of = ~ 기준 · raw = 원본 · theme = 테마 · zoom = 확대
##   sync = 동기화 · automated sync = 자동 동기화 · operation = 작업(operation) · retry = 재시도
##   hard refresh = 하드 리프레시 · hook = 훅 · phase, wave = 그대로 · timeline = 타임라인
##   values provenance = 값 출처 · layer = 계층 · override = 오버라이드 · chart = 차트
##   release = 릴리스 · desired state = 의도한 상태 · manifest = 매니페스트 · replicas = 레플리카
##   annotation = 어노테이션 · label = 레이블 · field manager = 매니저 · owner = 소유자
##   subresource = 서브리소스 · diff = 비교 · drift = 드리프트
##   embedded lab cluster = 내장 실습 클러스터 · source dir = 소스 디렉터리 · state dir = 상태 디렉터리
##   bare dir = 베어 디렉터리 · presenting = 발표 모드 · prerequisite = 선행 조건 · rollout = 롤아웃
##   조사: 자리표시자({ $file } 등) 바로 뒤에는 은/는·이/가·을/를을 붙이지 않습니다(받침을 알 수 없음).
##     "{ $file } 파일이", "{ $commit } 커밋은", "{ $path } 값을"처럼 명사를 넣거나, 의·에·에서·부터를 씁니다.
##   status words, glossed at the end of this file: Synced = 동기화됨, Healthy = 정상, ...

## 키: 도움말에 나오는 각 키의 동작(tui/keymap.rs).
key-shell = 셸: 실습 명령을 여기서 입력(실습 환경이 갖춰진 셸을 시작)
key-next-command = 레슨의 다음 명령 선택
key-prev-command = 이전 명령 선택
key-type-command = 선택한 명령을 셸에 입력(Enter는 직접 누릅니다)
key-copy-command = 선택한 명령을 클립보드에 복사(OSC 52)
key-leave-shell = 셸에서 나가기: 키 입력이 다시 capa-tui로 갑니다
key-scroll-up = 현재 패널을 위로 스크롤(셸: 지난 출력 보기)
key-scroll-down = 현재 패널을 아래로 스크롤
key-scroll-top = 현재 패널의 맨 위로
key-scroll-bottom = 현재 패널의 맨 아래로
key-quit = 종료
key-help = 도움말
key-close = 도움말 / 원본 보기 / 확대 닫기, 그 밖에는 고른 명령 선택 해제
key-next-pane = 다음 패널
key-prev-pane = 이전 패널
key-zoom = 현재 패널 확대
key-next-section = 레슨의 다음 페이지, 끝나면 다음 부분
key-next-section-stepping = 단계 모드: 다음 동작 실행(프레젠터 리모컨의 키)
key-prev-section = 이전 페이지, 맨 위면 이전 부분
key-next-lesson = 다음 레슨
key-prev-lesson = 이전 레슨
key-run = 대신 해 주기(레슨의 계획 실행)
key-step = 단계 모드: 레슨 계획의 다음 동작을 먼저 보여 주고 실행
key-cancel = 실행 중인 계획 취소
key-check = 이 레슨의 증거 파일 자가 점검
key-hint = 힌트 하나 더
key-theme = 테마: 기본 / 프로젝터 / 흑백
key-language = 언어: 튜터가 말하는 다음 언어로 (레슨, 패널, 메시지. 여러분의 작업은 그대로입니다)
key-raw = managedFields 패널에서는 원본 항목, 그 밖에서는 이기는 Helm 계층 보기
key-next-app = 타임라인: 다음 Application
key-next-object = managedFields: 다음 객체

## 레슨의 각 부분(lab/catalog.rs).
section-goal = 목표
section-why = 왜 중요한가
section-steps = 절차
section-mistakes = 자주 하는 실수
section-hints = 힌트
section-by-hand = 직접 해 보기

## 패널: 테두리의 제목과, 패널 목록 줄에 나오는 짧은 이름.
pane-lesson = 레슨
pane-shell = 셸
pane-apps = Applications(애플리케이션)
pane-timeline = 동기화 타임라인
pane-fields = managedFields(필드 소유권)
pane-values = 값 출처
pane-evidence = 증거
pane-lesson-short = 레슨
pane-shell-short = 셸
pane-apps-short = 앱
pane-timeline-short = 타임라인
pane-fields-short = 필드
pane-values-short = 값
pane-evidence-short = 증거

## 얼마나 지났는지: 갱신이 끊긴 감시 데이터의 나이.
age-seconds = { $seconds }초
age-minutes = { $minutes }분 { $seconds }초
age-hours = { $hours }시간 { $minutes }분

## 계획의 단계: "대신 해 주기"가 단계마다 하는 일(lab/spec/plan.rs).
step-create-bare-repo = 베어 저장소 { $repo }.git 만들기
step-clone = { $repo }.git 클론하기
step-write-templates = { $template }의 파일 작성하기
step-commit-push = 커밋하고 푸시하기: { $message }
command-write-templates = repo-template/{ $template }의 파일을 { $repo }와 { $src }에 씁니다
command-evidence = kubectl로 값을 읽어 { $path }에 씁니다
command-evidence-fields = kubectl로 { $fields } 값을 읽어 { $path }에 씁니다
step-apply-app = { $file } 적용하기
step-hard-refresh = { $app } 하드 리프레시
step-wait-synced-healthy = { $app }의 상태가 Synced, Healthy가 될 때까지 기다리기
step-wait-succeeded = { $app }의 상태가 Synced, Healthy, Succeeded가 될 때까지 기다리기
step-wait-operation-failed = { $app }의 작업이 실패할 때까지 기다리기
step-end-blocking-operation = 새 커밋을 막고 있는 { $app }의 작업 끝내기
step-end-operation = { $app }의 실패하고 있는 작업 끝내기
step-end-operation-and-record = { $app }의 실패하고 있는 작업을 끝내고 { $file } 기록하기
step-scale = { $deployment }의 레플리카를 { $replicas }개로 스케일하기
step-hold-after-scale = { $deployment } 스케일 후 { $seconds }초 기다리기
step-evidence = 클러스터에서 읽어 { $file } 작성하기
step-evidence-fields = 클러스터에서 { $fields } 값을 읽어 { $file }에 쓰기
step-remove-files = 작업 사본에서 { $paths } 삭제하기

## Applications 패널(tui/view/panes.rs).
apps-not-loaded = Applications를 아직 불러오지 못했습니다. 클러스터가 아직 응답하지 않았습니다(헤더 참고).
apps-none-yet = argocd에 Application이 없습니다. r을 누르면 이 레슨의 계획이 실행되어 필요한 것을 만듭니다.
apps-none-builds-on = argocd에 Application이 없습니다. 이 레슨은 { $needs }번 레슨을 바탕으로 합니다. 그 레슨을 마친 뒤 r을 누르면 이 레슨의 계획이 실행됩니다 (n/p로 레슨 이동).
apps-revisions = {"  "}Git { $git }{ $git_subject } · { $good }
apps-last-good = 마지막 동기화 성공 { $revision }{ $subject }
# When the commit that last synced OK is Git\'s own: its subject is not said twice.
apps-last-good-here = 마지막 동기화 성공: 이 커밋
apps-nothing-since = { $revision }{ $subject } 이후 적용할 변경 없음
apps-never-good = 아직 동기화에 성공한 적 없음
apps-op-ended = {"  "}{ $revision }의 마지막 동기화:{" "}
apps-op-running = {"  "}⧗ { $revision } 동기화 중:{" "}
apps-op-retrying = {"  "}⧗ { $revision } 재시도 중({ $count }번째 재시도):{" "}
apps-op-retrying-of = {"  "}⧗ { $revision } 재시도 중({ $limit }번 중 { $count }번째 재시도):{" "}
apps-op-after-retries = {" "}({ $count ->
   *[other] 재시도 { $count }회
} 후)
apps-op-since = { $time }부터
retry-count = {" "}· 재시도 { $count }회
retry-count-of = {" "}· 재시도 { $limit }회 중 { $count }회
apps-retry-trap = {"  "}⚠ 작업이 아직 { $retrying } 커밋을 재시도하고 있고, Git은 이미 { $git }입니다. 새 커밋은 이 작업이 끝나야 동기화됩니다. 끝내는 명령: { $command }

## managedFields 패널.
fields-not-there = { $object } 객체가 클러스터에 없습니다. o: 다음 객체
fields-gone = { $object } 객체는 { $at }에 삭제되어 지금 클러스터에 없습니다. o: 다음 객체
fields-heading = { $object }   (o: 다음 객체 · v: 원본)
fields-replicas-owner = spec.replicas의 소유자: { $manager }({ $operation })
fields-replicas-owner-subresource = spec.replicas의 소유자: { $manager }({ $operation }, 서브리소스 { $subresource })

## 값 출처 패널.
values-none = Helm 값을 추적하는 레슨이 없습니다.
values-app-missing = argocd에 { $app } Application이 없습니다.
values-live-matches = 실제 값: { $value } ✓
values-live-differs = 실제 값: { $value } ✗ 이긴 계층과 다름
values-winner-hidden = 어느 계층이 이기는지는 증거를 쓸 때까지 숨겨 둡니다. 먼저 예측해 보세요(v를 누르면 바로 보입니다).
summary-values-hidden = 이기는 계층: 증거를 쓸 때까지 숨김(v로 보기)
values-winner-hidden-until-answered = 질문에 답하기 전까지는 어느 계층이 이기는지 숨겨 둡니다.
summary-values-hidden-until-answered = 이기는 계층: 질문에 답할 때까지 숨김

## 증거 패널.
evidence-missing = 없음
evidence-passes = 통과
evidence-fails = 실패
evidence-not-checked = 아직 점검 안 함(c로 점검)
evidence-being-written = 작성 중(다 쓰면 점검)

## 아래쪽 줄: 보여 주는 키마다 한두 단어.
footer-help = 도움말
footer-next-section = 넘기기
footer-shell = 셸
footer-next-command = 명령 선택
footer-type-command = 입력
footer-run = 대신 해 주기
footer-step = 단계 모드
footer-cancel = 취소
footer-check = 점검
footer-hint = 힌트
footer-next-pane = 패널
footer-zoom = 확대
footer-quit = 종료
footer-next-action = 다음 동작
footer-leave-shell = capa-tui로 돌아가기(다른 키는 모두 셸로 갑니다)

## 틀: 헤더, 제목, 겹쳐 뜨는 창(tui/view/chrome.rs).
header-theme = {" "}· 테마 { $theme }
header-learner = {" "}· 학습자 { $learner }
shell-typing = 입력 중 · capa-tui로 돌아가기: Ctrl-]
help-title = {" "}키 · Esc로 닫기{" "}
help-mode-normal = 지금 각 키가 하는 일(흐린 글씨: 여기서는 아직 할 일이 없음)
help-mode-present-step = 발표 중, 단계 모드: 스페이스, PgDn, →는 다음 동작을 실행합니다(흐린 글씨: 여기서는 아직 할 일이 없음)
help-scroll = ↑/↓와 PgUp/PgDn으로 이 목록을 스크롤 · Esc 또는 ?로 닫기
predict-title = {" "}예측한 뒤 지켜보기{" "}
confirm-title = {" "}바꾸기 전에 확인하세요{" "}
confirm-about-to-change = 레슨 { $lesson }에서 바꿀 대상: { $target }
confirm-folders = 소스 디렉터리 { $src } · 베어 저장소 { $bare }
confirm-go-ahead = 진행{"   "}
confirm-change-nothing = 아무것도 바꾸지 않기

## 실시간인지, 갱신이 끊겼는지: 헤더, 갱신이 끊긴 패널, 알림 창(tui/view/health.rs).
watch-live = ✓ 실시간
watch-connecting = … 연결 중
watch-stale-since = ✗ { $clock } 이후 갱신 끊김({ $age } 전) · 다시 연결 중
watch-not-loaded = ✗ 아직 불러오지 못함 · 다시 연결 중
watch-all = 모든 감시
watch-more = 외 { $count }개
watch-failing = { $who }: { $problem }
pane-as-of = {" "}· { $clock } 기준
pane-not-loaded = {" "}· 불러오지 못함
notice-title = {" "}클러스터가 응답하지 않습니다{" "}
notice-title-lab = {" "}내 실습{" "}
notice-title-plan = {" "}실행 중인 계획이 있음{" "}
notice-plan-running = { $what }은(는) 기다려야 합니다. 레슨 { $lesson }의 계획이 실행 중이고, 계획은 한 번에 하나만 실행됩니다. 끝날 때까지 기다리거나 x를 눌러 취소하세요.
notice-quit-while-plan-runs = 레슨 { $lesson }의 계획이 실행 중입니다. 종료하면 계획이 멈춥니다(내장 클러스터라면 클러스터도 함께 멈춤). 나중에 r로 다시 실행하면 멈춘 곳에서 이어 갑니다.
notice-quit-or-any-key = q를 한 번 더 누르면 종료 · 다른 키를 누르면 돌아가기
notice-what-run = “대신 해 주기”
notice-what-check = 자가 점검
notice-what-step = 단계 모드
notice-what-other = 이 기능
notice-needs-cluster = { $what }({ $key })에는 클러스터가 필요한데, 클러스터가 응답하지 않습니다:
notice-as-of = {"  "}패널에는 { $clock } 기준의 상태가 보입니다.
notice-what-to-do = 클러스터를 다시 시작하거나 kubeconfig를 확인하세요. capa-tui는 스스로 다시 연결합니다. 헤더에 ✓ 실시간이 보이면 { $key } 키를 다시 누르세요.
notice-any-key = 아무 키나 누르면 닫힙니다.

## 자리를 받지 못한 패널의 한 줄 요약(tui/view/summary.rs).
# The start of a pane's one-line summary: its title, how old its data is, then what it shows.
summary-head = ▸ { $pane }{ $as_of }:{" "}
summary-shell-running = 실행 중 · s로 입력
summary-shell-not-started = s를 누르면 실습 환경으로 셸을 엽니다
summary-shell-exited = 종료됨 · s로 새로 시작
summary-shell-failed = 시작할 수 없음: { $why }
summary-apps-none = 아직 없음
summary-apps-retrying = {" "}⚠ 예전 커밋을 재시도 중
summary-evidence-pass = { $passing }/{ $total } 통과
summary-evidence-fail = {" "}· { $count }개 실패
summary-evidence-missing = {" "}· { $count }개 없음
summary-evidence-not-checked = {" "}· { $count }개 아직 점검 안 함
summary-evidence-being-written = {" "}· { $count }개 작성 중
timeline-no-operation = { $app }: 아직 작업 없음

## 동기화 타임라인(tui/view/timeline.rs).
timeline-last-operation = { $app } · 마지막 작업{" "}
timeline-current-operation = { $app } · 현재 작업{" "}
timeline-started = { $retry } · { $started } 시작
timeline-now = 지금: { $message }
timeline-head-lane = phase wave
timeline-head-resource = 리소스 · 결과(시작 후 초)
timeline-failed-gone = {" "}실패(사라짐)
timeline-gone-or-unseen = {" "}(사라졌거나 아직 안 보임)
timeline-pruned = {" "}정리됨: 이번 동기화가 삭제함
timeline-prune-skipped = {" "}정리 안 됨: 동기화 옵션이 남겨 둠(Prune=false)
timeline-existed-before = {" "}(이전부터 있었음)
timeline-existed-configured = {" "}변경됨(이전부터 있었음)
timeline-existed-changed-at = {" "}+{ $at }s에 변경됨(이전부터 있었음)
timeline-failed-at = {" "}실패 +{ $at }s
timeline-created-ready = {" "}+{ $created }s → 준비됨 +{ $ready }s
timeline-created-done = {" "}+{ $created }s → 완료 +{ $done }s
timeline-created-failed = {" "}+{ $created }s → 실패 +{ $failed }s
timeline-created = {" "}+{ $created }s
timeline-failed = {" "}실패
timeline-made-after = {" "}(이 작업 뒤에 다시 만들어짐)
timeline-changed-after = {" "}· 작업이 끝난 뒤에야 안정됨
timeline-unfinished = {" "}· 끝나지 않음
timeline-wave-done-at = wave 완료 +{ $at }s
timeline-wave-done = wave 완료
timeline-phase-done-at = { $phase } 완료 +{ $at }s
timeline-phase-done = { $phase } 완료
timeline-pause = { $seconds }초 대기
timeline-next-at = 다음 +{ $at }s

## 셸 패널(tui/view/shell.rs).
shell-press-s = s를 누르면(여기서는 Enter도 됩니다) 실습용 셸이 열립니다.
shell-about = { $marker }· 디렉터리 { $cwd } · KUBECONFIG { $kubeconfig } · PATH에 kubectl, helm 있음
shell-kubeconfig-inherited = 현재 환경 그대로
shell-keys = 이제 모든 키가 셸로 갑니다. Ctrl-]를 누르면 키 입력이 capa-tui로 돌아옵니다.
shell-failed = ✗ 셸을 시작할 수 없습니다: { $why }. capa-tui는 계속 쓸 수 있습니다. s를 누르면 다시 시도합니다.
shell-exited = {" "}셸이 종료됨 · Enter로 새로 시작{" "}
shell-exited-code = {" "}셸이 종료됨(코드 { $code }) · Enter로 새로 시작{" "}
shell-scrolled-back = {" "}↑ { $lines }줄 위 · ↓/j 아래로, 입력하면 맨 아래로{" "}
shell-tall-command-zoom = { $lines }줄, 한 줄씩 입력 · Ctrl-] 다음 z로 전부 보기
shell-tall-command-lesson = { $lines }줄, 한 줄씩 입력 · 전체는 레슨 패널에

## 레슨 패널(tui/view/lesson.rs).
lesson-none = 레슨이 없습니다.
lesson-no-evidence = 없음
lesson-part = { $part } ({ $at }/{ $of })  ·  증거 파일: { $evidence }
lesson-title-after-prediction = (모두가 답을 확인한 뒤에 제목이 보입니다)
lesson-waits-for-prediction = 모두가 답을 확인한 뒤에 체크리스트와 레슨 본문이 다시 보입니다. 답을 미리 알려 줄 수 있기 때문입니다.
lesson-end-next = {" "}이 레슨의 끝 · PgDn → { $lesson }번 레슨: { $title }{" "}
lesson-end-last = {" "}마지막 레슨의 끝 · c로 증거 점검, q로 종료{" "}
lesson-press-h = h를 누르면 첫 번째 힌트가 나옵니다.
checklist-count = 체크리스트 { $done }/{ $of }
checklist-all-done = {" "}· 모두 완료
checklist-next = {" "}· 다음: { $step }
step-mode-heading = 단계 모드 · { $at }/{ $of } · { $now }
step-mode-all-done = 모두 완료 · g를 누르면 단계 모드를 나갑니다
step-mode-running = 실행 중…
step-mode-g-runs-it = g를 누르면 실행
step-mode-clicker-runs-it = 스페이스, PgDn 또는 g를 누르면 실행
predict-question = ? 예측: { $question }
predict-reveal = 내 예측: { $said } · 실제: { $live }
predict-keys = { $keys }: 답의 번호를 누르세요
predict-answer-first = 먼저 모두의 답을 고르세요: { $keys } 누르기
verdict-file-passes = { $file } 자가 점검 통과{ $when }
verdict-file-fails = { $file } 자가 점검 실패{ $when }:
verdict-steps-pass = 레슨 { $lesson }: 절차 자가 점검 통과{ $when }
verdict-steps-fail = 레슨 { $lesson }: 절차 자가 점검 실패{ $when }:
verdict-hint = 힌트 { $n }: { $hint }
plan-heading = 대신 해 주기 · 레슨 { $lesson }{" "}
plan-waiting-for-g = · g를 기다리는 중
plan-waiting-for-next = · 다음 키를 기다리는 중
plan-running = … 실행 중 · { $seconds }초
plan-done = ✓ { $seconds }초 만에 완료
plan-took-fast = { $said }(클러스터의 ×{ $speed } 시계로는 { $seconds }초)
plan-failed-lab-moved-on = ✗ { $step }단계에서 멈췄습니다. 그 뒤로 실습이 바뀌어서 멈춘 이유가 더 이상 맞지 않을 수 있습니다. r을 눌러 계획을 다시 실행하세요

## Argo CD의 상태 단어 옆에 붙이는 한국어 뜻(tui/theme.rs).
gloss-synced = 동기화됨
gloss-out-of-sync = 동기화 안 됨
gloss-healthy = 정상
gloss-progressing = 진행 중
gloss-degraded = 저하됨
gloss-missing = 없음
gloss-suspended = 일시 중지됨
gloss-succeeded = 성공
gloss-failed = 실패
gloss-error = 오류
gloss-running = 실행 중
gloss-terminating = 종료 중
gloss-unknown = 알 수 없음

## 클러스터가 응답하지 않는 이유와, capa-tui가 그것을 전하는 말(cluster/).
why-refused = 연결이 거부됨
why-dropped = 연결이 끊김
why-timed-out = 시간 초과
why-closed-early = 연결이 너무 일찍 닫힘
why-no-route = 호스트로 가는 경로가 없음
why-address-unavailable = 주소를 쓸 수 없음
why-untrusted = TLS 인증서를 신뢰할 수 없음({ $detail })
why-no-such-host = 호스트 이름을 찾을 수 없음
problem-cannot-reach = { $server }에 연결할 수 없음: { $why }
problem-cannot-reach-cluster = 클러스터에 연결할 수 없음: { $why }
problem-dropped = 연결이 중간에 끊김({ $why })
problem-answered = 클러스터의 응답 { $code } { $reason }: { $message }
problem-watch-stopped = 감시가 멈춤: { $message }
problem-history-expired = 서버의 기록이 capa-tui가 마지막으로 본 지점까지 남아 있지 않아 목록을 다시 받는 중
stream-applications = Applications
stream-application = Application { $name }
stream-of-kind = { $namespace }의 { $kind }
cluster-no-kubeconfig = kubeconfig를 찾을 수 없습니다($KUBECONFIG, ~/.kube/config, /etc/rancher/k3s/k3s.yaml을 확인함). --kubeconfig FILE을 넘기거나, KUBECONFIG를 설정하거나, --sim으로 내장 클러스터를 시작하세요
cluster-bad-kubeconfig = kubeconfig { $path } 파일을 읽을 수 없음: { $why }
cluster-bad-context-named = kubeconfig에 쓸 수 있는 "{ $context }" 컨텍스트가 없음: { $why }
cluster-bad-context = kubeconfig에 쓸 수 있는 컨텍스트가 없음: { $why }
cluster-no-client = { $server }용 클라이언트를 만들 수 없음: { $why }
cluster-unreachable = { $problem }. 클러스터가 실행 중인지, kubeconfig/컨텍스트가 맞는지 확인하세요.
cluster-not-an-application = { $name } 객체를 Application으로 읽을 수 없음
cluster-bad-date = API 서버의 Date 헤더 "{ $date }"는 날짜가 아님
cluster-no-date = API 서버가 Date 헤더를 보내지 않음
cluster-kept-changing = { $name }의 작업을 종료할 수 없습니다. Application이 계속 바뀌고 있습니다. 다시 시도하세요
cluster-no-operation = { $name }에는 실행 중인 작업이 없어서 끝낼 것이 없습니다(Argo CD의 메시지: { $argo })

## 체크리스트의 단계가 왜 아직 완료되지 않았는지, 무엇을 하면 되는지(lab/eval/unmet.rs).
unmet-no-bare-repo = { unmet-no-bare-repo.fact }. git init --bare로 만드세요
    .fact = 베어 저장소 { $repo }.git이 아직 없습니다
unmet-not-cloned = { unmet-not-cloned.fact }. git clone으로 클론하세요
    .fact = 작업 사본이 아직 { $repo }.git의 클론이 아닙니다
unmet-not-pushed = { unmet-not-pushed.fact }. 커밋하고 git push 하세요
    .fact = { $repo }.git의 main에 아직 { $path } 파일이 없습니다
unmet-pushed-without = { unmet-pushed-without.fact }. 바꾼 내용을 커밋하고 git push 하세요
    .fact = { $repo }.git의 main에 있는 { $path } 파일에 "{ $contains }" 내용이 없습니다
unmet-not-removed = { unmet-not-removed.fact }. git rm 으로 지우고 커밋한 뒤 git push 하세요
    .fact = { $repo }.git의 main에서 { $path } 파일을 삭제한 커밋이 아직 없습니다
unmet-git-sets-unwanted = { $repo }.git의 main에 있는 { $file } 파일이 { $path }에 { $have } 값을 설정합니다. 이 실습에서는 이 값을 Git에 두지 않습니다
unmet-git-lacks = { $repo }.git의 main에 있는 { $file } 파일이 { $path } 값을 설정하지 않습니다(필요한 값: { $want })
unmet-git-differs = { $repo }.git의 main에 있는 { $file } 파일이 { $path }에 { $want } 대신 { $have } 값을 설정합니다
unmet-git-not-text = { unmet-git-not-text.fact }. "{ $have }"로 쓰고 커밋한 뒤 git push 하세요
    .fact = { $repo }.git의 main에 있는 { $file } 파일이 { $path }에 따옴표 없이 { $have }을(를) 설정해서 YAML이 이를 텍스트로 읽지 않습니다
unmet-git-not-yaml = { unmet-git-not-yaml.fact }. 고친 뒤 커밋하고 git push 하세요
    .fact = { $repo }.git의 main에 있는 { $file }은(는) 올바른 YAML이 아닙니다({ $why })
unmet-no-app = { unmet-no-app.fact }. kubectl apply로 적용하세요
    .fact = argocd에 { $app } Application이 없습니다
unmet-app-spec-lacks = { unmet-app-spec-lacks.fact }. Application을 고친 뒤 다시 kubectl apply 하세요
    .fact = { $app }의 spec.{ $at }에 { $want } 내용이 있어야 합니다
unmet-app-spec-differs = { unmet-app-spec-differs.fact }. Application을 고친 뒤 다시 kubectl apply 하세요
    .fact = { $app }의 spec.{ $at } 값이 { $want }이(가) 아니라 { $have }입니다
unmet-app-state = { $app }: { $at } 커밋에서 { $sync }/{ $health }(main은 { $main })
unmet-cannot-render = { unmet-cannot-render.fact }. 여기서 말하는 것을 Git(커밋 후 푸시)이나 Application(kubectl apply)에서 고치세요. 기다리거나 하드 리프레시해도 소용없습니다
    .fact = { $state }: Argo CD가 렌더링하지 못합니다: { $message }
unmet-retrying-other = { unmet-retrying-other.fact }. 그 작업을 끝내면(capa-tui app terminate-op { $app }) main이 동기화됩니다
    .fact = { $state }: 작업이 커밋 { $at }을(를) 계속 재시도하고 있고({ $attempt }번째), main의 커밋은 그 뒤에서 기다립니다
unmet-sync-fails-retrying = { unmet-sync-fails-retrying.fact }. 여기서 말하는 것을 Git(커밋 후 푸시)이나 Application(kubectl apply)에서 고치세요
    .fact = { $state }: main의 동기화가 실패합니다: { $message }. Argo CD가 재시도하지만 같은 커밋은 같은 식으로 실패합니다
unmet-sync-failed = { unmet-sync-failed.fact }. Argo CD는 실패한 커밋을 스스로 다시 동기화하지 않습니다. 여기서 말하는 것을 Git에서 고쳐 푸시하거나(새 커밋이 동기화됨) Application에서 고치세요(kubectl apply)
    .fact = { $state }: main의 마지막 동기화가 실패했습니다: { $message }
unmet-syncing = { unmet-syncing.fact }. 끝날 때까지 기다리세요
    .fact = { $state }: main의 동기화가 지금 진행 중입니다
unmet-not-compared = { unmet-not-compared.fact }. { $app }을(를) 하드 리프레시하세요
    .fact = { $state }: Argo CD가 아직 main을 읽지 않았습니다
unmet-out-of-sync = { unmet-out-of-sync.fact }. 자동 syncPolicy(spec.syncPolicy.automated)를 주고 다시 apply하세요
    .fact = { $state }: 아무것도 동기화하지 않습니다
unmet-out-of-sync-automated = { unmet-out-of-sync-automated.fact }. Argo CD는 main을 비교한 뒤 몇 초 안에 동기화를 시작합니다. 시작되지 않으면 { $app }을(를) 하드 리프레시하세요
    .fact = { $state }: 자동 동기화가 아직 시작되지 않았습니다
unmet-not-healthy = { unmet-not-healthy.fact }. 기다리거나 Applications 패널에서 어느 리소스인지 보세요
    .fact = { $state }: 동기화는 됐지만 아직 Healthy가 아닙니다
unmet-not-succeeded = { $app }의 마지막 작업이 { $at } 커밋에서 { $phase }입니다. main({ $main })에서 Succeeded여야 합니다
unmet-not-failed = main({ $main })에서 { $app }의 작업이 실패하지 않았습니다. 마지막 작업은 { $at } 커밋에서 { $phase }입니다
unmet-not-in-cluster = 클러스터에 { $object } 객체가 없습니다
unmet-owned-by = { $object }의 { $path } 소유자는 { $manager } 매니저가 아니라 { $owner } 매니저입니다
unmet-no-owner = { $object }의 { $path } 필드를 소유한 매니저가 없습니다
unmet-field-is = { $object }의 { $path } 값이 { $want } 대신 { $have }입니다
unmet-field-missing = { $object }에 { $path } 필드가 없습니다(필요한 값: { $want })
unmet-runs-other-image = { $object }: Pod에서 { $image } 대신 { $images } 이미지가 실행 중입니다
unmet-not-rolled-out = { unmet-not-rolled-out.fact }. 롤아웃을 기다리세요
    .fact = { $object }: { $image } 이미지로 준비된 Pod { $ready }/{ $want }개(업데이트 { $updated }개, 전체 { $total }개)
unmet-no-evidence = { $file } 파일이 아직 작성되지 않았습니다
unmet-evidence-fails = { $file } 파일이 자가 점검을 통과하지 못합니다
unmet-not-scaled = { unmet-not-scaled.fact }(kubectl scale)
    .fact = { $object } 객체를 아직 손으로 스케일하지 않았습니다
unmet-holding = 조건 유지 중. 기다릴 시간이 { $seconds }초 남았습니다
unmet-no-clock = 클러스터의 시각을 아직 알 수 없습니다
unmet-not-read-yet = 클러스터의 이벤트(Events)를 아직 읽지 못했습니다

## 자가 점검: 증거 파일, 필드마다의 타입, 클러스터와 맞춰 보는 값
## (lab/eval/check.rs).
check-missing = { $path } 파일이 없습니다
check-missing-help = 레슨을 실행하거나(튜터에서 r, 또는 capa-tui do { $lesson }), 레슨의 '직접 해 보기' 부분대로 손으로 작성하세요
check-unreadable = { $path } 파일을 읽을 수 없습니다: { $why }
check-unreadable-help = 파일 권한을 확인하세요
check-empty = { $file } 파일이 비어 있습니다
check-not-text = { $file } 파일은 JSON은커녕 텍스트도 아닙니다
check-not-json = { $file } 파일이 JSON이 아닙니다({ $line }행 { $column }열)
json-type-number = 숫자
json-type-string = 문자열
json-type-boolean = 불리언
json-type-string-or-null = 문자열 또는 null
check-not-object = { $file } 파일에는 JSON 객체가 들어 있어야 합니다({"{"} "필드": 값, … {"}"})
check-wrote-it-help = 파일을 쓴 명령이 실패하지 않았나요? 다시 실행하고, 파일이 써지기 전에 그 명령이 출력한 내용을 읽어 보세요
check-not-evidence = { $file } 파일은 이 실습의 증거 파일이 아닙니다
check-not-evidence-help = capa-tui check를 실행하면 실습의 증거 파일 목록이 나옵니다
check-type-ok = { $field } 필드는 { $kind } 타입입니다
check-type-missing = { $field } 필드가 없습니다. { $kind } 타입이어야 합니다
check-type-wrong = { $field } 필드는 { $kind } 타입이어야 하는데 { $found } 값이 들어 있습니다
check-type-help-number = 숫자는 따옴표 없이 쓰세요: "3"이 아니라 3 (jq에서는 --argjson 또는 tonumber)
check-type-help-string = 값은 큰따옴표로 감싸서 쓰세요: "Synced" (jq에서는 --arg)
check-type-help-boolean = true나 false를 따옴표 없이 쓰세요(jq에서는 --argjson)
check-type-help-string-or-null = 값은 큰따옴표로 감싸서 쓰고, 값이 없으면 null을 쓰세요
check-type-help-missing = 파일에 { $field } 필드를 더하세요. 레슨의 단계가 무엇을 담고 언제 기록하는지 알려 줍니다
check-not-a-time = { $field } 필드는 creationTimestamp처럼 RFC 3339 시각이어야 하는데 { $found } 값이 들어 있습니다
check-time-help = 클러스터가 보여 주는 그대로 시각을 복사하세요. 예: 2026-03-01T10:02:11Z (kubectl get … -o jsonpath='{"{"}.metadata.creationTimestamp{"}"}')
check-live-ok = { $field } = { $value }, 클러스터와 일치합니다
check-live-differs = { $field } 값은 { $value }인데 클러스터의 값은 { $live }입니다
check-live-differs-syncing = { $app }이(가) 지금 동기화 중이라 클러스터가 아직 바뀌고 있습니다. 동기화가 끝난 뒤 다시 점검하세요
check-live-differs-too-early = { $file }은(는) { $written }에 쓰였는데, { $app }의 마지막 동기화는 { $ended }에 끝났습니다. 값을 너무 일찍 읽었습니다. 지금 파일을 다시 쓰세요
check-cannot-read-live = { $file } 파일을 클러스터와 맞춰 볼 수 없습니다: { $why }
check-cannot-read-live-help = 자가 점검에는 클러스터가 필요합니다. 클러스터가 응답하면 다시 점검하세요(c)
check-cannot-read-steps = 클러스터를 읽을 수 없어 레슨 { $lesson }의 절차를 점검하지 못합니다: { $why }
check-cluster-help = 자가 점검은 클러스터를 읽어야 합니다. 클러스터가 응답하면 다시 점검하세요(c)

## 레슨의 증거가 지켜야 하는 규칙(lab/eval/check/rules.rs, history.rs).
check-step-unmet = { $step } — { $why }
rule-or = {" "}또는{" "}
rule-in-order-ok = { $earlier } 값이 { $later } 값보다 늦지 않습니다
rule-in-order-not = { $earlier }({ $a }) 값이 { $later }({ $b }) 값보다 늦습니다: { $fix }
rule-before-condition-ok = { $field } 값은 { $object } 객체가 { $condition } 상태가 되기 전입니다
rule-before-condition-not = { $field }({ $recorded }) 값이 { $object } 객체가 { $condition } 상태가 된 시각({ $at })보다 늦습니다
rule-apart-ok = { $to } 값은 { $from } 값보다 { $apart }초 뒤입니다(≥ { $seconds })
rule-apart-not = { $to } − { $from } = { $apart }초입니다. 적어도 { $seconds }초는 기다리세요
rule-one-of-ok = { $field } 값은 { $found }입니다
rule-one-of-not = { $field } 값이 { $found }입니다(필요한 값: { $allowed })
rule-one-of-not-why = { $field } 값이 { $found }입니다(필요한 값: { $allowed }): { $why }
rule-cannot-read = { $object } 객체를 읽을 수 없습니다: { $why }
rule-not-condition-yet = { $kind } { $name } 객체가 아직 { $condition } 상태가 아닙니다
rule-not-condition-yet-help = 동기화가 끝날 때까지 기다린 뒤 다시 점검하세요(c)
rule-created-after-ok = { $object } 객체는 { $after } 객체가 { $condition } 상태가 된 뒤에 만들어졌습니다
rule-created-after-not = { $object } 객체가 { $created }에 만들어졌습니다. { $after } 객체가 { $condition } 상태가 된 시각({ $since })보다 이릅니다. wave가 생성을 붙잡아 두지 못했으니 sync-wave 어노테이션을 확인하세요
rule-no-creation-time = { $object } 객체에 creationTimestamp가 없습니다
rule-wave-object-gone = 클러스터에 { $object } 객체가 없어서 wave 순서를 점검할 수 없습니다
rule-sync-again-help = 앱을 다시 동기화한 뒤 다시 점검하세요(c)
rule-not-unix-seconds = { $field } 값 { $value }: 초 단위 Unix 시각이 아닙니다. date +%s 값을 쓰세요(밀리초가 아닙니다)
rule-in-the-future = { $field }({ $value }) 값이 미래의 시각입니다. 클러스터의 시각은 { $now }입니다
rule-unix-seconds-ok = { $field } 값은 초 단위 Unix 시각입니다
rule-cannot-read-clock = { $field } 값을 점검하려고 했지만 클러스터의 시각을 읽을 수 없습니다: { $why }
rule-after-write-ok = { $field } 값은 { $manager } 매니저가 { $path } 필드를 쓴 직후입니다({ $at })
rule-after-write-not = { $field } 값은 { $recorded }인데, { $manager } 매니저가 { $object }의 { $path } 필드를 쓴 시각은 { $at }입니다. 스케일한 직후에 date +%s 값을 기록하세요
rule-after-write-owner = { $object }의 { $path } 소유자: { $owner }({ $manager } 아님). kubectl scale로 스케일한 뒤 시각을 기록하세요
rule-after-write-undated = { $field } 값을 클러스터와 대조할 수 없습니다. { $object }의 { $path } 소유자는 { $manager }이지만, 클러스터가 더 이상 그 쓰기 시각을 기록하고 있지 않습니다(스케일 시각은 이벤트가 기록하며, 이벤트는 한 시간 동안만 남습니다)
rule-nobody = 없음
rule-passes-ok = { $file } 파일이 자체 점검을 통과합니다
rule-passes-not = { $file } 파일(레슨 { $lesson })이 자체 점검을 통과하지 못합니다: { $why }. 먼저 고치세요. 이 보고서는 그 파일을 바탕으로 합니다
rule-passes-missing = { $file }({ $lesson }번 레슨)이 아직 없습니다. 이 보고서는 그 파일을 바탕으로 합니다
rule-passes-missing-help = 먼저 { $lesson }번 레슨을 하세요(capa-tui do { $lesson }, 또는 그 레슨의 '직접 해 보기' 부분대로). 그다음 이 보고서를 다시 점검하세요
rule-passes-not-help = 먼저 { $lesson }번 레슨을 고치세요(capa-tui check { $lesson }이 무엇이 틀렸는지 알려 줍니다). 그다음 이 보고서를 다시 점검하세요
rule-full-sha-ok = { $field } 값은 전체 커밋 SHA입니다
rule-full-sha-not = { $field } 값이 { $found }입니다. 브랜치, HEAD, 짧은 SHA가 아닌 커밋의 40자 전체 SHA를 쓰세요(git rev-parse가 출력합니다)
rule-commit-sets-other = { $commit } 커밋은 { $file } 파일의 { $path }에 { $value } 대신 { $set } 값을 설정합니다
rule-commit-does-not-break = { $commit } 커밋의 { $file } 파일에 "{ $contains }" 내용이 없습니다(망가뜨린 커밋이 아닙니다)
rule-commit-did-not-change = { $commit } 커밋은 { $path } 값을 바꾸지 않았습니다. 부모 커밋에 이미 { $before } 값이 있습니다. 이 실습에서는 { $breaks } 파일을 망가뜨리는 바로 그 커밋에서 이 값을 바꿉니다
rule-no-bare-repo = 커밋을 살펴볼 베어 저장소 { $bare }/{ $repo }.git을 열 수 없습니다
rule-no-bare-repo-help = 베어 디렉터리는 이 실습의 것이어야 합니다(--bare-dir)
rule-that-is = {" "}(해당 커밋: { $commit })
rule-commit-not-in-main = { $field } 값 "{ $commit }"에 해당하는 커밋이 { $repo }.git의 main에 없습니다. 직접 푸시한 커밋 가운데 마이그레이션을 망가뜨린 커밋의 SHA를 쓰세요{ $suggest }
rule-commit-ok = { $commit } 커밋은 { $path }에 { $value } 값을 설정하고 { $breaks } 파일을 망가뜨립니다
rule-commit-not = { $why }: 마이그레이션을 망가뜨린 커밋의 SHA를 쓰세요{ $suggest }
rule-not-applied-ok = { $field } = { $live }: 커밋 이전의 값입니다. 커밋이 적용되지 않았습니다
rule-not-applied-not = { $field } 값은 { $live }인데, 훅이 실패하는 동안 클러스터에는 아직 커밋 이전의 값({ $before })이 있었습니다. 작업이 실패하고 있는 동안 실제 객체에서 { $field } 값을 기록하세요
rule-hook-name-not = { $field } 값 "{ $job }": Argo CD가 generateName이 { $generate_name }인 { $phase } 훅에 붙이는 이름이 아닙니다({ $shape }). status.operationState.syncResult.resources에서 복사하세요
rule-hook-commit-ok = { $field } 값이 { $repo }.git의 { $rev } 커밋을 가리킵니다
rule-hook-commit-not = { $field } 값이 가리키는 { $rev } 커밋은 { $repo }.git의 main에 없습니다. 직접 한 동기화의 훅을 기록하세요
rule-hook-gone = { $namespace }에 { $job } Job이 더 이상 없어서 { $field } 값을 그 Job과 맞춰 볼 수 없습니다. 다시 동기화하고 새 훅 Job을 기록하세요
rule-lived-added-ok = { $field } { $commit } 커밋이 { $file } 파일을 추가했습니다
rule-lived-added-not = { $field } 값 "{ $commit }"은 { $repo }.git의 main에서 { $file } 파일을 추가한 커밋이 아닙니다. 그 파일을 추가한 커밋의 SHA를 쓰세요{ $suggest }
rule-lived-removed-ok = { $field } { $commit } 커밋이 { $file } 파일을 삭제했습니다
rule-lived-removed-not = { $field } 값 "{ $commit }"은 { $repo }.git의 main에서 { $file } 파일을 삭제한 커밋이 아닙니다. 그 파일을 삭제한 커밋의 SHA를 쓰세요{ $suggest }
rule-lived-order-ok = { $added } 커밋이 추가했고, 그 뒤 { $removed } 커밋이 삭제했습니다
rule-lived-order-not = { $removed_field }({ $removed })가 { $added_field }({ $added })보다 나중이 아닙니다. 추가한 뒤에 이어진 삭제를 기록하세요
rule-lived-seen-ok = 클러스터 이벤트에 uid가 { $uid }인 { $kind } { $name }이(가) 남아 있습니다({ $count }개): 실제로 존재했습니다
rule-lived-seen-not = uid가 "{ $uid }"인 { $kind } { $name }을(를) 가리키는 클러스터 이벤트가 없습니다. 그것이 있는 동안 { $field }(metadata.uid)를 기록하세요(클러스터는 이벤트를 한 시간 동안 보관합니다)
rule-lived-gone-ok = 그 uid의 { $kind } { $name }은(는) 이제 없습니다
rule-lived-gone-not = 기록한 uid의 { $kind } { $name }이(가) 아직 있습니다. { $file } 파일을 삭제하는 커밋을 푸시하고 동기화를 기다리세요
rule-hook-after-start-ok = { $field } 값은 { $job } Job을 만든 작업이 시작된 시각보다 이르지 않습니다
rule-hook-after-start-not = { $field }({ $at }) 값이 { $job } Job을 만든 작업이 시작된 시각({ $started })보다 이릅니다. 그 Job의 creationTimestamp를 기록하세요
rule-hook-succeeded-ok = { $field } 값은 성공한 { $phase } 훅의 이름입니다
rule-hook-succeeded-not = { $field } 값은 성공한 { $phase } 훅 Job의 이름이 아닙니다. 성공한 { $phase } 훅을 기록하세요
rule-hook-created-ok = { $field } 값은 그 Job의 creationTimestamp입니다
rule-hook-created-not = { $field } 값은 { $recorded }인데, 그 Job이 만들어진 시각은 { $real }입니다. 그 Job의 metadata.creationTimestamp를 복사하세요

## 클러스터에서 증거 읽기(lab/eval/evidence.rs, derived.rs).
evidence-missing-field = { $object }의 { $path }
evidence-missing-owner = { $object }의 { $path } 소유자
evidence-missing-scale = { $deployment }의 스케일 기록
evidence-missing-added = main에서 { $file } 파일을 추가한 커밋
evidence-missing-removed = main에서 { $file } 파일을 삭제한 커밋
evidence-look-again = 잠시 뒤 다시 확인하세요
evidence-not-yet = 아직 { $what } 정보가 없습니다: { $hint }
evidence-cannot-write = { $path } 파일을 쓸 수 없습니다: { $why }. 소스 디렉터리에 쓰기 권한이 있나요?
evidence-redo-lesson = 먼저 레슨 { $lesson }부터 하세요(그 레슨에서 { $file } 파일을 작성합니다)
evidence-redo-file = 먼저 { $file } 파일을 작성하세요
evidence-earlier-missing = { $file } 파일이 없습니다: { $redo }
evidence-earlier-not-json = { $file } 파일이 올바른 JSON이 아닙니다({ $why }). 고치거나, { $redo }
evidence-earlier-lacks = { $file } 파일에 { $field } 필드가 없습니다: { $redo }
evidence-no-layer = { $key } 값을 설정하는 계층이 없습니다
evidence-layer-disagrees = { $key }: { $layer } 계층의 값은 { $value }인데 증거에는 { $recorded } 값이 기록되어 있습니다. 증거가 클러스터와 맞도록 그 레슨을 다시 하세요
checklist-undone = { $was }에 완료했지만 그 뒤 되돌려짐: { $why }
checklist-counting = { $seconds }초 남음
verdict-checked-at = {" "}({ $clock } 점검)
verdict-help = 할 일: { $help }
verdict-changed-since = 그때 기준으로 통과했습니다. 그 뒤 클러스터가 바뀌었고, 실습에서 예상한 일입니다: { $what }

## Git(git.rs).
git-failed = git 작업 실패({ $what }): { $why }
git-op-create-bare = 베어 저장소 { $path } 만들기
git-op-clone = { $dest }에 { $url } 클론하기
git-op-set-head = HEAD가 main을 가리키게 하기
git-op-open = { $path } 열기
git-op-fetch = origin에서 가져오기(fetch)
git-op-status = 작업 사본의 상태 읽기
git-op-compare = origin과 비교하기
git-op-index = 파일 스테이징하기
git-op-commit = 커밋하기
git-op-find-remote = 원격 origin 찾기
git-op-push = { $url }에 푸시하기
git-op-configure = 브랜치의 업스트림 설정하기
git-rejected = { $remote }에 푸시했지만 거부되었습니다: { $why }. 다른 누군가가 먼저 푸시했습니다. 다시 시도하기 전에 가져와서(fetch) 무엇이 바뀌었는지 보세요(git -C { $repo } fetch && git -C { $repo } log --oneline HEAD..origin/main)

## "대신 해 주기": 단계마다 한 일, 기다리는 것, 멈춘 이유(lab/engine/).
did-skip = 이미 완료됨(지금 조건이 충족됨): 건너뜀
did-skip-resume = 지난 실행이 이 단계를 마치고 멈췄고, 그 뒤 바뀐 것이 없음: 건너뜀
did-skip-passes = 이미 완료됨: 레슨 { $lesson }의 자가 점검이 지금 통과함: 건너뜀
did-create-bare = { $path } 만듦
did-bare-there = { $path } 이미 있음
did-hard-refresh = Argo CD에 { $app } 앱을 Git에서 다시 읽도록 요청함
did-write-evidence = { $path } 작성함: { $value }
did-write-evidence-kept = { $path } 작성함(예전 파일은 { $backup }에 보관함)
did-remove-files = { $paths } 삭제함
did-remove-none = 삭제할 것이 없음: 파일이 이미 없습니다
did-clone-there = { $dest } 디렉터리는 이미 클론되어 있음
did-clone = { $dest }에 { $bare } 클론함
did-write-kept = { $path }(원래 파일은 { $backup }에 보관)
did-files-there = 파일이 이미 모두 있음
did-write-files = 작성함: { $files }
did-commit-push = { $commit } 커밋하고 푸시함
did-nothing-to-commit = 새로 커밋할 것이 없음. { $commit } 커밋은 푸시되어 있음
did-apply = { $path }에서 Application { $app } 적용함
did-wait = { $app }: { $sync } · { $health } · 리비전 { $revision }
did-nothing-blocks = 실행 중인 작업이 없었음. 새 커밋을 막는 것이 없음
did-already-targets = 실행 중인 작업이 이미 { $commit } 커밋을 대상으로 함
did-end-blocking = { $retrying } 커밋을 재시도하던 작업을 끝냄. 이제 자동 동기화가 { $git } 커밋을 가져갈 수 있음
did-no-operation = { $app }에 실행 중인 작업 없음(phase { $phase })
did-end-operation = 끝냄: phase { $phase } · { $message }
did-end-and-record = 작업을 끝내고 { $path } 작성함: { $value }
did-hold = 스케일 후 { $seconds }초 지남
plan-pushing = 푸시 중: 객체 { $current }/{ $total }개, { $bytes }바이트
plan-waiting-cluster = 기다리는 중: 클러스터가 응답하지 않음({ $why }). 클러스터가 돌아오면 이 단계를 이어서 진행합니다
plan-waiting-deployment = 기다리는 중: wave { $wave } · Deployment/{ $name } { $have }/{ $want } 사용 가능
plan-waiting-healthy = wave { $wave } · { $kind }/{ $name }이(가) 정상(Healthy)이 되기를 기다리는 중
plan-waiting-argo = 기다리는 중: { $message }
plan-waiting-status = 기다리는 중: 동기화 { $sync } · 상태 { $health }
plan-waiting-watch-stopped = 기다리는 중: Application 감시가 멈춤({ $why }). 다시 읽는 중
plan-waiting-no-app = 기다리는 중: Application { $app } 아직 없음
plan-waiting-see-commit = 기다리는 중: Argo CD가 { $commit } 커밋을 알아차리기를
plan-waiting-refresh = 기다리는 중: Argo CD가 { $app }을(를) 다시 읽기를
plan-ending-blocking = 작업이 아직 { $retrying } 커밋을 재시도하고 있고, Git은 이미 { $git }입니다. 작업을 끝내는 중({ $command })
plan-waiting-end = 기다리는 중: 작업이 끝나기를(phase { $phase })
plan-waiting-hold = 기다리는 중: { $seconds }초 남음(ignoreDifferences가 제대로 동작하지 않는다면 그동안 selfHeal이 레플리카 수를 되돌립니다)
plan-waiting-scale-record = 기다리는 중: deployment 컨트롤러가 { $deployment }의 스케일 변경을 기록하기를(그 Event가 스케일 시각을 알려 줍니다)
run-cancelled = { $step }단계에서 취소됨. 마저 끝내려면 레슨을 다시 실행하세요
run-step-failed = { $step }단계({ $title }) 실패: { $why }
run-no-actions = 레슨 { $folder }의 lesson.yaml에 동작이 없습니다
run-needs-lesson = 레슨 { $lesson }에 앞서 레슨 { $needs }부터 해야 합니다: { $why }. 아무것도 바꾸지 않았습니다. 먼저 레슨 { $needs }부터 하세요(n/p로 이동하거나 capa-tui do { $needs })
run-unknowable = 이 레슨의 선행 조건이 갖춰졌는지 알 수 없습니다: { $why }
step-error-bare-dir = { $why }. 베어 디렉터리(--bare-dir)가 맞고, 쓰기 권한이 있나요?
step-error-clone-of-other = { $dest } 디렉터리는 { $wanted } 대신 { $url }의 클론입니다. 다른 곳으로 옮기거나 --src-dir로 다른 디렉터리를 지정하세요
step-error-no-bare-repo = { $bare } 베어 저장소가 없습니다. 먼저 만드세요(git init --bare -b main { $bare })
step-error-cannot-write-in = { $path }에 쓸 수 없습니다: { $why }. 소스 디렉터리(--src-dir)에 쓰기 권한이 있나요?
step-error-cannot-move-clone = 클론을 { $dest } 위치로 옮길 수 없습니다: { $why }
step-error-no-template = capa-tui에 { $template } 템플릿이 없습니다
step-error-cannot-write = { $path } 파일을 쓸 수 없습니다: { $why }
step-error-cannot-read = { $path } 파일을 읽을 수 없습니다: { $why }
step-error-not-yaml = { $path } 파일이 올바른 YAML이 아닙니다: { $why }
step-error-no-name = { $path } 파일에 metadata.name이 없습니다
step-error-sync-failed = 동기화 실패: { $message }
step-error-nothing-to-sync = { $app }은(는) { $commit }에서 이미 Synced이고 그 커밋에서 실행된 동기화가 없습니다. 이 커밋은 Argo CD가 비교하는 것을 아무것도 바꾸지 않으므로(훅만으로는 앱이 OutOfSync가 되지 않음) 훅이 실행되지 않습니다. 이 실습 환경은 이미 레슨의 시작점을 지났습니다. 전체 계획을 실행하면(r, 또는 capa-tui do) 다시 준비됩니다
step-error-cannot-render = Argo CD가 앱을 렌더링할 수 없습니다: { $message }
step-error-gave-up = { $seconds }초 뒤 포기함. 마지막으로 본 상태: { $last }
step-error-watch-ended = Application 감시가 끝났습니다
step-error-no-commit = 작업 사본에 커밋이 없습니다
step-error-would-lose-changes = { $path } 파일에 어느 커밋에도 없는 변경이 있습니다. 먼저 커밋하거나 파일을 작업 사본 밖으로 옮긴 뒤 이 단계를 다시 실행하세요
step-error-never-saw = Argo CD가 { $app }에서 { $commit } 커밋을 끝내 보지 못했습니다. 하드 리프레시하세요
step-error-did-not-end = { $app }의 작업이 끝나지 않았습니다. phase는 { $phase }입니다
step-error-moment-passed = 이 단계가 기록할 순간이 지나갔습니다. { $app }의 실패한 작업이 기록되기 전에 끝났고(재시도 소진) 그 뒤 { $app }이(가) { $revision }을(를) 동기화했습니다. 레슨 { $lesson }의 전체 계획을 실행하면(r, 또는 capa-tui do { $lesson }) 다시 준비됩니다
plan-restage = { $app }은(는) 이미 이 레슨의 시작점을 지났습니다({ $step }단계가 일어날 수 없음). 레슨을 다시 준비하기 위해 레슨 { $lesson }이(가) 남긴 파일을 되돌리고 { $app }이(가) 동기화하게 하는 중
plan-restage-commit = 이 레슨을 다시 하기 위해 레슨 { $lesson }의 파일로 되돌리기
plan-started-over = 1단계부터 다시 시작함: { $why }
step-error-no-lesson-writes = { $file } 파일을 작성하는 레슨이 없습니다
step-error-no-kubectl = PATH에 kubectl이 없습니다. 이 단계는 `kubectl scale`을 실행해야 합니다(실습이 그렇게 요구하고, 보고서에서 spec.replicas의 소유자가 어느 매니저인지 묻습니다). kubectl을 설치하거나 PATH에 넣은 뒤(scripts/install-tools가 .tools/bin에 설치합니다: export PATH="$PWD/.tools/bin:$PATH") 이 단계를 다시 실행하세요
step-error-cannot-run-kubectl = kubectl을 실행할 수 없습니다: { $why }
step-error-kubectl-failed = kubectl scale 실패: { $said }
step-error-no-working-copy-lesson = { $dir }에 작업 사본이 없습니다. 먼저 레슨 { $lesson }부터 하세요(그 레슨에서 저장소를 만들고 클론합니다)
step-error-no-working-copy = { $dir }에 작업 사본이 없습니다. 먼저 베어 저장소를 그곳에 클론하세요
step-error-uncommitted = 작업 사본 { $dir }에 커밋하지 않은 변경이 있습니다({ $files }). capa-tui는 여러분의 작업을 절대 덮어쓰지 않습니다. 변경을 커밋하거나(git -C { $dir } commit -am ...) 한쪽에 치워 두세요(git -C { $dir } stash). 그런 다음 레슨을 다시 실행하세요
step-error-behind = 원격에는 작업 사본 { $dir }에 없는 커밋이 { $count }개 있습니다. 먼저 그 커밋을 가져오세요(git -C { $dir } pull --rebase). 그런 다음 레슨을 다시 실행하세요
step-error-unpushed = 작업 사본 { $dir }에 푸시하지 않은 커밋이 { $count }개 있습니다. 푸시하거나(git -C { $dir } push) 되돌리세요. 그런 다음 레슨을 다시 실행하세요
step-error-cluster-away = 클러스터가 { $seconds }초 동안 응답하지 않았습니다({ $why }). 클러스터를 다시 시작한 뒤(또는 kubeconfig를 고친 뒤) 레슨을 다시 실행하세요. 이 단계부터 이어서 진행합니다
step-error-evidence-fails = { $file }을(를) 썼지만 자체 검사를 통과하지 못했습니다: { $what }{ $more ->
    [0] {""}
   *[other] {" "}(외 { $more }개)
 }. 파일은 그대로 둡니다. 파일과 클러스터를 살펴본 뒤(`capa-tui check { $lesson }`가 모든 항목을 보여 줍니다) 레슨을 다시 실행하거나 직접 고치세요
step-error-lesson-fails = 모든 단계를 실행했지만 레슨 { $lesson }의 검사를 통과하지 못했습니다: { $what }{ $more ->
    [0] {""}
   *[other] {" "}(외 { $more }개)
 }. `capa-tui check { $lesson }`가 모든 항목을 보여 줍니다. 지적된 부분을 고친 뒤 레슨을 다시 실행하세요

## 세션: 어느 클러스터인지, 그리고 실습마다 하나인 내장 클러스터(session.rs).
target-embedded = { $url }의 내장 실습 클러스터(상태는 { $state }에 있음)
target-embedded-attached = { $url }의 내장 실습 클러스터(상태는 { $state }에 있음, 프로세스 { $pid }에서 제공)
target-context = { $kubeconfig }에 있는 { $context } 컨텍스트의 클러스터
# Shorter forms, for a header with no room for the whole: the first that fits is shown.
target-embedded-short = { $url }의 내장 실습 클러스터
target-embedded-shortest = 내장 실습 클러스터
target-context-short = { $context } 컨텍스트
target-current = (현재)
session-kept-aside = 새 실습입니다. 이전 실습은 { $path }에 보관했습니다.
session-took-over = 이 실습을 제공하던 이전 프로세스({ $pid })가 없어졌습니다. 이제 이 프로세스가 남아 있던 내용을 그대로 이어받아 실습을 제공합니다.
session-attached = 프로세스 { $pid }에서 이 실습을 위해 제공하는 내장 클러스터를 사용합니다.
session-move-aside = 예전 실습을 { $from }에서 { $to } 위치로 옮겨 둘 수 없습니다: { $why }. 직접 옮기거나 --state-dir로 다른 디렉터리를 고르세요
session-state-dir = { $path } 상태 디렉터리를 쓸 수 없습니다: { $why }. --state-dir로 쓰기 가능한 디렉터리를 고르세요
session-served = 프로세스 { $pid }에서 { $url }에 이 실습의 내장 클러스터를 제공하고 있습니다. capa-tui --sim과 다른 --sim 명령은 그 클러스터를 씁니다. 실습을 옮겨 두거나 여기서 제공하려면 먼저 그 프로세스를 멈추세요
session-not-saying = 다른 capa-tui가 { $state }의 실습을 잡고 있지만, 어디서 제공하는지 알리지 않았습니다. 실행 중인 capa-tui가 없다면 { $state }/serve.lock을 지우고 다시 시도하세요
sim-not-loopback = 내장 실습 클러스터는 루프백 주소에서만 대기합니다. { $addr } 주소는 루프백 주소가 아닙니다(127.0.0.1:PORT를 쓰세요)
sim-cannot-listen = { $addr }에서 대기할 수 없습니다: { $why }(거기서 이미 다른 capa-tui sim이 실행 중인가요? --listen으로 다른 포트를 고르거나, 0을 주면 비어 있는 포트를 아무거나 씁니다)
sim-bad-speed = --speed는 양수여야 합니다(1은 실제 시간, 10은 열 배 빠르게). 받은 값: { $speed }
repair-served = 다른 프로세스가 이 실습({ $state })을 제공하고 있습니다. 먼저 그것을 멈춘 뒤 복구하세요
repair-nothing = 저널을 모두 읽을 수 있습니다. 복구할 것이 없습니다
repair-done = 저널이 { $line }번째 줄에서 손상되었습니다. 그 앞의 변경 { $kept }개를 남기고 { $aside }줄을 뺐습니다. 원래 저널 전체는 { $copy }에 있습니다
sim-bare-dir = { $path } 디렉터리를 베어 저장소용으로 쓸 수 없습니다: { $why }
sim-kubeconfig = kubeconfig를 { $path }에 쓸 수 없습니다: { $why }

## 설정(config.rs).
config-malformed = { $path }, { $line }번째 줄: { $message }. 그 줄을 고치거나 지우세요(`capa-tui config`로 적용 중인 설정을 볼 수 있습니다).
config-bad-value = { $path }, { $line }번째 줄: { $key } = "{ $value }": { $expected }. 그 줄을 고치거나 지우세요(`capa-tui config`로 적용 중인 설정을 볼 수 있습니다).
config-unreadable = { $path } 파일을 읽을 수 없습니다: { $why }
config-bad-env = ${ $var } 값 "{ $value }": { $expected }
config-bad-flag = { $flag } "{ $value }": { $expected }
config-use-languages = { $codes } 중 하나를 쓰세요
config-use-themes = default, projector, monochrome 중 하나를 쓰세요
config-use-yes-no = 1 또는 0을 쓰세요
config-use-learner = 소문자, 숫자, -만 쓰세요(최대 20자). 예: alice
origin-flag = { $flag } 플래그
origin-not-presenting = 요청하지 않으면 발표 모드 아님
origin-locale = 로캘 설정에서
origin-presenting = 발표 모드
origin-default = 기본값

## 명령줄(cli/).
cli-needs-terminal = 튜터 화면에는 터미널이 필요합니다. 스크립트에서는 `capa-tui do|check|status`를 쓰세요(--help 참고)
cli-no-lesson = "{ $key }" 레슨이 없습니다. 레슨 목록: { $lessons }, 또는 all
config-file = 설정 파일: { $path }
config-file-absent = 설정 파일: { $path }(없음. capa-tui config --help 참고)
config-file-none = 설정 파일: 없음(홈 디렉터리가 없음)
app-refresh = Application '{ $name }' 리프레시 요청함
app-refresh-hard = Application '{ $name }' 리프레시 요청함(하드)
app-terminating = Application '{ $name }' 작업 종료 중
serve-serving = 내장 실습 클러스터 제공 중: { $url }
serve-kubeconfig = kubeconfig: { $path }
serve-bare = 베어 git 저장소: { $bare }(하나 만들기: git init --bare -b main { $bare }/src.git)
serve-git = git URL: { $url }(Application에서는 git://{ $host }/src.git 사용)
serve-try = 해 보기: KUBECONFIG={ $kubeconfig } kubectl get namespaces
serve-state = 상태 디렉터리: { $state }(여기서 실행하는 capa-tui --sim과 다른 --sim 명령은 이 클러스터를 씁니다)
serve-stopping = 내장 실습 클러스터를 멈추는 중...
do-about-to-change = capa-tui가 바꿀 대상: { $target }.
do-folders = 소스 디렉터리: { $src }   베어 저장소: { $bare }
do-lesson = 레슨 { $lesson } · { $title }
do-not-asking = 입력이 대화형이 아니어서 묻지 않습니다. 진행하려면 --yes를 붙이세요
do-go-ahead = 진행할까요? [y/N]{" "}
do-answer-yes = y
do-nothing-changed = 아무것도 바꾸지 않았습니다.
do-cannot-create-src = { $path } 소스 디렉터리를 만들 수 없습니다: { $why }. --src-dir로 쓰기 가능한 디렉터리를 지정하세요.
do-lesson-failed = 레슨 { $lesson }: { $why }
do-lesson-done = == 레슨 { $lesson }: { $seconds }초 만에 완료
check-pass = ✓ 통과
check-fail = ✗ 실패
check-steps = 절차
check-line = { $verdict }: { $what } (레슨 { $lesson } · { $title })
check-hint = 힌트 { $n }: { $hint }
status-not-created = (클러스터에 없음)
status-on-lesson = 진행: 레슨 { $lesson }, { $part }
status-not-opened = 진행: 이 실습에서 아직 튜터를 연 적이 없습니다
status-checklist = 레슨 { $lesson }: 지금 { $done }/{ $of }단계 완료
status-undone = {"    "}✗ { $step } — { $why }
status-prediction = 레슨 { $lesson }, 동작 { $action }: 예측 { $answer }
doctor-no-cluster = 클러스터 없음: --kubeconfig/--context를 넘기거나, KUBECONFIG를 설정하거나, --sim을 쓰세요({ $why })
doctor-target = 대상: { $target }
doctor-api = API 연결됨: Kubernetes { $version }
doctor-no-api = API에 연결할 수 없음: { $why }
doctor-crd = Application CRD 설치됨
doctor-no-crd = Application CRD가 없습니다. Argo CD가 설치되어 있나요?
doctor-argocd = Argo CD가 argocd 네임스페이스에 있음. application.resourceTrackingMethod: { $method }
doctor-tracking-unset = (설정 안 됨: 3.x의 기본값인 annotation)
doctor-no-argocd = argocd 네임스페이스의 argocd-cm을 읽을 수 없습니다({ $why }). Argo CD가 거기에 설치되어 있나요?
doctor-bare = 베어 디렉터리 { $path }: 쓰기 가능
doctor-no-bare = 베어 디렉터리 { $path }: 쓰기 불가. --bare-dir로 다른 디렉터리를 지정하세요
doctor-jq = PATH에 jq 있음(레슨의 '직접 해 보기' 명령이 jq로 증거 파일을 작성합니다)
doctor-no-jq = PATH에 jq가 없습니다. 레슨의 '직접 해 보기' 명령이 jq로 증거 파일을 작성합니다(apt-get install jq)
doctor-kubectl = PATH에 kubectl 있음
doctor-no-kubectl = PATH에 kubectl이 없습니다. 레슨 { $lesson }의 kubectl scale 단계에서 멈추게 됩니다(scripts/install-tools를 실행하고 .tools/bin을 PATH에 추가하세요)
env-eval = # eval "$({ $command })" 명령으로 이 설정을 셸에 넣을 수 있습니다
env-nothing-serves = capa-tui: 아직 { $state }에서 제공 중인 내장 클러스터가 없습니다. capa-tui --sim 또는 capa-tui sim serve로 하나를 시작하세요(같은 --state-dir). 그러면 이 설정으로 kubectl을 쓸 수 있습니다.
shell-opening = 실습용 셸 · 클러스터 { $label } · 디렉터리 { $cwd }(셸을 종료하면 돌아옵니다)
header-clock = 시계 ×{ $speed }{" "}
header-clock-ahead = 시계 +{ $ahead }{" "}
shell-clock-ahead-follows = 클러스터의 시계가 당신의 시계보다 { $ahead } 앞서 있습니다(이 실습 환경은 예전에 더 빠르게 실행됨). 이 셸의 date는 클러스터의 시간을 따릅니다.
shell-clock-ahead-wall = 클러스터의 시계가 당신의 시계보다 { $ahead } 앞서 있습니다(이 실습 환경은 예전에 더 빠르게 실행됨). 하지만 이 셸의 date는 당신의 시간을 따르므로 레슨의 시간 계산이 클러스터와 맞지 않습니다. Debian의 faketime 패키지를 설치하고(apt-get install faketime) 셸을 다시 여세요.
shell-clock-follows = 클러스터의 시계는 내 시계보다 { $speed }배 빠르고, 이 셸의 date는 클러스터의 시간을 따릅니다(sleep은 여전히 내 시간으로 기다립니다. 필요보다 길 뿐 짧지는 않습니다).
shell-clock-wall = 클러스터의 시계는 내 시계보다 { $speed }배 빠르지만, 이 셸의 date와 sleep은 내 시간을 따르므로 레슨의 시간 계산이 클러스터와 맞지 않습니다. Debian의 faketime 패키지를 설치하고(apt-get install faketime) 셸을 다시 여세요.
env-clock-fast = capa-tui: 클러스터의 시계는 내 시계보다 { $speed }배 빠릅니다. 이 설정을 쓴 셸의 date와 sleep은 내 시간을 따릅니다. capa-tui shell --sim은 클러스터의 시계를 따르는 셸을 엽니다.
shell-cannot-start = { $program } 프로그램을 시작할 수 없습니다: { $why }
shell-error-no-shell = 시작할 셸이 없습니다. $SHELL이 설정되지 않았고 bash도 설치되어 있지 않습니다. SHELL을 설정하거나(export SHELL=/bin/sh) bash를 설치한 뒤 셸을 다시 시작하세요
shell-error-rc-file = 셸 시작 파일 { $path }에 쓸 수 없습니다: { $why }
shell-error-create-dir = 셸 폴더 { $dir }를 만들 수 없습니다: { $why }
shell-error-terminal = 셸용 의사 터미널을 열 수 없습니다: { $why }
# capa-tui lesson lint, new, test
lint-yaml = 올바른 YAML이 아닙니다: “{ $why }”
lint-not-text = 여기부터 UTF-8 텍스트가 아닙니다(빈 파일로 읽히면 이 레슨이 빠집니다). 파일을 UTF-8로 저장하세요
lint-cannot-read = 이 파일을 읽을 수 없습니다: { $why }
lint-templates-unreadable = 템플릿을 읽을 수 없습니다: { $why }
lint-unknown-field = 알 수 없는 필드 { $field }: 지우거나 다음 중 하나로 쓰세요: { $expected }
lint-shape = { $part } 부분을 읽을 수 없습니다: { $why }
lint-let = { $why }
lint-unknown-name = ${"{"}{ $name }{"}"}: let:에 없는 이름입니다(let:에 있는 이름: { $known }). let:에 추가하거나 이름을 고치세요
lint-literal-value = 이 글은 { $value }을(를) 그대로 적고 있지만 let.{ $name }은(는) 이 값을 템플릿에서 읽습니다. 템플릿이 다른 값을 정한 실습에서도 맞도록 ${"{"}{ $name }{"}"}로 쓰세요
lint-old-value = 이 글은 아직 기본 제공 템플릿의 값인 { $old }을(를) 적고 있지만, 이 템플릿은 { $new }(으)로 정합니다. ${"{"}{ $name }{"}"}로 쓰세요
lint-no-template = { $template } 템플릿 폴더가 없습니다. 템플릿(repo-template/ 또는 --templates)에 추가하거나 이름을 고치세요
lint-template-not-listed = 계획은 { $template } 템플릿을 쓰는데 templates:에는 없습니다. 거기에 추가하세요
lint-no-app-file = 레슨의 어느 템플릿에도 최상위에 { $file } 파일이 없습니다. 그 자리에 두거나 이름을 고치세요
lint-unknown-app = 이름이 { $app }인 Application을 정의하는 템플릿이 없습니다(정의된 것: { $known }). 이름을 고치거나 파일을 추가하세요
lint-unknown-namespace = 네임스페이스 { $namespace }에 배포하는 Application이 없습니다(실습의 네임스페이스: { $known }). 이름을 고치세요
lint-unknown-object = 템플릿의 어떤 Application도 { $object }를 배포하지 않습니다(그곳에 배포하는 같은 종류의 객체: { $known }). 이름을 고치거나 템플릿에 추가하세요
lint-no-evidence-field = { $file }에 { $field } 필드가 없습니다. evidence.fields에 추가하거나 이름을 고치세요
lint-no-evidence-file = { $file } 증거 파일을 쓰는 레슨이 없습니다. 이름을 고치세요
lint-not-own-evidence = 계획은 { $file } 파일을 쓰지만 레슨의 증거 파일은 { $own }입니다. 둘이 같아야 합니다
lint-no-lesson = 여기에는 { $number }번 레슨이 없습니다. 번호를 고치세요
lint-needs-lesson = 이 레슨은 { $lesson }번 레슨에서 만드는 { $what } 항목을 씁니다. requires:에 {"{"}lesson: { $lesson }, done_when: …{"}"} 항목을 추가하세요
lint-needs-some-lesson = 이 레슨은 { $what } 항목을 쓰지만, 이 레슨도 이 레슨이 요구하는 레슨도 그것을 만들지 않습니다. 그것을 만드는 동작을 추가하거나, 그것을 만드는 레슨을 requires:에 넣으세요
lint-unreachable = 계획의 어떤 동작도 { $condition } 조건을 충족시킬 수 없습니다. 다음을 추가하세요: { $needs }
lint-value-differs = 레슨의 템플릿에서 { $file }의 { $path } 값은 { $found }입니다. 이 값을 그대로 쓰거나, 더 좋게는 let:으로 읽어서 ${"{"}name{"}"} 형태로 쓰세요
lint-app-spec-differs = 레슨 템플릿의 Application { $app }({ $at })에 이 has:가 요구하는 값({ $field }: { $wants })이 없습니다. let:으로 값을 읽거나 템플릿을 고치세요
lint-hint = 힌트 { $hint }: 영어 텍스트의 힌트는 { $count }개입니다(1부터 { $count }까지)
lint-asked-after-it-started = 단계 모드가 이 질문을 하기 전에 { $action }번째 동작({ $does })이 답을 보여 줄 동기화를 이미 시작했습니다. 예측하기도 전에 답이 나타나는 것을 볼 수 있습니다. { $action }번째 동작이나 그 전에 물어보세요
lint-narration-gives-away = 단계 모드가 이 질문을 하는 동안 화면의 내레이션이 답 하나({ $choice }, 언어 { $code })를 말합니다. 여기서는 질문으로 쓰고, 결과는 답을 보여 주는 동작의 `then:`에 쓰세요
lint-no-language = { $code }.md가 없습니다. 이 언어로도 레슨 텍스트를 쓰세요(en.md와 같은 여섯 부분)
lint-sections = { $code }.md: 부분이 6개여야 하는데(## Goal, Why, Steps, Mistakes, Hints, By hand) { $found }개입니다
lint-missing-text = 여기에 { $code }: 텍스트가 없습니다. 추가하세요
lint-same-number = { $number }번은 { $other } 레슨의 번호이기도 합니다. 레슨마다 다른 번호를 주세요
lint-no-schema = 첫 줄의 yaml-language-server 주석이 가리키는 스키마 파일이 없습니다: { $schema }(경로 { $path }). capa-tui lesson schema > { $path }로 만들거나 경로를 고치세요
lint-translation = { $code }.md, { $section }: { $what }
lint-translation-hints = 힌트가 { $found }개인데 en.md에는 { $en }개입니다. en.md의 힌트를 순서대로 하나씩 번역하세요
lint-translation-steps = 번호가 붙은 단계가 { $found }개인데 en.md에는 { $en }개입니다. en.md의 단계를 순서대로 하나씩 번역하세요
lint-translation-code-blocks = 코드 블록이 { $found }개인데 en.md에는 { $en }개입니다. en.md의 코드 블록을 그대로 옮기고 # 주석만 번역하세요
lint-translation-code = { $block }번째 코드 블록이 en.md와 다릅니다. en.md: { $en }, { $code }.md: { $here }. en.md의 코드를 그대로 옮기세요(# 주석만 번역할 수 있습니다)
lint-translation-block-end = 블록의 끝
lint-translation-inline-code = 인라인 코드가 en.md와 다릅니다({ $diff }). en.md와 같은 `코드`를 쓰세요(<자리표시자> 안의 단어만 번역할 수 있습니다)
lint-translation-numbers = 코드 밖의 숫자가 en.md와 다릅니다({ $diff }). en.md와 같은 숫자를 쓰세요
lint-translation-references = ${"{"}…{"}"} 값이 en.md와 다릅니다({ $diff }). en.md와 같은 ${"{"}이름{"}"}을 쓰세요
lint-translation-only-en = en.md에만 있음: { $items }
lint-translation-only-here = { $code }.md에만 있음: { $items }
lint-translation-more = 외 { $count }개
lint-no-lessons = { $path }: 여기와 그 하위 폴더에 lesson.yaml이 없습니다
lint-clean = 레슨 { $lessons }개, 문제 없음
lint-problems = 레슨 { $lessons }개에서 문제 { $problems }개
lesson-new-made = { $dir } 폴더를 만들었습니다. 쓴 파일:
lesson-new-schema-note = 각 lesson.yaml의 첫 줄이 가리키는 JSON Schema(편집기용)
lesson-new-lint = capa-tui lesson lint { $dir }로 검사하세요
lesson-new-bad-name = { $name }: 레슨 폴더 이름은 NN-slug입니다(두 자리 숫자, 대시, 대시로 이은 소문자 단어). 예: 09-greeting
lesson-test-lint-first = 레슨이 lint를 통과하지 못했습니다. 위의 문제를 먼저 고치고 다시 테스트하세요
lesson-test-no-state = 테스트 실습용 폴더를 만들 수 없습니다: { $why }. --state-dir DIR로 폴더를 지정하세요.
lesson-test-start = { $dir }의 레슨 { $lessons }개를 새 내장 클러스터에서 테스트합니다(시계 { $speed }배속, 실습 위치 { $state })
lesson-test-step = { $step }. { $title } · { $seconds }초 · { $summary }
lesson-test-passes = 레슨 { $lesson }: 자가 점검 통과({ $what })
lesson-test-fails = 레슨 { $lesson }: 자가 점검 실패({ $what }):
lesson-test-refuses = 거부함: { $what }
lesson-test-learner-reads = 학습자가 보는 메시지: { $why }
lesson-test-accepts = 받아들임: { $what }. 레슨 { $lesson }의 lesson.yaml에 이를 거부하는 검사가 없습니다. 필드를 live: true로 표시하거나 값을 고정하는 규칙을 추가하세요
lesson-test-wrong-type = 타입이 틀린 { $field }({ $value })
lesson-test-one-off = 값이 조금 어긋난 { $field }({ $value })
lesson-test-crosses = { $rule } 규칙을 넘어선 { $field }({ $value })
lesson-test-earlier = { $field }의 타입이 틀린 앞 레슨의 { $file }
lesson-test-at-the-end = 채점기가 끝난 실습을 보듯이 모든 레슨을 다시 점검합니다
lesson-test-summary = 레슨 { $lessons }개 · 단계 { $steps }개, { $seconds }초 · 자가 점검 통과 { $grades }/{ $graded } · 깨진 증거 거부 { $refused }/{ $broken }
lesson-test-kept = 확인할 수 있도록 실습을 남겨 두었습니다: capa-tui --sim --state-dir { $state }
trial-cannot-write = 증거 파일 { $path }을(를) 쓸 수 없습니다: { $why }
lesson-new-exists = { $dir } 폴더가 이미 있습니다. 다른 이름을 고르세요
lesson-new-cannot-write = { $path } 파일을 쓸 수 없습니다: { $why }

## lesson lint: what a let: value, a reference or a plan lacks, in the author's language
lint-shape-parser = { $part } 부분을 읽을 수 없습니다: “{ $why }”
lint-needs-write-push = do: write-templates(그 파일과 값이 든 템플릿) 및 do: commit-push
lint-needs-apply-app = do: apply-app(has:를 만족하는 Application 파일)
lint-needs-hold = do: hold-after-scale(적어도 같은 초 수만큼)
let-no-source = let.{ $name }: file:(값을 읽을 템플릿 파일)이나 value: 중 하나를 쓰세요
let-both-sources = let.{ $name }: file:과 value: 중 하나만 쓰세요
let-which-template = let.{ $name }: 이 레슨은 템플릿 { $count }개를 씁니다(templates:). 어느 템플릿에서 읽을지 template:으로 지정하세요
let-no-template = let.{ $name }: { $template } 템플릿 폴더가 없습니다(repo-template/ 또는 --templates)
let-no-file = let.{ $name }: { $template } 템플릿에 { $file } 파일이 없습니다
let-not-yaml = let.{ $name }: { $file } 파일을 YAML로 읽을 수 없습니다(“{ $why }”). 파일 내용 전체를 읽으려면 path:를 빼세요
let-no-path = let.{ $name }: { $file } 파일의 { $path } 위치에 값이 없습니다
let-not-text = let.{ $name }: after:/before:는 텍스트만 자를 수 있는데, { $file } 파일의 그 위치에는 “{ $found }” 값이 있습니다
let-no-after = let.{ $name }: { $found } 안에서 { $after } 문자열을 찾을 수 없습니다(after:)
let-unknown = ${"{"}{ $name }{"}"}: 그런 값이 없습니다. let:에 있는 이름: { $known }
let-unknown-none = ${"{"}{ $name }{"}"}: 그런 값이 없습니다. let:에 정의된 이름이 하나도 없습니다
let-nested = let.{ $name }: let: 안에서는 ${"{"}{ $other }{"}"} 형태를 쓸 수 없습니다. 그 값의 파일에서 직접 읽으세요
spec-not-evidence-ref = { $text }: FILE#FIELD 형식이 아닙니다(예: precedence.json#replicas)
spec-not-object-ref = { $text }: namespace/Kind/name 형식이 아닙니다
spec-unknown-kind = { $reference }: 알 수 없는 kind { $kind }(쓸 수 있는 것: Application, ConfigMap, Deployment, Job, Pod, Secret, Service)
spec-bad-path = 경로 { $path }: { $why }
spec-path-unclosed-quote = ["가 닫히지 않았습니다
spec-path-unclosed = [가 닫히지 않았습니다
spec-path-filter = 목록 필터는 [key=value,...] 형식입니다
spec-path-empty-key = 키가 비어 있습니다
spec-path-empty = 경로가 비어 있습니다
spec-no-english = 텍스트에는 영어({ $code }:)가 있어야 합니다. 빠진 언어는 영어가 대신합니다
lint-unknown-variant = { $part } 부분을 읽을 수 없습니다: { $variant } 값은 쓸 수 없습니다. 다음 중 하나를 쓰세요: { $choices }
lint-missing-field = { $part } 부분을 읽을 수 없습니다: { $field } 필드가 없습니다

## issue 32: the learner's files and signals
check-not-regular = { $path } 은(는) 일반 파일이 아니므로(파이프, 장치 또는 폴더) 읽지 않습니다
check-not-regular-help = 그것을 지우고 증거를 일반 파일로 작성하세요
check-too-big = { $path } 은(는) { $size } 바이트로, 증거 파일에 허용되는 { $limit } 바이트를 넘습니다
progress-damaged = { $file } 파일을 읽을 수 없어 진행 상황을 처음부터 다시 시작합니다. 손상된 파일은 { $kept }(으)로 보관했습니다
progress-damaged-screen = 저장된 진행 상황을 읽을 수 없어 여기서 다시 시작합니다. 손상된 파일은 { $kept }(으)로 보관했으며, 그 안의 내용은 사라지지 않았습니다.
spec-evidence-outside = { $text } 은(는) 소스 디렉터리 밖을 가리킵니다: 증거 파일은 소스 디렉터리 안의 상대 경로여야 하며 .. 을 쓸 수 없습니다
evidence-outside = { $file } 은(는) 소스 디렉터리 { $dir } 밖을 가리키므로(.., 절대 경로 또는 심볼릭 링크) capa-tui 가 읽지도 쓰지도 않습니다
evidence-outside-help = 그 링크를 소스 디렉터리 안의 일반 파일로 바꾸거나, 레슨 작성자에게 소스 디렉터리 안의 경로를 쓰도록 요청하세요
session-fresh-in-use = 튜터, 셸 또는 계획이 아직 { $state } 의 실습을 열고 있으므로 --fresh 가 그 실습을 옮기지 않습니다: 먼저 그것들을 닫고(튜터에서는 q, 셸에서는 exit) --fresh 를 다시 실행하세요.
serve-log = 로그: { $path }
setup-lessons-builtin = capa-tui 기본 제공 레슨
setup-lessons-in = { $dir }의 레슨
setup-templates-builtin = capa-tui 기본 제공 템플릿
setup-templates-in = { $dir }의 템플릿
setup-of-the-lab = 이 실습은 { $lessons }과(와) { $templates }을(를) 사용하며, 이 설정은 { $file }에 실습과 함께 저장되어 있습니다. 이 실습에서 실행하는 모든 명령은 --lessons나 --templates 없이도 이것을 사용합니다. capa-tui 기본 제공으로 돌아가려면 --lessons builtin --templates builtin을 주세요.
setup-as-learner = { $setup } 이것은 학습자 { $learner }의 실습이며(그 학습자만의 Application 이름), 같은 방식으로 저장되어 있습니다.
setup-gone = 이 실습은 { $dir }(으)로 설정되었지만({ $file }에 저장됨) 그 폴더가 더 이상 없습니다. 폴더를 되돌려 놓거나, 사용할 폴더를 --lessons 또는 --templates로 다시 주세요(builtin은 capa-tui 기본 제공).
setup-damaged = { $file }(이 실습의 설정)을 읽을 수 없습니다: { $why }. 이 파일을 지우고 --lessons와 --templates를 다시 주세요.
setup-cannot-keep = 이 실습의 레슨과 템플릿을 { $file }에 저장할 수 없습니다({ $why }). 이 실습의 모든 명령에 --lessons와 --templates를 주세요.
sim-folder-not-yours = { $path } 은(는) 다른 사용자(uid { $owner })의 것이어서 그 사용자가 클러스터의 파일을 바꿔치기할 수 있습니다. 자신의 폴더(예: 기본 상태 디렉터리)를 사용하세요
sim-folder-others-write = 다른 사용자가 { $path } 에 쓸 수 있어(권한 { $mode }) 클러스터의 파일을 바꿔치기할 수 있습니다. `chmod go-w { $path }` 를 실행하거나 자신의 폴더를 사용하세요
sim-folder-unreadable = { $path } 을(를) 살펴볼 수 없습니다: { $why }
tutor-folder-not-yours = { $path } 은(는) 다른 사용자(uid { $owner })의 것이어서 그 사용자가 진행 상황과 실습 셸이 시작할 때 실행하는 내용을 바꿀 수 있습니다. 자신의 소스 디렉터리(`--src-dir`)를 사용하세요
tutor-folder-others-write = 다른 사용자가 { $path } 에 쓸 수 있어(권한 { $mode }) 진행 상황과 실습 셸이 시작할 때 실행하는 내용을 바꿀 수 있습니다. `chmod go-w { $path }` 를 실행하거나 자신의 소스 디렉터리(`--src-dir`)를 사용하세요
learner-bad-name = { $name }은(는) 학습자 이름으로 쓸 수 없습니다: 소문자, 숫자, '-'만 쓰세요(최대 { $most }자). 예: alice, team-7
class-passed = 통과
class-failed = 실패: { $why }
class-not-started = 시작 안 함
class-collected = 실습을 { $dir }에 모았습니다: { $total }개 레슨 중 { $passed }개 통과
class-row = { $learner }  { $lessons }  · { $minutes }분 · 힌트 { $hints } · 예측 { $right }/{ $predictions } 맞힘
class-title = 반 전체
class-learner = 학습자
class-minutes = 걸린 시간(분)
class-hints = 힌트
class-predictions = 맞힌 예측

## capa-tui replay: 녹화한 세션 다시 보기
replay-playing = ▶ 재생
replay-paused = ⏸ 일시 정지
replay-ended = ■ 끝
replay-position = { $at }/{ $total } · ×{ $speed } · { $step }/{ $steps } 단계
replay-keys = Space 재생 · PgDn/PgUp 단계 · q 종료 · ←/→ 10초 · +/− 속도 · L 언어
replay-error-read = 녹화 파일 { $path }을(를) 읽을 수 없습니다: { $why }
replay-error-cast-without = { $cast }은(는) cast 파일입니다(asciinema로 재생할 수 있습니다). capa-tui는 그 옆에 녹화된 메시지 파일 { $replay }을(를) 재생하는데, 그 파일이 없습니다. .replay 파일을 주거나 --record로 다시 녹화하세요.
replay-error-not-a-replay = { $path }은(는) capa-tui 녹화 파일이 아닙니다: --record가 쓴 .replay 파일(또는 그 옆의 .cast)을 주세요.
replay-error-version = { $path }은(는) 녹화 형식 버전 { $found }의 capa-tui가 녹화했습니다. 이 capa-tui는 버전 { $reads }을(를) 재생합니다. 녹화한 capa-tui로 재생하거나 다시 녹화하세요.
replay-error-write = { $out }에 쓸 수 없습니다: { $why }. --out에는 쓸 수 있는 폴더 안의 파일을 주세요.
replay-error-line = { $path }의 { $line }번째 줄은 녹화된 메시지로 읽히지 않습니다({ $why }): 파일이 바뀌었거나 잘렸습니다. 재생에는 온전한 파일이 필요합니다.
replay-error-lessons = { $path }에 녹화된 레슨을 불러올 수 없습니다: { $why }
replay-exported = { $out }에 썼습니다({ $width }×{ $height }, { $lang }, { $seconds }초): asciinema play { $out }
header-replay = 재생 { $at }{" "}
class-watch-heading = 반 전체 · 학습자 { $learners }명 · { $at } 채점 · 바뀔 때마다 다시 채점 · Ctrl-C로 끝내기
cli-cannot-record = { $path }에 녹화할 수 없습니다: { $why }. --record에는 쓸 수 있는 폴더 안의 파일을 주세요.
