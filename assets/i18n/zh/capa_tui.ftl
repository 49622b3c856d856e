## capa-tui 界面上的文字（中文）。每个消息 id 都必须与英文文件一一对应。
## Argo CD 和 Kubernetes 自己的词（Synced、OutOfSync、PreSync、字段路径、命令）保持原样。

## 按键：帮助里列出的每个键的作用（tui/keymap.rs）。
key-shell = 终端：在这里输入实验命令（启动时已配好实验环境）
key-next-command = 选择课程中的下一条命令
key-prev-command = 选择上一条命令
key-type-command = 把选中的命令输入终端（由你按回车）
key-copy-command = 把选中的命令复制到剪贴板（OSC 52）
key-leave-shell = 离开终端：按键交回 capa-tui
key-scroll-up = 向上滚动当前窗格（终端：回看之前的输出）
key-scroll-down = 向下滚动当前窗格
key-scroll-top = 到当前窗格顶部
key-scroll-bottom = 到当前窗格底部
key-quit = 退出
key-help = 帮助
key-close = 关闭帮助 / 原始视图 / 放大，否则取消所选命令
key-next-pane = 下一个窗格
key-prev-pane = 上一个窗格
key-zoom = 放大当前窗格
key-next-section = 课程下一部分
key-next-section-stepping = 分步模式：执行下一步（翻页笔的按键）
key-prev-section = 课程上一部分
key-next-lesson = 下一课
key-prev-lesson = 上一课
key-run = 替我做（执行本课计划）
key-step = 分步模式：先展示本课计划的下一步，再执行
key-cancel = 取消正在执行的计划
key-check = 自检本课的证据文件
key-hint = 再给一个提示
key-theme = 主题：默认 / 投影 / 单色
key-raw = 在 managedFields 窗格：显示原始条目；在其他窗格：显示哪一层 Helm 取值生效
key-next-app = 时间线：下一个 Application
key-next-object = managedFields：下一个对象

## 课程的各部分（lab/catalog.rs）。
section-goal = 目标
section-why = 为什么重要
section-steps = 步骤
section-mistakes = 常见错误
section-hints = 提示
section-by-hand = 手动操作

## 窗格：边框上的标题，以及窗格条里的简称。
pane-lesson = 课程
pane-shell = 终端
pane-apps = Applications（应用）
pane-timeline = 同步时间线
pane-fields = managedFields（字段归属）
pane-values = 取值来源
pane-evidence = 证据
pane-lesson-short = 课程
pane-shell-short = 终端
pane-apps-short = 应用
pane-timeline-short = 时间线
pane-fields-short = 字段归属
pane-values-short = 取值
pane-evidence-short = 证据

## 多久以前：监视数据过期了多久。
age-seconds = { $seconds } 秒
age-minutes = { $minutes } 分 { $seconds } 秒
age-hours = { $hours } 小时 { $minutes } 分

## 计划步骤：“替我做”每一步做什么（lab/spec/plan.rs）。
step-create-bare-repo = 创建裸仓库 { $repo }.git
step-clone = 克隆 { $repo }.git
step-write-templates = 写入 { $template } 的文件
step-commit-push = 提交并推送：{ $message }
command-write-templates = 把 repo-template/{ $template } 的文件写入 { $repo } 和 { $src }
command-evidence = 用 kubectl 读取取值，写入 { $path }
step-apply-app = 应用 { $file }
step-hard-refresh = 硬刷新 { $app }
step-wait-synced-healthy = 等待 { $app } 变为 Synced 且 Healthy
step-wait-succeeded = 等待 { $app } 变为 Synced、Healthy 且 Succeeded
step-wait-operation-failed = 等待 { $app } 的操作失败
step-end-blocking-operation = 结束 { $app } 上阻挡新提交的操作
step-end-operation = 结束 { $app } 正在失败的操作
step-end-operation-and-record = 结束 { $app } 正在失败的操作并记录 { $file }
step-scale = 把 { $deployment } 扩缩到 { $replicas }
step-hold-after-scale = 扩缩 { $deployment } 后等待 { $seconds } 秒
step-evidence = 从集群读取并写出 { $file }

## Applications 窗格（tui/view/panes.rs）。
apps-not-loaded = Applications 尚未载入：集群还没有回应（见顶部）。
apps-none-yet = argocd 中没有 Application。按 r 执行本课计划，它会创建所需的一切。
apps-revisions = {"  "}Git { $git }{ $git_subject } · { $good }
apps-last-good = 上次成功同步 { $revision }{ $subject }
# When the commit that last synced OK is Git\'s own: its subject is not said twice.
apps-last-good-here = 上次成功同步的正是这个提交
apps-nothing-since = 自 { $revision }{ $subject } 以来没有需要应用的改动
apps-never-good = 尚未成功同步过
apps-op-ended = {"  "}上次同步（{ $revision }）：
apps-op-running = {"  "}⧗ 正在同步 { $revision }：
apps-op-retrying = {"  "}⧗ 正在重试 { $revision }（已重试 { $count } 次）：
apps-op-after-retries = {" "}重试 { $count } 次后
apps-op-since = 始于 { $time }
retry-count = {" "}· 第 { $count } 次重试
apps-retry-trap = {"  "}⚠ 一个操作仍在重试 { $retrying }，而 Git 已在 { $git }：新提交要等它结束才会同步。结束它：{ $command }

## managedFields 窗格。
fields-not-there = { $object } 还不存在。o：下一个对象
fields-heading = { $object }   （o：下一个对象 · v：原始）
fields-replicas-owner = spec.replicas 归 { $manager } 所有（{ $operation }）
fields-replicas-owner-subresource = spec.replicas 归 { $manager } 所有（{ $operation }，子资源 { $subresource }）

## 取值来源窗格。
values-none = 没有课程追踪 Helm 取值。
values-app-missing = argocd 中没有 Application { $app }。
values-live-matches = 实际：{ $value } ✓
values-live-differs = 实际：{ $value } ✗ 与生效的那一层不同
values-winner-hidden = 写好证据文件之前，先不显示哪一层生效：请先自己预测（按 v 可立即显示）。
summary-values-hidden = 哪一层生效：写好证据前不显示（按 v 显示）
values-winner-hidden-until-answered = 作答之前，先不显示哪一层生效。
summary-values-hidden-until-answered = 哪一层生效：作答之前不显示

## 证据窗格。
evidence-missing = 缺失
evidence-passes = 通过
evidence-fails = 未通过
evidence-not-checked = 尚未自检（按 c 自检）

## 底栏：每个按键的简短说明。
footer-help = 帮助
footer-next-section = 翻页
footer-shell = 终端
footer-next-command = 选命令
footer-type-command = 输入
footer-run = 替我做
footer-step = 分步
footer-cancel = 取消
footer-check = 自检
footer-hint = 提示
footer-next-pane = 窗格
footer-zoom = 放大
footer-quit = 退出
footer-next-action = 下一步
footer-leave-shell = 返回 capa-tui（其余按键都交给终端）

## 外框：顶栏、标题和浮层（tui/view/chrome.rs）。
header-theme = {" "}· 主题 { $theme }
shell-typing = 输入中 · Ctrl-] 返回 capa-tui
help-title = {" "}按键 · Esc 关闭{" "}
help-mode-normal = 各按键当前的作用（灰色：此处暂时用不上）
help-mode-present-step = 演示中，分步模式：空格、PgDn 和 → 执行下一步（灰色：此处暂时用不上）
help-scroll = ↑/↓ 和 PgUp/PgDn 滚动此列表 · Esc 或 ? 关闭
predict-title = {" "}先预测，再观察{" "}
confirm-title = {" "}改动之前先看清{" "}
confirm-about-to-change = 第 { $lesson } 课即将改动 { $target }
confirm-folders = 源目录 { $src } · 裸仓库 { $bare }
confirm-go-ahead = 继续{"   "}
confirm-change-nothing = 不做改动

