# Verdicts: why a game ended, one message for each reason kind of a replay's `result.reason`.
# The English texts are those of the CLI (`Reason`'s Display in arbiter-engine).

verdict-normal = normal end
verdict-illegal-move = illegal move { $move } ({ $why })
verdict-illegal-move-sent = illegal move: you sent { $sent }: { $why }
verdict-illegal-move-sent-which = illegal move: you sent { $sent }, which { $which }
verdict-malformed-output = malformed output { $line }
verdict-out-of-turn = output out of turn { $line }
verdict-move-time = move time exceeded ({ $limit_ms } ms)
verdict-game-time = game time exceeded ({ $limit_ms } ms)
verdict-crash = crashed
verdict-crash-code = crashed (exit code { $code })
verdict-crash-signal = crashed (signal { $signal })
verdict-crash-signal-name = crashed (signal { $signal }, { $name })
verdict-memory = memory limit exceeded ({ $limit_mb } MB)
verdict-exited-early = exited before the end
verdict-exited-early-code = exited before the end (exit code { $code })
verdict-failed-to-start = failed to start: { $error }
verdict-no-handshake = no answer to the handshake
verdict-protocol-error = protocol error: { $message }
verdict-aborted = aborted: { $message }

# Why the rules refused a move (the engine's reasons).
why-game-over = the game is already over
why-off-board = the point is off the board
why-occupied = the point is already occupied
why-no-flips = the move flips no disc
why-cannot-pass = passing is not allowed while a move exists
why-must-pass = there is no legal move: the side must pass
why-forbidden = forbidden point for black ({ $kind ->
    [three] double-three
    [four] double-four
   *[overline] overline
})
why-step-place = this step is a placement, not a direction
why-step-slide = this step is a direction, not a placement
why-random-cell = not achievable position: in your own half only ({ $row }, { $col }) is allowed this round
why-half-full = not achievable position: your own half is full
why-no-change = not achievable direction: it leaves the board unchanged

# The same reasons as a clause after "which" (only those that read well that way).
which-off-board = is off the board
which-occupied = is already occupied
which-no-flips = flips no disc
which-forbidden = is a forbidden point for black ({ $kind ->
    [three] double-three
    [four] double-four
   *[overline] overline
})

seat-first = first
seat-second = second
seat-third = third
seat-fourth = fourth
seat-fifth = fifth
seat-sixth = sixth
seat-seventh = seventh
seat-eighth = eighth

# How a process ended.
exit-code = exit code { $code }
exit-unknown = unknown exit
exit-signal = signal { $signal }
exit-signal-arbiter = signal { $signal }, killed by arbiter
exit-signal-arbiter-why = signal { $signal }, killed by arbiter: { $why }
exit-signal-outside = signal { $signal }, sent from outside
exit-signal-itself = signal { $signal }, from the program itself
kill-memory = memory limit
kill-cpu = CPU time limit
kill-move-time = move time

# Each reason kind's short name (tables, tooltips, statistics).
kind-normal = normal end
kind-illegal_move = illegal move
kind-malformed_output = malformed output
kind-out_of_turn = output out of turn
kind-move_time = move time exceeded
kind-game_time = game time exceeded
kind-crash = crashed
kind-memory = memory limit exceeded
kind-exited_early = exited before the end
kind-failed_to_start = failed to start
kind-no_handshake = no answer to the handshake
kind-protocol_error = protocol error
kind-aborted = aborted
