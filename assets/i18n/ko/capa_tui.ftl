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
##   status words, glossed at the end of this file: Synced = 동기화됨, Healthy = 정상, ...

## 키: 도움말에 나오는 각 키의 동작(tui/keymap.rs).
key-shell = 셸: 실습 명령을 여기서 입력(실습 환경을 갖춘 셸을 시작)
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
key-close = 도움말 / 원본 보기 닫기
key-next-pane = 다음 패널
key-prev-pane = 이전 패널
key-zoom = 현재 패널 확대
key-next-section = 레슨의 다음 부분
key-next-section-stepping = 단계 모드: 다음 동작 실행(프레젠터 리모컨의 키)
key-prev-section = 레슨의 이전 부분
key-next-lesson = 다음 레슨
key-prev-lesson = 이전 레슨
key-run = 대신 해 주기(레슨의 계획 실행)
key-step = 단계 모드: 레슨 계획의 다음 동작을 먼저 보여 주고 실행
key-cancel = 실행 중인 계획 취소
key-check = 이 레슨의 증거 파일 자가 점검
key-hint = 힌트 하나 더
key-theme = 테마: 기본 / 프로젝터 / 흑백
key-raw = managedFields 원본
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
pane-apps = Applications
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

## Applications 패널(tui/view/panes.rs).
apps-not-loaded = Applications를 아직 불러오지 못했습니다. 클러스터가 아직 응답하지 않았습니다(헤더 참고).
apps-none-yet = argocd에 아직 Application이 없습니다. r을 누르면 이 레슨의 계획이 실행되어 필요한 것을 만듭니다.
apps-revisions = {"  "}git { $git }{ $git_subject } · 동기화됨 { $synced }{ $synced_subject }
apps-operation = {"  "}작업{" "}
retry-count = {" "}· 재시도 { $count }회
apps-retry-trap = {"  "}⚠ 작업이 아직 { $retrying } 커밋을 재시도하고 있고, Git은 이미 { $git }입니다. 새 커밋은 이 작업이 끝나야 동기화됩니다. 끝내는 명령: { $command }

## managedFields 패널.
fields-not-there = { $object } 객체가 아직 없습니다. o: 다음 객체
fields-heading = { $object }   (o: 다음 객체 · v: 원본)
fields-replicas-owner = spec.replicas의 소유자: { $manager }({ $operation })
fields-replicas-owner-subresource = spec.replicas의 소유자: { $manager }({ $operation }, 서브리소스 { $subresource })

## 값 출처 패널.
values-none = Helm 값을 추적하는 레슨이 없습니다.
values-app-missing = { $app } 앱이 아직 없습니다.
values-live-matches = 실제 값: { $value } ✓
values-live-differs = 실제 값: { $value } ✗ 이긴 계층과 다름

## 증거 패널.
evidence-missing = 없음
evidence-passes = 통과
evidence-fails = 통과 못 함
evidence-not-checked = 아직 점검 안 함(c로 점검)

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
shell-typing = 입력 중 · capa-tui로 돌아가기: Ctrl-]
help-title = {" "}키 · Esc로 닫기{" "}
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
notice-what-run = “대신 해 주기”
notice-what-check = 자가 점검
notice-what-step = 단계 모드
notice-what-other = 이 기능
notice-needs-cluster = { $what }({ $key })에는 클러스터가 필요한데, 클러스터가 응답하지 않습니다:
notice-as-of = {"  "}패널에는 { $clock } 기준의 상태가 보입니다.
notice-what-to-do = 클러스터를 다시 시작하거나 kubeconfig를 확인하세요. capa-tui는 스스로 다시 연결합니다. 헤더에 ✓ 실시간이 보이면 { $key } 키를 다시 누르세요.
notice-any-key = 아무 키나 누르면 닫힙니다.