## 实时还是过期：顶栏、过期的窗格和提示（tui/view/health.rs）。
watch-live = ✓ 实时
watch-connecting = … 连接中
watch-stale-since = ✗ 数据过期：截至 { $clock }（{ $age }前）· 正在重连
watch-not-loaded = ✗ 尚未载入 · 正在重连
watch-all = 全部监视
watch-more = 另 { $count } 个
watch-failing = { $who }：{ $problem }
pane-as-of = {" "}· 截至 { $clock }
pane-not-loaded = {" "}· 未载入
notice-title = {" "}集群没有回应{" "}
notice-title-lab = {" "}你的实验{" "}
notice-title-plan = {" "}有计划正在执行{" "}
notice-plan-running = { $what }需要等待：第 { $lesson } 课的计划正在执行，一次只能执行一个计划。等它完成，或按 x 取消。
notice-what-run = “替我做”
notice-what-check = 自检
notice-what-step = 分步模式
notice-what-other = 此操作
notice-needs-cluster = { $what }（{ $key }）需要集群，但集群没有回应：
notice-as-of = {"  "}窗格显示的是 { $clock } 时的状态。
notice-what-to-do = 请重新启动集群或检查 kubeconfig；capa-tui 会自动重连。顶部显示 ✓ 实时 后再按 { $key }。
notice-any-key = 按任意键关闭。

## 没有空间的窗格的一行摘要（tui/view/summary.rs）。
# The start of a pane's one-line summary: its title, how old its data is, then what it shows.
summary-head = ▸ { $pane }{ $as_of }：
summary-shell-running = 运行中 · 按 s 输入
summary-shell-not-started = 按 s 打开一个带实验环境的终端
summary-shell-exited = 已退出 · 按 s 再开一个
summary-shell-failed = 无法启动：{ $why }
summary-apps-none = 还没有
summary-apps-retrying = {" "}⚠ 在重试一个旧提交
summary-evidence-pass = { $passing }/{ $total } 通过
summary-evidence-fail = {" "}· { $count } 个未通过
summary-evidence-missing = {" "}· { $count } 个缺失
summary-evidence-not-checked = {" "}· { $count } 个尚未自检
timeline-no-operation = { $app }：还没有操作

## 同步时间线（tui/view/timeline.rs）。
timeline-last-operation = { $app } · 上一次操作{" "}
timeline-current-operation = { $app } · 当前操作{" "}
timeline-started = { $retry } · 开始于 { $started }
timeline-now = 当前：{ $message }
timeline-head-lane = 阶段 wave
timeline-head-resource = 资源 · 结果（距开始的秒数）
timeline-failed-gone = {" "}失败（已不存在）
timeline-gone-or-unseen = {" "}（已不存在或尚未看到）
timeline-existed-before = {" "}（之前就已存在）
timeline-existed-configured = {" "}（之前就已存在，已修改）
timeline-failed-at = {" "}失败 +{ $at }s
timeline-created-ready = {" "}+{ $created }s → 就绪 +{ $ready }s
timeline-created-failed = {" "}+{ $created }s → 失败 +{ $failed }s
timeline-created = {" "}+{ $created }s
timeline-failed = {" "}失败
timeline-made-after = {" "}（本次操作之后又被重新创建）
timeline-changed-after = {" "}· 操作结束后才稳定
timeline-unfinished = {" "}· 未完成
timeline-wave-done-at = 该 wave 完成 +{ $at }s
timeline-wave-done = 该 wave 完成
timeline-phase-done-at = { $phase } 阶段完成 +{ $at }s
timeline-phase-done = { $phase } 阶段完成
timeline-pause = 暂停 { $seconds } 秒
timeline-next-at = 下一个 wave +{ $at }s 开始

## 终端窗格（tui/view/shell.rs）。
shell-press-s = 按 s（或在此按回车）打开实验用的终端。
shell-about = { $marker }· 位于 { $cwd } · KUBECONFIG { $kubeconfig }，PATH 中有 kubectl 和 helm
shell-kubeconfig-inherited = 沿用当前的
shell-keys = 之后每个按键都交给终端；按 Ctrl-] 把按键交回 capa-tui。
shell-failed = ✗ 终端无法启动：{ $why }。capa-tui 仍可使用；按 s 重试。
shell-exited = {" "}终端已退出 · 按回车再开一个{" "}
shell-exited-code = {" "}终端已退出（退出码 { $code }）· 按回车再开一个{" "}
shell-scrolled-back = {" "}↑ 回看 { $lines } 行 · ↓/j 向前，输入即回到底部{" "}
shell-tall-command-zoom = 共 { $lines } 行，逐行输入 · Ctrl-] 再按 z 可全部显示
shell-tall-command-lesson = 共 { $lines } 行，逐行输入 · 课程窗格里有完整命令

## 课程窗格（tui/view/lesson.rs）。
lesson-none = 没有找到课程。
lesson-no-evidence = 无
lesson-part = { $part }（{ $at }/{ $of }）  ·  证据文件：{ $evidence }
lesson-title-after-prediction = （全场看到答案之后显示标题）
lesson-waits-for-prediction = 全场看到答案之后，检查清单和课程正文才会重新显示：它们可能会泄露答案。
lesson-end-next = {" "}本课结束 · PgDn → 第 { $lesson } 课：{ $title }{" "}
lesson-end-last = {" "}最后一课结束 · c 自检证据，q 退出{" "}
lesson-press-h = 按 h 查看第一个提示。
checklist-count = 检查清单 { $done }/{ $of }
checklist-all-done = {" "}· 全部完成
checklist-next = {" "}· 下一步：{ $step }
step-mode-heading = 分步模式 · { $at }/{ $of } · { $now }
step-mode-all-done = 全部完成 · 按 g 退出分步模式
step-mode-running = 执行中…
step-mode-g-runs-it = 按 g 执行
step-mode-clicker-runs-it = 按空格、PgDn 或 g 执行
predict-question = ? 预测：{ $question }
predict-reveal = 你的预测：{ $said } · 实际：{ $live }
predict-keys = { $keys }：按答案对应的数字
verdict-file-passes = { $file } 通过自检{ $when }
verdict-file-fails = { $file } 未通过自检{ $when }：
verdict-steps-pass = 第 { $lesson } 课的步骤通过自检{ $when }
verdict-steps-fail = 第 { $lesson } 课的步骤未通过自检{ $when }：
verdict-hint = 提示 { $n }：{ $hint }
plan-heading = 替我做 · 第 { $lesson } 课{" "}
plan-waiting-for-g = · 等待按 g
plan-waiting-for-next = · 等待下一次按键
plan-running = … 执行中 · { $seconds } 秒
plan-done = ✓ 完成，用时 { $seconds } 秒
plan-failed-lab-moved-on = ✗ 在第 { $step } 步停止；此后实验已有变化，当时的原因可能已不再成立：按 r 重新执行计划

## Argo CD 的状态词在出现处加注中文（tui/theme.rs）。
gloss-synced = 已同步
gloss-out-of-sync = 未同步
gloss-healthy = 健康
gloss-progressing = 进行中
gloss-degraded = 降级
gloss-missing = 缺失
gloss-suspended = 已暂停
gloss-succeeded = 成功
gloss-failed = 失败
gloss-error = 出错
gloss-running = 运行中
gloss-terminating = 终止中
gloss-unknown = 未知

