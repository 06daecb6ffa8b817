# 判定：对局为什么结束，回放 `result.reason` 的每种 kind 对应一条消息。

verdict-normal = 正常结束
verdict-illegal-move = 非法落子 { $move }（{ $why }）
verdict-illegal-move-sent = 非法落子：你的程序输出了 { $sent }，{ $why }
verdict-illegal-move-sent-which = 非法落子：你的程序输出了 { $sent }，{ $which }
verdict-malformed-output = 输出格式错误 { $line }
verdict-out-of-turn = 不该输出时输出了 { $line }
verdict-move-time = 单步超时（限时 { $limit_ms } 毫秒）
verdict-game-time = 总时间超时（限时 { $limit_ms } 毫秒）
verdict-crash = 程序崩溃
verdict-crash-code = 程序崩溃（退出码 { $code }）
verdict-crash-signal = 程序崩溃（信号 { $signal }）
verdict-crash-signal-name = 程序崩溃（信号 { $signal }，{ $name }）
verdict-memory = 超出内存限制（{ $limit_mb } MB）
verdict-exited-early = 对局结束前程序就退出了
verdict-exited-early-code = 对局结束前程序就退出了（退出码 { $code }）
verdict-failed-to-start = 程序无法启动：{ $error }
verdict-no-handshake = 没有回应握手消息
verdict-protocol-error = 协议错误：{ $message }
verdict-aborted = 对局中止：{ $message }

# 规则拒绝一步棋的原因（引擎给出的原因）。
why-game-over = 对局已经结束
why-off-board = 该点不在棋盘上
why-occupied = 该点已有棋子
why-no-flips = 这步棋没有翻转任何对方棋子
why-cannot-pass = 还有合法落子，不能弃权（pass）
why-must-pass = 没有合法落子，必须弃权（pass）
why-forbidden = 黑方禁手点（{ $kind ->
    [three] 三三禁手
    [four] 四四禁手
   *[overline] 长连禁手
}）
why-step-place = 这一步应当放置，而不是选择方向
why-step-slide = 这一步应当选择方向，而不是放置
why-random-cell = 位置不可达：本回合己方半区只能下在 ({ $row }, { $col })
why-half-full = 位置不可达：己方半区已满
why-no-change = 方向不可达：该方向不会改变棋盘

which-off-board = 该点不在棋盘上
which-occupied = 该点已有棋子
which-no-flips = 没有翻转任何对方棋子
which-forbidden = 该点是黑方禁手点（{ $kind ->
    [three] 三三禁手
    [four] 四四禁手
   *[overline] 长连禁手
}）

seat-first = 先手
seat-second = 后手
seat-third = 第三家
seat-fourth = 第四家
seat-fifth = 第五家
seat-sixth = 第六家
seat-seventh = 第七家
seat-eighth = 第八家

exit-code = 退出码 { $code }
exit-unknown = 退出方式未知
exit-signal = 信号 { $signal }
exit-signal-arbiter = 信号 { $signal }，被评测机终止
exit-signal-arbiter-why = 信号 { $signal }，被评测机终止：{ $why }
exit-signal-outside = 信号 { $signal }，来自外部
exit-signal-itself = 信号 { $signal }，由程序自身触发
kill-memory = 内存限制
kill-cpu = CPU 时间限制
kill-move-time = 单步时限

kind-normal = 正常结束
kind-illegal_move = 非法落子
kind-malformed_output = 输出格式错误
kind-out_of_turn = 不该输出时输出
kind-move_time = 单步超时
kind-game_time = 总时间超时
kind-crash = 程序崩溃
kind-memory = 超出内存限制
kind-exited_early = 提前退出
kind-failed_to_start = 无法启动
kind-no_handshake = 未回应握手
kind-protocol_error = 协议错误
kind-aborted = 对局中止