## 자리를 받지 못한 패널의 한 줄 요약(tui/view/summary.rs).
summary-shell-running = 실행 중 · s로 입력
summary-shell-not-started = s를 누르면 실습 환경으로 셸을 엽니다
summary-shell-exited = 종료됨 · s로 새로 시작
summary-shell-failed = 시작할 수 없음: { $why }
summary-apps-none = 아직 없음
summary-apps-retrying = {" "}⚠ 예전 커밋을 재시도 중
summary-evidence-pass = { $passing }/{ $total } 통과
summary-evidence-fail = {" "}· { $count }개 통과 못 함
summary-evidence-missing = {" "}· { $count }개 없음
timeline-no-operation = { $app }: 아직 작업 없음

## 동기화 타임라인(tui/view/timeline.rs).
timeline-last-operation = { $app } · 마지막 작업{" "}
timeline-started = { $retry } · { $started } 시작
timeline-now = 지금: { $message }
timeline-head-lane = phase wave
timeline-head-resource = 리소스 · 결과(시작 후 초)
timeline-failed-gone = {" "}실패(사라짐)
timeline-gone-or-unseen = {" "}(사라졌거나 아직 안 보임)
timeline-existed-before = {" "}(이전부터 있었음)
timeline-failed-at = {" "}실패 +{ $at }s
timeline-created-ready = {" "}+{ $created }s → 준비됨 +{ $ready }s
timeline-created-failed = {" "}+{ $created }s → 실패 +{ $failed }s
timeline-created = {" "}+{ $created }s
timeline-wave-done-pause = wave 완료 +{ $at }s · 이어서 2초 멈춤
timeline-wave-done-at = wave 완료 +{ $at }s
timeline-wave-done-then-pause = wave 완료 · 이어서 2초 멈춤
timeline-wave-done = wave 완료

## 셸 패널(tui/view/shell.rs).
shell-press-s = s를 누르면(여기서는 Enter도 됩니다) 실습용 셸이 열립니다.
shell-about = { $marker }· 디렉터리 { $cwd } · KUBECONFIG { $kubeconfig } · PATH에 kubectl, helm 있음
shell-kubeconfig-inherited = 현재 환경 그대로
shell-keys = 이제 모든 키가 셸로 갑니다. Ctrl-]를 누르면 키 입력이 capa-tui로 돌아옵니다.
shell-failed = ✗ 셸을 시작할 수 없습니다: { $why }. capa-tui는 계속 쓸 수 있습니다. s를 누르면 다시 시도합니다.
shell-exited = {" "}셸이 종료됨 · Enter로 새로 시작{" "}
shell-exited-code = {" "}셸이 종료됨(코드 { $code }) · Enter로 새로 시작{" "}
shell-scrolled-back = {" "}↑ { $lines }줄 위 · ↓/j 아래로, 입력하면 맨 아래로{" "}

## 레슨 패널(tui/view/lesson.rs).
lesson-none = 레슨이 없습니다.
lesson-no-evidence = 없음
lesson-part = { $part } ({ $at }/{ $of })  ·  증거 파일: { $evidence }
lesson-lines-above = ↑ 위에 { $lines }줄 더 · ] [ 선택 · y 입력 · Y 복사
lesson-press-h = h를 누르면 첫 번째 힌트가 나옵니다.
checklist-count = 체크리스트 { $done }/{ $of }
checklist-all-done = {" "}· 모두 완료
checklist-next = {" "}· 다음: { $step }
step-mode-heading = 단계 모드 · { $at }/{ $of } · { $now }
step-mode-all-done = 모두 완료 · g를 누르면 단계 모드를 나갑니다
step-mode-running = 실행 중…
step-mode-g-runs-it = g를 누르면 실행
predict-question = ? 예측: { $question }
predict-reveal = 내 예측: { $said } · 실제: { $live }
verdict-file-passes = { $file } 자가 점검 통과
verdict-file-fails = { $file } 자가 점검 통과 못 함:
verdict-steps-pass = 레슨 { $lesson }: 절차 자가 점검 통과
verdict-steps-fail = 레슨 { $lesson }: 절차 자가 점검 통과 못 함:
verdict-hint = 힌트 { $n }: { $hint }
plan-heading = 대신 해 주기 · 레슨 { $lesson }{" "}
plan-waiting-for-g = · g를 기다리는 중
plan-running = … 실행 중 · { $seconds }초
plan-done = ✓ { $seconds }초 만에 완료

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