## 集群为什么没有回应，以及 capa-tui 怎么说（cluster/）。
why-refused = 连接被拒绝
why-dropped = 连接被断开
why-timed-out = 超时
why-closed-early = 连接过早关闭
why-no-route = 没有到该主机的路由
why-address-unavailable = 该地址不可用
why-untrusted = 它的 TLS 证书不受信任（{ $detail }）
why-no-such-host = 无法解析它的主机名
problem-cannot-reach = 无法连接 { $server }：{ $why }
problem-cannot-reach-cluster = 无法连接集群：{ $why }
problem-dropped = 连接中断（{ $why }）
problem-answered = 集群回应 { $code } { $reason }：{ $message }
problem-watch-stopped = 监视停止了：{ $message }
problem-history-expired = 服务器的历史已不足以接上 capa-tui 上次看到的位置；正在重新列出
stream-applications = Applications
stream-application = Application { $name }
stream-of-kind = { $namespace } 的 { $kind }
cluster-no-kubeconfig = 找不到 kubeconfig（查看了 $KUBECONFIG、~/.kube/config 和 /etc/rancher/k3s/k3s.yaml）：请传入 --kubeconfig FILE、设置 KUBECONFIG，或用 --sim 启动内置集群
cluster-bad-kubeconfig = 无法读取 kubeconfig { $path }：{ $why }
cluster-bad-context-named = kubeconfig 中没有可用的上下文 "{ $context }"：{ $why }
cluster-bad-context = kubeconfig 中没有可用的上下文：{ $why }
cluster-no-client = 无法为 { $server } 创建客户端：{ $why }
cluster-unreachable = { $problem }。集群在运行吗？kubeconfig/上下文对吗？
cluster-not-an-application = { $name } 读起来不像一个 Application
cluster-bad-date = API 服务器的 Date 头 "{ $date }" 不是日期
cluster-no-date = API 服务器没有发送 Date 头
cluster-kept-changing = 无法终止 { $name } 的操作：Application 一直在变化；请重试

## 检查清单的步骤为什么还没完成，以及该怎么做（lab/eval/unmet.rs）。
unmet-no-bare-repo = 还没有裸仓库 { $repo }.git：用 git init --bare 创建它
unmet-not-cloned = 本地仓库还不是 { $repo }.git 的克隆：用 git clone 克隆它
unmet-not-pushed = { $repo }.git 的 main 上还没有 { $path }：提交后 git push
unmet-pushed-without = { $repo }.git 的 main 上的 { $path } 不包含 "{ $contains }"：提交这处改动并 git push
unmet-git-sets-unwanted = { $repo }.git 的 main 上，{ $file } 把 { $path } 设为 { $have }；本实验不把它放进 Git
unmet-git-lacks = { $repo }.git 的 main 上，{ $file } 没有设置 { $path }；它应为 { $want }
unmet-git-differs = { $repo }.git 的 main 上，{ $file } 把 { $path } 设为 { $have }，而不是 { $want }
unmet-git-not-yaml = { $repo }.git 的 main 上的 { $file } 不是合法的 YAML（{ $why }）：修正后提交并 git push
unmet-no-app = argocd 中没有 Application { $app }：用 kubectl apply 应用它
unmet-app-spec-lacks = { $app } 的 spec.{ $at } 应包含 { $want }：修改 Application 后再次 kubectl apply
unmet-app-state = { $app } 在 { $at } 上为 { $sync }/{ $health }（main 在 { $main }）
unmet-cannot-render = { $state }：Argo CD 无法渲染它：{ $message }。请修正其中提到的内容：在 Git 里（提交并推送）或在 Application 里（kubectl apply）；等待或硬刷新都无济于事
unmet-retrying-other = { $state }：一个操作还在反复重试提交 { $at }（第 { $attempt } 次），main 上的提交排在它后面：结束该操作（argocd app terminate-op { $app }），main 就会同步
unmet-syncing = { $state }：main 的同步正在进行：请等待它完成
unmet-not-compared = { $state }：Argo CD 还没有读取 main：请硬刷新 { $app }
unmet-out-of-sync = { $state }：没有任何东西在同步它：请同步（argocd app sync { $app }），或给它配置自动同步的 syncPolicy
unmet-not-healthy = { $state }：已同步，但还不是 Healthy：请等待，或在 Applications 窗格里看是哪个资源
unmet-not-succeeded = { $app } 的上一次操作在 { $at } 上为 { $phase }；应当在 main（{ $main }）上为 Succeeded
unmet-not-failed = { $app } 在 main（{ $main }）上的操作没有失败：上一次操作在 { $at } 上为 { $phase }
unmet-not-in-cluster = 集群中没有 { $object }
unmet-owned-by = { $object } 的 { $path } 归 { $owner } 所有，而不是 { $manager }
unmet-no-owner = { $object } 的 { $path } 不归任何管理者所有
unmet-field-is = { $object } 的 { $path } 为 { $have }，而不是 { $want }
unmet-field-missing = { $object } 没有 { $path }（应为 { $want }）
unmet-runs-other-image = { $object }：它的 Pod 运行的是 { $images }，不是 { $image }
unmet-not-rolled-out = { $object }：{ $want } 个 Pod 中有 { $ready } 个在 { $image } 上就绪（已更新 { $updated } 个，共 { $total } 个）：等待滚动更新完成
unmet-no-evidence = 还没有写出 { $file }
unmet-evidence-fails = { $file } 未通过自检
unmet-not-scaled = 还没有手动扩缩 { $object }（kubectl scale）
unmet-holding = 已满足；还要再等 { $seconds } 秒
unmet-no-clock = 尚未获知集群的时间

## 自检：证据文件、每个字段的类型、与集群对照的值（lab/eval/check.rs）。
check-missing = 缺少 { $path }
check-missing-help = 执行本课计划（按 r，或运行 capa-tui do），或按本课“手动操作”部分的做法自己写出它
check-unreadable = 无法读取 { $path }：{ $why }
check-unreadable-help = 检查该文件的权限
check-empty = { $file } 是空的
check-not-text = { $file } 不是文本，更不是 JSON
check-not-json = { $file } 不是 JSON（第 { $line } 行第 { $column } 列）
json-type-number = 数字
json-type-string = 字符串
json-type-boolean = 布尔值
json-type-string-or-null = 字符串或 null
check-not-object = { $file } 必须是一个 JSON 对象（{"{"} "字段": 值, … {"}"}）
check-wrote-it-help = 写这个文件的命令失败了吗？重新运行它，并读一读它在写文件之前打印的内容
check-not-evidence = { $file } 不是本实验的证据文件
check-not-evidence-help = capa-tui check 会列出本实验的证据文件
check-type-ok = { $field } 是 { $kind }
check-type-missing = 缺少 { $field }：它应为{ $kind }
check-type-wrong = { $field } 应为{ $kind }，实际是 { $found }
check-type-help-number = 写数字时不要加引号：3，而不是 "3"（用 jq 时：--argjson，或 tonumber）
check-type-help-string = 值要写在双引号里："Synced"（用 jq 时：--arg）
check-type-help-boolean = 写 true 或 false，不加引号（用 jq 时：--argjson）
check-type-help-string-or-null = 值要写在双引号里；没有值时写 null
check-not-a-time = { $field } 必须是 RFC 3339 时间（像 creationTimestamp 那样），实际为 { $found }
check-time-help = 按集群显示的原样复制时间，例如 2026-03-01T10:02:11Z（kubectl get … -o jsonpath='{"{"}.metadata.creationTimestamp{"}"}'）
check-live-ok = { $field } = { $value }，与集群一致
check-live-differs = { $field } 为 { $value }，但集群显示的是 { $live }
check-live-differs-syncing = { $app } 正在同步，集群还在变化：等同步结束后再检查
check-live-differs-too-early = { $file } 写于 { $written }，早于 { $app } 上一次同步结束的 { $ended }：读取得太早了；现在重新写一次这个文件
check-cannot-read-live = 无法把 { $file } 与集群对照：{ $why }
check-cannot-read-live-help = 自检需要集群：集群回应后再自检一次（c）
check-cannot-read-steps = 无法读取集群来检查第 { $lesson } 课的步骤：{ $why }
check-cluster-help = 自检需要读取集群：集群回应后再自检一次（c）

