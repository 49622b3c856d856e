## capa-tui 界面上的文字（中文）。每个消息 id 都必须与英文文件一一对应。
## Argo CD 和 Kubernetes 自己的词（Synced、OutOfSync、PreSync、字段路径、命令）保持原样。

## 按键：帮助里列出的每个键的作用（tui/keymap.rs）。
key-shell = 终端：在这里输入实验命令（以实验环境启动）
key-next-command = 选择课程中的下一条命令
key-prev-command = 选择上一条命令
key-type-command = 把选中的命令输入终端（由你按回车）
key-copy-command = 把选中的命令复制到剪贴板（OSC 52）
key-leave-shell = 离开终端：按键交回 capa-tui
key-scroll-up = 向上滚动当前窗格（终端：回看输出）
key-scroll-down = 向下滚动当前窗格
key-scroll-top = 到当前窗格顶部
key-scroll-bottom = 到当前窗格底部
key-quit = 退出
key-help = 帮助
key-close = 关闭帮助 / 原始视图
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
key-raw = 原始 managedFields
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
pane-apps = Applications
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
apps-none-yet = argocd 中还没有 Application。按 r 执行本课计划，它会创建所需的一切。
apps-revisions = {"  "}Git { $git }{ $git_subject } · 已同步 { $synced }{ $synced_subject }
apps-operation = {"  "}操作{" "}
retry-count = {" "}· 第 { $count } 次重试
apps-retry-trap = {"  "}⚠ 一个操作仍在重试 { $retrying }，而 Git 已在 { $git }：新提交要等它结束才会同步。结束它：{ $command }

## managedFields 窗格。
fields-not-there = { $object } 还不存在。o：下一个对象
fields-heading = { $object }   （o：下一个对象 · v：原始）
fields-replicas-owner = spec.replicas 归 { $manager } 所有（{ $operation }）
fields-replicas-owner-subresource = spec.replicas 归 { $manager } 所有（{ $operation }，子资源 { $subresource }）

## 取值来源窗格。
values-none = 没有课程追踪 Helm 取值。
values-app-missing = { $app } 还不存在。
values-live-matches = 实际：{ $value } ✓
values-live-differs = 实际：{ $value } ✗ 与胜出的层不同

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
predict-title = {" "}先预测，再观察{" "}
confirm-title = {" "}改动之前先看清{" "}
confirm-about-to-change = 第 { $lesson } 课即将改动 { $target }
confirm-folders = 源目录 { $src } · 裸仓库 { $bare }
confirm-go-ahead = 继续{"   "}
confirm-change-nothing = 什么都不改

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
notice-what-run = “替我做”
notice-what-check = 自检
notice-what-step = 分步模式
notice-what-other = 此操作
notice-needs-cluster = { $what }（{ $key }）需要集群，但集群没有回应：
notice-as-of = {"  "}窗格显示的是 { $clock } 时的状态。
notice-what-to-do = 请重新启动集群或检查 kubeconfig；capa-tui 会自动重连。顶部显示 ✓ 实时 后再按 { $key }。
notice-any-key = 按任意键关闭。

## 没有空间的窗格的一行摘要（tui/view/summary.rs）。
summary-shell-running = 运行中 · 按 s 输入
summary-shell-not-started = 按 s 打开一个带实验环境的终端
summary-shell-exited = 已退出 · 按 s 再开一个
summary-shell-failed = 无法启动：{ $why }
summary-apps-none = 还没有
summary-apps-retrying = {" "}⚠ 在重试一个旧提交
summary-evidence-pass = { $passing }/{ $total } 通过
summary-evidence-fail = {" "}· { $count } 个未通过
summary-evidence-missing = {" "}· { $count } 个缺失
timeline-no-operation = { $app }：还没有操作

## 同步时间线（tui/view/timeline.rs）。
timeline-last-operation = { $app } · 上一次操作{" "}
timeline-started = { $retry } · 开始于 { $started }
timeline-now = 当前：{ $message }
timeline-head-lane = 阶段 wave
timeline-head-resource = 资源 · 结果（距开始的秒数）
timeline-failed-gone = {" "}失败（已不存在）
timeline-gone-or-unseen = {" "}（已不存在或尚未看到）
timeline-existed-before = {" "}（之前就已存在）
timeline-failed-at = {" "}失败 +{ $at }s
timeline-created-ready = {" "}+{ $created }s → 就绪 +{ $ready }s
timeline-created-failed = {" "}+{ $created }s → 失败 +{ $failed }s
timeline-created = {" "}+{ $created }s
timeline-wave-done-pause = 该 wave 完成 +{ $at }s · 随后暂停 2 秒
timeline-wave-done-at = 该 wave 完成 +{ $at }s
timeline-wave-done-then-pause = 该 wave 完成 · 随后暂停 2 秒
timeline-wave-done = 该 wave 完成

## 终端窗格（tui/view/shell.rs）。
shell-press-s = 按 s（或在此按回车）打开实验用的终端。
shell-about = { $marker }· 位于 { $cwd } · KUBECONFIG { $kubeconfig }，PATH 中有 kubectl 和 helm
shell-kubeconfig-inherited = 沿用当前的
shell-keys = 之后每个按键都交给终端；按 Ctrl-] 把按键交回 capa-tui。
shell-failed = ✗ 终端无法启动：{ $why }。capa-tui 仍可使用；按 s 重试。
shell-exited = {" "}终端已退出 · 按回车再开一个{" "}
shell-exited-code = {" "}终端已退出（退出码 { $code }）· 按回车再开一个{" "}
shell-scrolled-back = {" "}↑ 回看 { $lines } 行 · ↓/j 向前，输入即回到底部{" "}

## 课程窗格（tui/view/lesson.rs）。
lesson-none = 没有找到课程。
lesson-no-evidence = 无
lesson-part = { $part }（{ $at }/{ $of }）  ·  证据文件：{ $evidence }
lesson-lines-above = ↑ 上方还有 { $lines } 行 · ] [ 选择 · y 输入 · Y 复制
lesson-press-h = 按 h 查看第一个提示。
checklist-count = 检查清单 { $done }/{ $of }
checklist-all-done = {" "}· 全部完成
checklist-next = {" "}· 下一步：{ $step }
step-mode-heading = 分步模式 · { $at }/{ $of } · { $now }
step-mode-all-done = 全部完成 · 按 g 退出分步模式
step-mode-running = 执行中…
step-mode-g-runs-it = 按 g 执行
predict-question = ? 先猜：{ $question }
predict-reveal = 你猜：{ $said } · 实际：{ $live }
verdict-file-passes = { $file } 通过自检
verdict-file-fails = { $file } 未通过自检：
verdict-steps-pass = 第 { $lesson } 课的步骤通过自检
verdict-steps-fail = 第 { $lesson } 课的步骤未通过自检：
verdict-hint = 提示 { $n }：{ $hint }
plan-heading = 替我做 · 第 { $lesson } 课{" "}
plan-waiting-for-g = · 等待按 g
plan-running = … 执行中 · { $seconds } 秒
plan-done = ✓ 完成，用时 { $seconds } 秒

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