## 课程证据必须满足的规则（lab/eval/check/rules.rs、history.rs）。
rule-or = {" "}或{" "}
rule-in-order-ok = { $earlier } 不晚于 { $later }
rule-in-order-not = { $earlier }（{ $a }）晚于 { $later }（{ $b }）：{ $fix }
rule-before-condition-ok = { $field } 早于 { $object } 变为 { $condition }
rule-before-condition-not = { $field }（{ $recorded }）晚于 { $object } 变为 { $condition } 的时刻（{ $at }）
rule-apart-ok = { $to } 比 { $from } 晚 { $apart } 秒（≥ { $seconds }）
rule-apart-not = { $to } − { $from } 只有 { $apart } 秒；至少要等 { $seconds } 秒
rule-one-of-ok = { $field } 为 { $found }
rule-one-of-not = { $field } 为 { $found }，而不是 { $allowed }
rule-one-of-not-why = { $field } 为 { $found }，而不是 { $allowed }：{ $why }
rule-cannot-read = 无法读取 { $object }：{ $why }
rule-not-condition-yet = { $kind } { $name } 还不是 { $condition }
rule-not-condition-yet-help = 等同步完成后再自检一次（c）
rule-created-after-ok = { $object } 是在 { $after } 变为 { $condition } 之后创建的
rule-created-after-not = { $object } 创建于 { $created }，早于 { $after } 变为 { $condition }（{ $since }）：wave 没有让它等待；检查 sync-wave 注解
rule-no-creation-time = { $object } 没有 creationTimestamp
rule-wave-object-gone = 集群中没有 { $object }，无法检查 wave 顺序
rule-sync-again-help = 再同步一次应用，然后再自检（c）
rule-not-unix-seconds = { $field } 为 { $value }，不是以秒为单位的 Unix 时间：写 date +%s（不是毫秒）
rule-in-the-future = { $field }（{ $value }）晚于当前时间：集群的时钟是 { $now }
rule-unix-seconds-ok = { $field } 是以秒为单位的 Unix 时间
rule-cannot-read-clock = 无法读取集群的时钟来检查 { $field }：{ $why }
rule-after-write-ok = { $field } 紧跟在 { $manager } 写 { $path } 之后（{ $at }）
rule-after-write-not = { $field } 为 { $recorded }，但 { $manager } 在 { $at } 写了 { $object } 的 { $path }：扩缩之后立刻记录 date +%s
rule-after-write-owner = { $object } 的 { $path } 归 { $owner } 所有，而不是 { $manager }：用 kubectl scale 扩缩它，再记录时间
rule-after-write-undated = 无法用集群核对 { $field }：{ $object } 的 { $path } 归 { $manager } 所有，但集群已不再记录它写入的时间（扩缩的时间由其事件记录，事件只保留一小时）
rule-nobody = 无人
rule-passes-ok = { $file } 通过了自检
rule-passes-not = { $file }（第 { $lesson } 课）没有通过自检：{ $why }。先修好它，这份报告以它为基础
rule-passes-missing = { $file }（第 { $lesson } 课）还没有写出，而这份报告以它为基础
rule-passes-missing-help = 先完成第 { $lesson } 课（capa-tui do { $lesson }，或按该课“手动操作”部分的做法完成），再检查这份报告
rule-passes-not-help = 先修好第 { $lesson } 课（capa-tui check { $lesson } 会说明哪里没通过），再检查这份报告
rule-full-sha-ok = { $field } 是完整的提交 SHA
rule-full-sha-not = { $field } 为 { $found }：写完整的 40 位 SHA（git rev-parse HEAD），不要写分支、HEAD 或短 SHA
rule-commit-sets-other = 提交 { $commit } 把 { $file } 中的 { $path } 设为 { $set }，而不是 { $value }
rule-commit-does-not-break = 提交 { $commit } 的 { $file } 中没有 "{ $contains }"（改坏它的不是这个提交）
rule-commit-did-not-change = 提交 { $commit } 没有改变 { $path }：它的父提交里已经是 { $before }；本实验是在改坏 { $breaks } 的同一个提交里改它
rule-no-bare-repo = 无法打开裸仓库 { $bare }/{ $repo }.git 来查看这个提交
rule-no-bare-repo-help = 裸仓库目录必须是本实验的（--bare-dir）
rule-that-is = {" "}（就是 { $commit }）
rule-commit-not-in-main = { $field } "{ $commit }" 不是 { $repo }.git 的 main 上的提交：写你推送的那个改坏迁移的提交的 SHA{ $suggest }
rule-commit-ok = 提交 { $commit } 把 { $path } 设为 { $value }，并改坏了 { $breaks }
rule-commit-not = { $why }：写改坏迁移的那个提交的 SHA{ $suggest }
rule-not-applied-ok = { $field } { $live } 是该提交之前的值：该提交没有被应用
rule-not-applied-not = { $field } 为 { $live }，但钩子失败期间集群里仍是该提交之前的值 { $before }：请在操作失败期间，从集群中的实际对象读取并记录 { $field }
rule-hook-name-not = { $field } "{ $job }" 不是 Argo CD 给 generateName 为 { $generate_name } 的 { $phase } 钩子起的名字（{ $shape }）：从 status.operationState.syncResult.resources 复制
rule-hook-commit-ok = { $field } 指向 { $repo }.git 的提交 { $rev }
rule-hook-commit-not = { $field } 指向提交 { $rev }，它不在 { $repo }.git 的 main 上：记录你自己那次同步的钩子
rule-hook-gone = { $namespace } 中已经没有 Job { $job }，无法用它检查 { $field }：再同步一次并记录新的钩子 Job
rule-hook-after-start-ok = { $field } 晚于创建 { $job } 的那次操作的开始时刻
rule-hook-after-start-not = { $field }（{ $at }）早于创建 { $job } 的那次操作开始的时刻（{ $started }）：记录那个 Job 的 creationTimestamp
rule-hook-succeeded-ok = { $field } 是一个已成功的 { $phase } 钩子
rule-hook-succeeded-not = { $field } 不是已成功的 { $phase } 钩子 Job：记录成功的那个 { $phase } 钩子
rule-hook-created-ok = { $field } 是那个 Job 的 creationTimestamp
rule-hook-created-not = { $field } 为 { $recorded }，但那个 Job 创建于 { $real }：复制它的 metadata.creationTimestamp

## 从集群读取证据（lab/eval/evidence.rs、derived.rs）。
evidence-missing-field = { $object } 的 { $path }
evidence-missing-owner = { $object } 的 { $path } 的所有者
evidence-missing-scale = 对 { $deployment } 的扩缩
evidence-look-again = 稍后再看
evidence-not-yet = 还没有{ $what }：{ $hint }
evidence-cannot-write = 无法写入 { $path }：{ $why }。源目录可写吗？
evidence-redo-lesson = 先做第 { $lesson } 课（它会写出 { $file }）
evidence-redo-file = 先写出 { $file }
evidence-earlier-missing = 缺少 { $file }：{ $redo }
evidence-earlier-not-json = { $file } 不是有效的 JSON（{ $why }）：修好它，或{ $redo }
evidence-earlier-lacks = { $file } 中没有 { $field }：{ $redo }
evidence-no-layer = 没有任何一层设置了 { $key }
evidence-layer-disagrees = { $key }：{ $layer } 层给出的是 { $value }，但证据记录的是 { $recorded }；把那一课再做一次，让证据与集群一致
checklist-undone = { $was } 时已完成，之后被撤销：{ $why }
checklist-counting = 还要 { $seconds } 秒
verdict-checked-at = （检查于 { $clock }）
verdict-help = 怎么做：{ $help }
verdict-changed-since = 它在当时是通过的；此后集群已经变了，这在实验的预料之中：{ $what }

## Git（git.rs）。
git-failed = git 无法{ $what }：{ $why }
git-op-create-bare = 创建裸仓库 { $path }
git-op-clone = 把 { $url } 克隆到 { $dest }
git-op-set-head = 把 HEAD 指向 main
git-op-open = 打开 { $path }
git-op-fetch = 从 origin 抓取
git-op-status = 读取本地仓库的状态
git-op-compare = 与 origin 比较
git-op-index = 暂存文件
git-op-commit = 提交
git-op-find-remote = 找到远程 origin
git-op-push = 推送到 { $url }
git-op-configure = 设置分支的上游
git-rejected = 推送到 { $remote } 被拒绝：{ $why }。有人先推送了：先抓取并看看改了什么（git -C { $repo } fetch && git -C { $repo } log --oneline HEAD..origin/main），再重试

## “替我做”：每一步做了什么、在等什么、为什么停下（lab/engine/）。
did-skip = 已经完成（它的条件现在成立）：跳过
did-skip-resume = 上次执行已完成这一步并停在它之后；之后没有任何变化：跳过
did-skip-passes = 已经完成：第 { $lesson } 课的自检现在通过：跳过
did-create-bare = 已创建 { $path }
did-bare-there = { $path } 已经存在
did-hard-refresh = 已让 Argo CD 从 Git 重新读取 { $app }
did-write-evidence = 已写出 { $path }：{ $value }
did-write-evidence-kept = 已写出 { $path }（你之前的文件保存为 { $backup }）
did-clone-there = { $dest } 已经是一个克隆
did-clone = 已把 { $bare } 克隆到 { $dest }
did-write-kept = { $path }（你的文件保存为 { $backup }）
did-files-there = 文件都已就位
did-write-files = 已写出 { $files }
did-commit-push = 已提交 { $commit } 并推送
did-nothing-to-commit = 没有新的内容要提交；{ $commit } 已推送
did-apply = 已从 { $path } 应用 Application { $app }
did-wait = { $app }：{ $sync } · { $health } · 修订 { $revision }
did-nothing-blocks = 没有正在进行的操作；新提交不会被阻挡
did-already-targets = 正在进行的操作已经指向 { $commit }
did-end-blocking = 已结束重试 { $retrying } 的操作；自动同步现在可以处理 { $git }
did-no-operation = { $app } 没有正在进行的操作（phase { $phase }）
did-end-operation = 已结束：phase { $phase } · { $message }
did-end-and-record = 已结束操作；写出了 { $path }：{ $value }
did-hold = 扩缩之后已经过了 { $seconds } 秒
plan-pushing = 推送中：{ $current }/{ $total } 个对象，{ $bytes } 字节
plan-waiting-cluster = 等待：集群没有回应（{ $why }）；集群恢复后这一步会继续
plan-waiting-deployment = 等待：wave { $wave } · Deployment/{ $name } 可用 { $have }/{ $want }
plan-waiting-healthy = 等待：wave { $wave } · { $kind }/{ $name } 变为健康
plan-waiting-argo = 等待：{ $message }
plan-waiting-status = 等待：同步 { $sync } · 健康 { $health }
plan-waiting-watch-stopped = 等待：对 Application 的监视停止了（{ $why }）；正在重新读取
plan-waiting-no-app = 等待：Application { $app } 还不存在
plan-waiting-see-commit = 等待：Argo CD 发现提交 { $commit }
plan-waiting-refresh = 等待：Argo CD 重新读取 { $app }
plan-ending-blocking = 一个操作仍在重试 { $retrying }，而 Git 已在 { $git }：结束它（{ $command }）
plan-waiting-end = 等待：操作结束（phase { $phase }）
plan-waiting-hold = 等待：还剩 { $seconds } 秒（如果 ignoreDifferences 不起作用，selfHeal 会在这段时间内改回副本数）
run-cancelled = 在第 { $step } 步取消了；再执行一次本课即可完成
run-step-failed = 第 { $step } 步（{ $title }）失败：{ $why }
run-no-actions = 课程 { $folder } 的 lesson.yaml 中没有动作
run-needs-lesson = 第 { $lesson } 课需要先完成第 { $needs } 课：{ $why }。请先做第 { $needs } 课（用 n/p 切换过去，或 capa-tui do { $needs }）；什么都没有改动
run-unknowable = 无法判断本课的前置条件是否具备：{ $why }
step-error-git = git：{ $why }
step-error-bare-dir = { $why }。裸仓库目录（--bare-dir）对吗？可写吗？
step-error-clone-of-other = { $dest } 是 { $url } 的克隆，不是 { $wanted } 的：把它移开，或换一个 --src-dir
step-error-no-bare-repo = 裸仓库 { $bare } 不存在：先创建它（git init --bare -b main { $bare }）
step-error-cannot-write-in = 无法在 { $path } 中写入：{ $why }。源目录（--src-dir）可写吗？
step-error-cannot-move-clone = 无法把克隆移到 { $dest }：{ $why }
step-error-no-template = capa-tui 没有模板 { $template }
step-error-cannot-write = 无法写入 { $path }：{ $why }
step-error-cannot-read = 无法读取 { $path }：{ $why }
step-error-not-yaml = { $path } 不是有效的 YAML：{ $why }
step-error-no-name = { $path } 没有 metadata.name
step-error-sync-failed = 同步失败：{ $message }
step-error-nothing-to-sync = { $app } 在 { $commit } 上已是 Synced，且没有同步在它上面运行过：这个提交没有改动 Argo CD 比较的任何内容（只改钩子不会让应用变为 OutOfSync），所以钩子不会运行。这个实验环境已经越过了本课的起点：请在新的实验环境中重来（内置集群：capa-tui --sim --fresh）
step-error-cannot-render = Argo CD 无法渲染这个应用：{ $message }
step-error-gave-up = 等了 { $seconds } 秒后放弃；最后看到的是：{ $last }
step-error-watch-ended = 对 Application 的监视结束了
step-error-no-commit = 本地仓库中还没有提交
step-error-never-saw = Argo CD 一直没有在 { $app } 上看到提交 { $commit }：硬刷新它
step-error-did-not-end = { $app } 的操作没有结束；phase 为 { $phase }
step-error-no-lesson-writes = 没有课程会写出 { $file }
step-error-no-kubectl = PATH 中没有 kubectl。这一步必须运行 `kubectl scale`（实验要求这样做，实验报告还会问是哪个管理者拥有 spec.replicas）：安装 kubectl 或把它放进 PATH（scripts/install-tools 会把它装到 .tools/bin：export PATH="$PWD/.tools/bin:$PATH"），然后再执行这一步
step-error-cannot-run-kubectl = 无法运行 kubectl：{ $why }
step-error-kubectl-failed = kubectl scale 失败：{ $said }
step-error-no-working-copy-lesson = { $dir } 没有本地仓库：先做第 { $lesson } 课（它会创建并克隆仓库）
step-error-no-working-copy = { $dir } 没有本地仓库：先把裸仓库克隆到那里
step-error-uncommitted = 本地仓库 { $dir } 中有你尚未提交的改动（{ $files }）。capa-tui 从不覆盖你的工作：提交它们（git -C { $dir } commit -am ...）或先放到一边（git -C { $dir } stash），然后再执行本课
step-error-behind = 远程有 { $count } 个提交是你的本地仓库 { $dir } 还没有的：先把它们拉下来（git -C { $dir } pull --rebase），然后再执行本课
step-error-unpushed = 本地仓库 { $dir } 中有 { $count } 个你尚未推送的提交：推送它们（git -C { $dir } push）或撤销，然后再执行本课
step-error-cluster-away = 集群 { $seconds } 秒没有回应（{ $why }）。重新启动集群（或修好 kubeconfig），然后再执行本课：它会从这一步继续
step-error-evidence-fails = 已写出 { $file }，但它没有通过自己的检查：{ $what }{ $more ->
    [0] {""}
   *[other] （另有 { $more } 项）
 }。文件已保留：看看它和集群（`capa-tui check { $lesson }` 会列出每一项），然后再执行本课，或手动修正
step-error-lesson-fails = 每一步都执行了，但第 { $lesson } 课的检查没有通过：{ $what }{ $more ->
    [0] {""}
   *[other] （另有 { $more } 项）
 }。`capa-tui check { $lesson }` 会列出每一项；修好它指出的问题，然后再执行本课

## 会话：用哪个集群，以及每个实验只有一个内置集群（session.rs）。
target-embedded = 内置实验集群 { $url }（状态保存在 { $state }）
target-embedded-attached = 内置实验集群 { $url }（状态保存在 { $state }，由进程 { $pid } 提供）
target-context = { $kubeconfig } 中上下文 { $context } 的集群
# Shorter forms, for a header with no room for the whole: the first that fits is shown.
target-embedded-short = 内置实验集群 { $url }
target-embedded-shortest = 内置实验集群
target-context-short = 上下文 { $context }
target-current = （当前）
session-kept-aside = 新的实验：之前的实验保存在 { $path }。
session-took-over = 之前提供这个实验的进程（{ $pid }）已经不在了；现在由本进程提供，它保存的内容都还在。
session-attached = 正在使用进程 { $pid } 为这个实验提供的内置集群。
session-move-aside = 无法把旧实验 { $from } 移到 { $to }：{ $why }。请自己移开，或换一个 --state-dir
session-state-dir = 无法使用状态目录 { $path }：{ $why }。请换一个可写的 --state-dir
session-served = 进程 { $pid } 正在 { $url } 提供这个实验的内置集群：capa-tui --sim 和其他 --sim 命令都会使用它；要移开这个实验或在这里提供它，请先停止那个进程
session-not-saying = 另一个 capa-tui 占用着 { $state } 中的实验，但没有说明它在哪里提供；如果没有 capa-tui 在运行，删除 { $state }/serve.lock 后重试
sim-not-loopback = 内置实验集群只监听回环地址；{ $addr } 不是回环地址（用 127.0.0.1:PORT）
sim-cannot-listen = 无法监听 { $addr }：{ $why }（那里是不是已经有一个 capa-tui sim 在运行？换一个 --listen 端口，或用 0 让系统挑一个空闲端口）
sim-bad-speed = --speed 必须是正数（1 为实时，10 为快十倍）；收到的是 { $speed }
repair-served = 另一个进程正在为这个实验（{ $state }）提供服务：先停止它，再修复
repair-nothing = 日志完整可读：无需修复
repair-done = 日志在第 { $line } 行损坏：保留了它之前的 { $kept } 条变更，略去了 { $aside } 行；原来的整份日志在 { $copy }
sim-bare-dir = 无法把 { $path } 用作裸仓库目录：{ $why }
sim-kubeconfig = 无法把 kubeconfig 写到 { $path }：{ $why }

## 设置（config.rs）。
config-malformed = { $path }，第 { $line } 行：{ $message }。修改或删掉这一行（`capa-tui config` 会显示当前生效的设置）。
config-bad-value = { $path }，第 { $line } 行：{ $key } = "{ $value }"：{ $expected }。修改或删掉这一行（`capa-tui config` 会显示当前生效的设置）。
config-unreadable = 无法读取 { $path }：{ $why }
config-bad-env = ${ $var } 为 "{ $value }"：{ $expected }
config-bad-flag = { $flag } "{ $value }"：{ $expected }
config-use-languages = 请用 { $codes } 之一
config-use-themes = 请用 default、projector 或 monochrome
config-use-yes-no = 请用 1 或 0
origin-flag = { $flag } 参数
origin-not-presenting = 除非指定，否则不进入演示模式
origin-locale = 来自系统语言环境
origin-presenting = 正在演示
origin-default = 默认值

## 命令行（cli/）。
cli-needs-terminal = 交互界面需要一个终端；在脚本里请用 `capa-tui do|check|status`（见 --help）
cli-no-lesson = 没有课程 "{ $key }"；课程有：{ $lessons }，或 all
config-file = 配置文件：{ $path }
config-file-absent = 配置文件：{ $path }（不存在；见 capa-tui config --help）
config-file-none = 配置文件：无（没有主目录）
app-refresh = 已请求刷新 Application '{ $name }'
app-refresh-hard = 已请求硬刷新 Application '{ $name }'
app-terminating = 正在终止 Application '{ $name }' 的操作
serve-serving = 内置实验集群正在 { $url } 提供服务
serve-kubeconfig = kubeconfig：{ $path }
serve-bare = 裸 git 仓库：{ $bare }（创建一个：git init --bare -b main { $bare }/src.git）
serve-git = git 地址：{ $url }（Application 使用 git://{ $host }/src.git）
serve-try = 试试：KUBECONFIG={ $kubeconfig } kubectl get namespaces
serve-state = 状态目录：{ $state }（这里的 capa-tui --sim 和其他 --sim 命令都使用这个集群）
serve-stopping = 正在停止内置实验集群……
do-about-to-change = capa-tui 即将改动 { $target }。
do-folders = 源目录：{ $src }   裸仓库：{ $bare }
do-lesson = 第 { $lesson } 课 · { $title }
do-not-asking = 输入不是交互式终端，无法询问；加上 --yes 即可继续
do-go-ahead = 继续吗？[y/N]{" "}
do-answer-yes = y
do-nothing-changed = 什么都没有改动。
do-cannot-create-src = 无法创建源目录 { $path }：{ $why }。请传入一个可写的 --src-dir。
do-lesson-failed = 第 { $lesson } 课：{ $why }
do-lesson-done = == 第 { $lesson } 课完成，用时 { $seconds } 秒
check-pass = ✓ 通过
check-fail = ✗ 未通过
check-steps = 步骤
check-line = { $verdict } { $what }（第 { $lesson } 课 · { $title }）
check-hint = 提示 { $n }：{ $hint }
status-not-created = （尚未创建）
status-on-lesson = 进度：第 { $lesson } 课，{ $part }
status-not-opened = 进度：还没有在这个实验中打开过 capa-tui 的交互界面
status-checklist = 第 { $lesson } 课：已完成 { $done }/{ $of } 步
status-undone = {"    "}✗ { $step } —— { $why }
status-prediction = 第 { $lesson } 课第 { $action } 步：预测 { $answer }
doctor-no-cluster = 没有集群：传入 --kubeconfig/--context、设置 KUBECONFIG，或使用 --sim（{ $why }）
doctor-target = 目标：{ $target }
doctor-api = API 可以访问：Kubernetes { $version }
doctor-no-api = API 无法访问：{ $why }
doctor-crd = Application CRD 已安装
doctor-no-crd = 缺少 Application CRD：Argo CD 装好了吗？
doctor-argocd = Argo CD 在 argocd 命名空间中；application.resourceTrackingMethod：{ $method }
doctor-tracking-unset = （未设置：annotation，即 3.x 的默认值）
doctor-no-argocd = 无法读取 argocd 命名空间中的 argocd-cm（{ $why }）：Argo CD 装在那里吗？
doctor-bare = 裸仓库目录 { $path } 可写
doctor-no-bare = 裸仓库目录 { $path } 不可写：请传入 --bare-dir
doctor-jq = PATH 中有 jq（课程的手动命令用它写证据文件）
doctor-no-jq = PATH 中没有 jq：课程的手动命令用它写证据文件（apt-get install jq）
doctor-kubectl = PATH 中有 kubectl
doctor-no-kubectl = PATH 中没有 kubectl：第 { $lesson } 课会停在 kubectl scale 这一步（运行 scripts/install-tools，并把 .tools/bin 加到 PATH）
env-eval = # eval "$({ $command })" 会把这些设置到你的 shell 中
env-nothing-serves = capa-tui：还没有内置集群为 { $state } 提供服务：先用 capa-tui --sim 或 capa-tui sim serve 启动一个（用同一个 --state-dir），之后 kubectl 就能用这些设置。
shell-opening = 打开实验用的 shell：集群 { $label }，目录 { $cwd }（退出 shell 即可返回）
header-clock = 时钟 ×{ $speed }{" "}
shell-clock-follows = 集群的时钟比你的快 { $speed } 倍，这个 shell 里的 date 按集群的时间走（sleep 仍按你的秒数等待：只会比需要的久，不会太短）。
shell-clock-wall = 集群的时钟比你的快 { $speed } 倍，但这个 shell 里的 date 和 sleep 仍按你的时间走，课程里的计时会和集群对不上：安装 Debian 的 faketime 软件包（apt-get install faketime），再重新打开 shell。
env-clock-fast = capa-tui：集群的时钟比你的快 { $speed } 倍；用这些设置的 shell 里，date 和 sleep 仍按你的时间走。capa-tui shell --sim 会打开一个按集群时钟走的 shell。
shell-cannot-start = 无法启动 { $program }：{ $why }
shell-error-no-shell = 没有可启动的 shell：没有设置 $SHELL，也没有安装 bash。设置 SHELL（export SHELL=/bin/sh）或安装 bash，然后再启动终端
shell-error-rc-file = 无法写入 shell 的启动文件 { $path }：{ $why }
shell-error-create-dir = 无法创建 shell 的文件夹 { $dir }：{ $why }
shell-error-terminal = 无法为它打开伪终端：{ $why }
# capa-tui lesson lint, new, test
lint-yaml = 不是有效的 YAML：“{ $why }”
lint-unknown-field = 未知字段 { $field }：删除它，或写成其中之一：{ $expected }
lint-shape = 无法读取 { $part }：{ $why }
lint-let = { $why }
lint-unknown-name = let: 中没有定义 ${"{"}{ $name }{"}"}（已定义的有：{ $known }）：把它加进 let:，或改正名字
lint-literal-value = 这段文字直接写出了 { $value }，而 let.{ $name } 从模板中读取该值：请改写为 ${"{"}{ $name }{"}"}，这样模板改了值时文字也会跟着变
lint-old-value = 这段文字仍写着 { $old }（内置模板中的值），但这些模板设置的是 { $new }：请改写为 ${"{"}{ $name }{"}"}
lint-no-template = 没有模板文件夹 { $template }：把它加进模板（repo-template/ 或 --templates），或改正名字
lint-template-not-listed = 计划写出模板 { $template }，但 templates: 中没有列出：把它加上
lint-no-app-file = 本课的模板顶层都没有 { $file }：把它放进去，或改正名字
lint-unknown-app = 没有模板定义名为 { $app } 的 Application（已定义：{ $known }）：改正名字，或添加它的文件
lint-unknown-namespace = 没有 Application 部署到命名空间 { $namespace }（实验的命名空间：{ $known }）：改正名字
lint-unknown-object = 模板中的 Application 都不会部署 { $object }（它们在那里部署的同类对象有：{ $known }）：改正名字，或把它加进某个模板
lint-no-evidence-field = { $file } 没有字段 { $field }：在 evidence.fields 下添加，或改正名字
lint-no-evidence-file = 没有课程写出证据文件 { $file }：改正名字
lint-not-own-evidence = 计划写出 { $file }，但本课的证据文件是 { $own }：两者必须相同
lint-no-lesson = 这里没有第 { $number } 课：改正编号
lint-needs-lesson = 本课用到 { $what }，它由第 { $lesson } 课产生：在 requires: 中加上 {"{"}lesson: { $lesson }, done_when: …{"}"}
lint-needs-some-lesson = 本课用到 { $what }，但本课和它依赖的课程都不会产生它：添加产生它的动作，或依赖产生它的课程
lint-unreachable = 计划中没有动作能让 { $condition } 成立：添加 { $needs }
lint-value-differs = 本课的模板把 { $file } 的 { $path } 设为 { $found }：请写这个值；更好的做法是用 let: 读出它，再写 ${"{"}name{"}"}
lint-app-spec-differs = 本课模板中的 Application { $app }（{ $at }）没有这个 has: 要求的 { $field }: { $wants }：用 let: 读取它的值，或修改模板
lint-hint = 提示 { $hint }：英文文本只有 { $count } 条提示（1 到 { $count }）
lint-narration-gives-away = 步进模式提出这个问题时，屏幕上的旁白说出了其中一个答案（{ $choice }，语言 { $code }）：这里请改成提问，把结果写进给出答案的那个动作的 `then:`
lint-no-language = 没有 { $code }.md：也用这种语言写出本课文本（与 en.md 相同的六个部分）
lint-sections = { $code }.md：应有 6 个部分（## Goal、Why、Steps、Mistakes、Hints、By hand），实际有 { $found } 个
lint-missing-text = 这里没有 { $code }: 文本：请补上
lint-same-number = 编号 { $number } 已被课程 { $other } 使用：每课的编号必须各不相同
lint-no-schema = 首行的 yaml-language-server 注释指向 schema { $schema }，但没有文件 { $path }：用 capa-tui lesson schema > { $path } 生成它，或改正路径
lint-translation = { $code }.md，{ $section }：{ $what }
lint-translation-hints = 有 { $found } 条提示，而 en.md 有 { $en } 条：按顺序翻译 en.md 的每条提示
lint-translation-steps = 有 { $found } 个编号步骤，而 en.md 有 { $en } 个：按顺序翻译 en.md 的每个步骤
lint-translation-code-blocks = 有 { $found } 个代码块，而 en.md 有 { $en } 个：照抄 en.md 的代码块，只翻译其中的 # 注释
lint-translation-code = 第 { $block } 个代码块与 en.md 的不同：en.md 是 { $en }，{ $code }.md 是 { $here }：照抄 en.md 的代码（只有 # 注释可以翻译）
lint-translation-block-end = 代码块结尾
lint-translation-inline-code = 行内代码与 en.md 的不同（{ $diff }）：写与 en.md 相同的 `代码`（只有 <占位符> 里的词可以翻译）
lint-translation-numbers = 代码以外的数字与 en.md 的不同（{ $diff }）：写出与 en.md 相同的数字
lint-translation-references = ${"{"}…{"}"} 值与 en.md 的不同（{ $diff }）：使用与 en.md 相同的 ${"{"}名字{"}"}
lint-translation-only-en = 仅 en.md 有 { $items }
lint-translation-only-here = 仅 { $code }.md 有 { $items }
lint-translation-more = 等另外 { $count } 项
lint-no-lessons = { $path }：这里及其子文件夹中都没有 lesson.yaml
lint-clean = 共 { $lessons } 课，没有问题
lint-problems = { $lessons } 课中有 { $problems } 个问题
lesson-new-made = 已创建 { $dir }，写入了这些文件：
lesson-new-schema-note = 每个 lesson.yaml 第一行指向的 JSON Schema，供编辑器使用
lesson-new-lint = 用 capa-tui lesson lint { $dir } 检查
lesson-new-bad-name = { $name }：课程文件夹名为 NN-slug（两位数字、短横线、用短横线连接的小写单词），例如 09-greeting
lesson-new-exists = { $dir } 已存在：换一个名字
lesson-new-cannot-write = 无法写入 { $path }：{ $why }
lesson-test-lint-first = 课程没有通过 lint：先修正上面的问题，再测试
lesson-test-no-state = 无法为测试实验建立文件夹：{ $why }。请用 --state-dir DIR 指定一个。
lesson-test-start = 在全新的内置集群上测试 { $dir } 中的 { $lessons } 节课（时钟 { $speed } 倍速；实验放在 { $state }）
lesson-test-step = { $step }. { $title } · { $seconds } 秒 · { $summary }
lesson-test-passes = 第 { $lesson } 课：自检通过（{ $what }）
lesson-test-fails = 第 { $lesson } 课：自检未通过（{ $what }）：
lesson-test-refuses = 拒绝了{ $what }
lesson-test-learner-reads = 学员会看到：{ $why }
lesson-test-accepts = 接受了{ $what }：第 { $lesson } 课的 lesson.yaml 里没有任何检查会拒绝它；把该字段标为 live: true，或加一条固定其值的规则
lesson-test-wrong-type = 类型错误的 { $field }（{ $value }）
lesson-test-one-off = 只差一点的 { $field }（{ $value }）
lesson-test-crosses = 越过 { $rule } 规则的 { $field }（{ $value }）
lesson-test-earlier = 前面课程的 { $file }，其中 { $field } 的类型错误
lesson-test-at-the-end = 再检查每一课，就像实验的评分程序检查做完的实验一样
lesson-test-summary = { $lessons } 节课 · { $steps } 个步骤，用时 { $seconds } 秒 · 自检通过 { $grades }/{ $graded } · 拒绝坏证据 { $refused }/{ $broken }
lesson-test-kept = 实验已保留，方便查看：capa-tui --sim --state-dir { $state }
trial-cannot-write = 无法写入证据文件 { $path }：{ $why }

## lesson lint: what a let: value, a reference or a plan lacks, in the author's language
lint-shape-parser = 无法读取 { $part }：“{ $why }”
lint-needs-write-push = do: write-templates（用含有该文件和值的模板）和 do: commit-push
lint-needs-apply-app = do: apply-app（用满足 has: 的 Application 文件）
lint-needs-hold = do: hold-after-scale（秒数不少于这里的要求）
let-no-source = let.{ $name }：请写 file:（从哪个模板文件读取）或 value: 之一
let-both-sources = let.{ $name }：file: 和 value: 只能写一个
let-which-template = let.{ $name }：本课写出 { $count } 个模板（templates:），请用 template: 指明从哪个读取
let-no-template = let.{ $name }：没有模板文件夹 { $template }（repo-template/ 或 --templates）
let-no-file = let.{ $name }：模板 { $template } 中没有文件 { $file }
let-not-yaml = let.{ $name }：{ $file } 无法按 YAML 读取（“{ $why }”）；要读取它的全文，请去掉 path:
let-no-path = let.{ $name }：{ $file } 中 { $path } 处没有值
let-not-text = let.{ $name }：after:/before: 只能截取文本，而 { $file } 在那里是 “{ $found }”
let-no-after = let.{ $name }：{ $found } 中没有 { $after }（after:）
let-unknown = ${"{"}{ $name }{"}"}：没有这个值；let: 中定义的有：{ $known }
let-unknown-none = ${"{"}{ $name }{"}"}：没有这个值；let: 中什么都没有定义
let-nested = let.{ $name }：let: 里不能写 ${"{"}{ $other }{"}"}；请改为从它的文件中读取
spec-not-evidence-ref = { $text } 不是 FILE#FIELD 的形式（例如 precedence.json#replicas）
spec-not-object-ref = { $text } 不是 namespace/Kind/name 的形式
spec-unknown-kind = { $reference }：未知的 kind { $kind }（可用的有 Application、ConfigMap、Deployment、Job、Pod、Secret、Service）
spec-bad-path = 路径 { $path }：{ $why }
spec-path-unclosed-quote = [" 没有闭合
spec-path-unclosed = [ 没有闭合
spec-path-filter = 列表筛选的写法是 [key=value,...]
spec-path-empty-key = 键为空
spec-path-empty = 路径为空
spec-no-english = 文本必须有英文（{ $code }:），缺少某种语言时由英文代替
lint-unknown-variant = 无法读取 { $part }：没有 { $variant } 这个取值，请写其中之一：{ $choices }
lint-missing-field = 无法读取 { $part }：缺少字段 { $field }

## issue 32: the learner's files and signals
check-not-regular = { $path } 不是普通文件（而是管道、设备或文件夹），因此不会读取它
check-not-regular-help = 删除它，再把证据写成一个普通文件
check-too-big = { $path } 有 { $size } 字节，超过了证据文件允许的上限 { $limit } 字节
progress-damaged = 无法读取 { $file }，因此你的进度从头开始；损坏的文件已保存为 { $kept }
progress-damaged-screen = 保存的进度无法读取，因此从这里重新开始。损坏的文件已保存为 { $kept }，其中的内容没有丢失。
spec-evidence-outside = { $text } 指向源目录之外：证据文件必须是源目录内的相对路径，不能含有 ..
evidence-outside = { $file } 指向源目录 { $dir } 之外（通过 ..、绝对路径或符号链接），因此 capa-tui 既不读取也不写入它
evidence-outside-help = 把该链接换成源目录内的普通文件，或请课程作者改用源目录内的路径
session-fresh-in-use = 还有导师界面、shell 或计划正打开着 { $state } 中的实验，因此 --fresh 不会把它从它们脚下移走：先关闭它们（在导师界面按 q，在 shell 中输入 exit），再重新运行 --fresh。
serve-log = 日志：{ $path }
setup-lessons-builtin = capa-tui 自带的课程
setup-lessons-in = { $dir } 中的课程
setup-templates-builtin = capa-tui 自带的模板
setup-templates-in = { $dir } 中的模板
setup-of-the-lab = 本实验使用{ $lessons }和{ $templates }，已随实验保存在 { $file }：之后在本实验上的每条命令都会使用它们，无需再写 --lessons 或 --templates。要回到 capa-tui 自带的，请加上 --lessons builtin --templates builtin。
setup-gone = 本实验是用 { $dir } 建立的（保存在 { $file }），但它已不在：请把它放回原处，或用 --lessons 或 --templates 重新指定要用的文件夹（builtin 表示 capa-tui 自带的）。
setup-damaged = { $file }（本实验的建立方式）无法读取：{ $why }。请删除它，并重新给出 --lessons 和 --templates。
setup-cannot-keep = 无法把本实验的课程和模板保存到 { $file }（{ $why }）：请在本实验的每条命令上都给出 --lessons 和 --templates。
sim-folder-not-yours = { $path } 属于另一个用户（uid { $owner }），他可以替换集群的文件；请使用你自己的文件夹（例如默认的状态目录）
sim-folder-others-write = 其他用户可以写入 { $path }（权限 { $mode }），他们可以替换集群的文件；请运行 `chmod go-w { $path }`，或使用你自己的文件夹
sim-folder-unreadable = 无法查看 { $path }：{ $why }
