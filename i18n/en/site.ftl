# The contest website: every page, form, flash message and error, and the admin pages.

## The frame of every page
nav-label = site
nav-scoreboard = Scoreboard
nav-submit = Submit
nav-mine = My submissions
nav-all = All submissions
nav-live = Live
nav-admin = Admin
nav-similarity = Similarity
nav-account = account
nav-sign-out = Sign out
nav-sign-in = Sign in
nav-language = language

## Error pages: the heading of each status
status-400 = Bad Request
status-403 = Forbidden
status-404 = Not Found
status-413 = Payload Too Large
status-429 = Too Many Requests
status-500 = Internal Server Error
error-back = Back to the scoreboard

## The scoreboard
board-title = Scoreboard
board-frozen = The scoreboard is frozen by the course staff: games still play, results appear when it is unfrozen.
board-welcome = Your new password is set. Next: upload your bot on
board-welcome-named = Your new password is set, { $name }. Next: upload your bot on
board-welcome-link = the upload page
board-welcome-after = .
board-rules = Each student's latest ready submission plays every other one: { $games } games a pairing, colours swapped. A pairing counts once all its games are done: won gives 3 points, drawn 1, lost 0; game points break ties. Elo ± its 95 % interval.
board-progress = { $done } of { $total } games played.
board-progress-updated = { $done } of { $total } games played, updated { $when }.
board-empty = No ready submissions yet.
board-rank = #
board-student = Student
board-points = Points
board-pairings = Pairings
board-pairings-title = pairings won-drawn-lost
board-games = Games
board-games-title = games won-drawn-lost
board-uncounted = (+{ $n } not yet counted)
board-uncounted-title = { $n } more games played in pairings not finished yet: they count once every game of their pairing is played
board-game-points = Game pts
board-elo = Elo
board-bot = Bot

## Submitting
submit-title = Submit a bot
submit-size = Size limit
submit-size-value = { $kb } KB, one file
submit-interval = Interval
submit-interval-value = one submission every { $s } s
submit-interval-none = none: submit whenever you like
submit-next = next allowed { $when }
submit-budget = Daily budget
submit-budget-unlimited = unlimited
submit-budget-value = { $used } s of { $budget } s of thinking time used today (UTC)
submit-game = Game
submit-limits = Limits
submit-speaks = What your bot speaks
submit-speaks-text = Your bot reads the referee's lines on its standard input and answers on its standard output, one line at a time, in the protocol of its language. It also finds the game in its environment:
submit-protocol = the { $name } protocol
starter-protocol-note = The lines this bot reads and writes: { $path } on the contest site.
submit-starter = download a starter bot
submit-starter-after = {" "}that plays legal moves; improve it
submit-module = The game's rules, as a module:
submit-module-try = to try your bot on it:
limits-per-move = { $time } a move
limits-no-per-move = no limit per move
limits-per-game = { $time } of thinking a game in all
limits-no-per-game = no limit per game
limits-memory = { $mb } MB of memory
limits-no-memory = no memory limit
limits-ponder = ; a bot may think while the opponent plays
limits-no-ponder = ; a bot is paused while the opponent plays
limits-separator = {", "}
submit-language = Language
submit-file = Source file
submit-paste = … or paste the code
submit-button = Submit
submit-note = Your latest submission that compiles is the one that counts: it plays every other student's latest one.

## Signing in and the account
login-title = Sign in
login-login = Student number or login
login-password = Password
login-button = Sign in
login-note = The first time, your password is your student number (unless the course staff gave you another); you will choose a new one.
login-demo = This is the demo: students 2301 to 2305 and the course staff (login admin) all sign in with this password:
account-title = Your account
account-welcome = Welcome, { $name }. Choose a new password and the nickname the scoreboard shows before you go on.
account-login = Login
account-name = Name
account-nickname = Nickname (shown on the scoreboard)
account-current = Current password
account-new = New password (at least 8 characters)
account-again = New password again
account-save = Save
account-saved = Saved.
account-saved-password = Saved: your password is changed. Use the new one from now on.

## Lists of submissions
subs-mine = My submissions
subs-all = All submissions
subs-empty = No submissions yet.
subs-submit-link = Submit a bot
subs-student = Student
subs-language = Language
subs-file = File
subs-size = Size
subs-status = Status
subs-submitted = Submitted
subs-counts = counts

# A submission's status, as its badge shows it.
status-pending = pending
status-queued = queued
status-compiling = compiling
status-ready = ready
status-failed = failed
status-frozen = frozen
status-running = running
status-done = done
status-cancelled = cancelled
# A pairing's result, as its badge shows it.
pairing-won = won
pairing-drawn = drawn
pairing-lost = lost

## One submission
sub-title = Submission #{ $id }
sub-title-short = Submission { $id }
sub-student = Student
sub-language = Language
sub-file = File
sub-file-value = { $name } ({ $size } bytes)
sub-submitted = Submitted
sub-build = Build
sub-build-value = { $ms } ms
sub-downloads = Downloads
sub-source = source
sub-logs = your bot's DEBUG and stderr logs
sub-rejudge = Re-judge
sub-rejudge-ready = plays all its games again
sub-rejudge-build = compiles it again
sub-why-failed = Why it did not compile
sub-compiler-output = Compiler output
sub-results = Results against the other students
sub-progress = { $done } of { $total } games played
sub-following = {" "}(this page follows them by itself)
sub-replaced = ; this submission no longer counts: a newer one replaced it
sub-no-games = No games yet.
sub-opponent = Opponent
sub-won = Won
sub-drawn = Drawn
sub-lost = Lost
sub-pairing = Pairing
sub-games = Games
sub-each-game = Each game
sub-against = against { $name }:{" "}
sub-to-play = { $n } to play
sub-mark-won = W
sub-mark-lost = L
sub-game-title = game { $id }: { $result }
sub-game-frozen = played after the freeze: its result shows when the scoreboard is unfrozen
words-won = won
words-lost = lost
words-drawn = drawn
words-queued = to be played
words-running = being played now
words-frozen = played after the freeze: shown when the scoreboard is unfrozen
words-no-verdict = no verdict
words-after = { $verdict } after { $moves } moves
words-at = { $verdict } at move { $move }
words-line = { $outcome }: { $how }
words-line-mine = { $outcome }: { $how } (your bot)
words-line-theirs = { $outcome }: { $how } (the opponent)
logs-not-compiled = Submission { $id } did not compile, so it played no games and has no game logs. Its compiler output is on its page: /submissions/{ $id }

## One game
game-title = Game { $id }
game-first = Black / first
game-second = White / second
game-first-seat = First
game-second-seat = Second
game-result = Result
game-show = show
game-controls = replay controls
game-first-frame = first frame
game-prev-frame = previous frame
game-play-label = play
game-next-frame = next frame
game-last-frame = last frame
game-btn-first = First
game-btn-prev = Previous
game-btn-play = Play
game-btn-pause = Pause
game-btn-next = Next
game-btn-last = End
game-frame = frame
game-loading = loading…
game-frame-of = frame { $k } of { $last }
game-error = error: { $reason }
game-cannot-load = cannot load the replay ({ $status })
game-replay-title = game replay
game-no-player = The web player is not built on this server (run scripts/build-web.sh).
game-download = Download the replay
game-download-note = (open it in the player, or read it with
game-download-note-after = ).
game-frozen = played after the scoreboard was frozen: the result shows when it is unfrozen
game-not-played = not played yet ({ $state })

# The full stop after a sentence built of messages.
sentence-end = .

## The course staff's page
admin-title = Admin
admin-heading = Course staff
admin-scoreboard = Scoreboard
admin-frozen = Frozen: students see the board as it was when frozen.
admin-unfreeze = Unfreeze
admin-live = Live: students see results as games finish.
admin-freeze = Freeze
admin-judging = Judging
admin-games = Games
admin-counts = { $queued } queued, { $running } running, { $done } done, { $failed } failed, { $cancelled } cancelled
admin-compiles = Compiles
admin-compiles-counts = { $waiting } waiting or running, { $done } done
admin-compiles-failed = , { $failed } failed to run
admin-test-games = Test games (never counted)
admin-game = Game
admin-game-value = { $game }, { $games } games a pairing
admin-state = State
admin-voided = Voided
admin-void = game { $job }: voided: { $why }; { $then }
admin-void-replayed = replayed
admin-void-again = to be played again
admin-void-not-again = not played again
admin-rules = Rules
admin-interval = Seconds between two submissions of one student
admin-budget = Thinking time a student's bots may use a day, in seconds (0: no limit)
admin-max-kb = Largest source, in KB (at most { $kb }, contest.toml's)
admin-public = Visitors who are not signed in see the scoreboard and the games
admin-private-logs = A bot's DEBUG output and stderr are shown only to its author
admin-save-rules = Save the rules
admin-students = Students
admin-login = Login
admin-name = Name
admin-nickname = Nickname
admin-role = Role
admin-latest = Latest
admin-actions = Actions
admin-staff = staff
admin-student = student
admin-disqualified = disqualified
admin-initial-password = (initial password)
admin-reinstate = Reinstate
admin-disqualify = Disqualify
admin-reset = Reset password
admin-reset-title = reset the password to the login
admin-disqualify-title = Disqualify?
admin-disqualify-heading = Disqualify { $name } ({ $login })?
admin-disqualify-message = Their bot leaves the scoreboard and its queued games are cancelled. Reinstating them later plays the games it missed.
admin-disqualify-button = Disqualify { $login }
confirm-cancel = Cancel
admin-done-frozen = The scoreboard is frozen.
admin-done-live = The scoreboard is live again.
admin-done-disqualified = Disqualified: the student's bot left the scoreboard and its queued games were cancelled.
admin-done-reinstated = Reinstated: the student's latest bot is back on the scoreboard.
admin-done-reset = The password of { $login } is their login again; they must change it at the next sign-in.
admin-done-rules = The rules are changed.

## Similarity (course staff)
sim-title = Similarity
sim-pair-title = Similarity: a pair
sim-intro = Pairs of students ranked by how much code they share, per language: normalised tokens (names, literals, comments and layout do not count), winnowed fingerprints to find candidates and greedy string tiling to measure them. Template code in { $template } never counts; sources in { $earlier } are earlier years'. A high score is a reason to look, not proof.
sim-latest-only = Latest submissions only
sim-every-version-of-each = Every version of each student
sim-latest-of-each = Each student's latest submission
sim-every-version = Every version
sim-counts = { $documents } sources, { $candidates } candidate pairs ({ $compared } compared now, { $cached } from earlier runs).
sim-none = No shared code beyond the template was found.
sim-language = Language
sim-student = Student
sim-shares-with = Shares with
sim-similarity = Similarity
sim-share-of-each = Share of each
sim-longest = Longest
sim-earlier-year = earlier year
sim-lines = { $n } lines
sim-compare = Compare
sim-more = { $n } more pairs in the CSV and JSON exports.
sim-left-out = Left out
sim-back = ← Similarity
sim-pair-similarity = { $percent }% ({ $tokens } tokens in { $regions } matched regions)
sim-pair-share = { $a }% of { $first }, { $b }% of { $second }
sim-longest-fragment = Longest fragment
sim-pair-longest = { $lines } lines ({ $tokens } tokens)
sim-pair-note = Each matched region has one colour on both sides; the arrow at its start jumps to it on the other side.
sim-pair-none = These two sources share no code beyond the template.
sim-jump = the same code on the other side, line { $line }
sim-cut = Only the first lines are shown.
sim-pending = The report is being computed ({ $seconds } s so far). Each pair of sources is measured within a bound of work linear in its length, but a class's first report, or one of every version, can take a minute. This page reloads itself until the report is ready.
sim-pending-download = The similarity report is being computed ({ $seconds } s so far): ask again in a few seconds.
sim-reload = Reload now
sim-cut-badge = cut
sim-cut-title = Measured until its work budget ran out: the pair shares at least this much.
sim-counts-cut = { $cut } pairs ran out of their work budget and are marked “cut”: they share at least what is shown.
sim-notes = Read by the lexer
sim-note-lexed = The parser did not finish these sources within its budget of time and memory (garbage such as thousands of unmatched braces makes it slow), so they were read token by token by the lexer, which gives the same tokens on ordinary code. They are compared like the others.
sim-pair-cut = The comparison of this pair ran out of its work budget (work linear in the two sources' tokens): the regions shown are the longest found first, and the pair shares at least this much. Such a pair is nearly always garbage or heavily repeated code: read it.
sim-pair-regions-cut = Only the { $shown } longest of its { $total } regions are coloured.

## Errors and refusals
err-csrf = the form expired or did not come from this site: reload the page and try again
err-internal = internal error
err-unavailable-busy = the contest's database is busy just now (another program holds it), so this was not done and nothing was saved: please try again in { $s } s
err-unavailable-storage = the contest's server cannot write its database just now (its disk is full or failing), so this was not done and nothing was saved: please try again in { $s } s; the course staff see it on their page
err-unavailable-down = the contest's database is not answering just now (it is restarting or cannot be reached), so this was not done and nothing was saved: please try again in { $s } s
err-not-found = { $what } not found
err-protocol = protocol { $name }
err-language = language { $language }
err-starter = a starter bot in { $language }
err-this-page = this page
err-your-account = your account
err-submission = submission { $id }
err-game = game { $id }
err-user = user { $id }
err-wrong-login = wrong login or password
err-wait-seconds = { $s } s
err-wait-minutes = { $m } minute(s)
err-too-many-sign-ins = too many failed sign-ins: try again in { $when }
err-nickname-taken = that nickname is taken, or reads like another user's or the course staff's name
err-nickname-long = the nickname must be at most { $max } characters
err-nickname-invisible = the nickname must not contain invisible or formatting characters ({ $char })
err-choose-nickname = choose a nickname for the scoreboard
err-password-length = the new password must have 8 to 256 characters
err-passwords-differ = the two new passwords differ
err-current-password = the current password is wrong
err-password-is-login = the new password must not be your student number
err-interval = one submission every { $s } s: you can submit again in { $wait } s
err-budget = your bots used today's { $s } s of thinking time: submit again tomorrow (UTC)
err-unknown-language = unknown language { $language }: choose one of { $known }
err-disqualified = your account was disqualified by the course staff
err-empty-source = the source is empty
err-source-too-large = the source is { $size } bytes; the limit is { $max } bytes
err-upload-too-large = the upload is larger than the { $max } byte limit
err-author-only = only its author and the course staff may see this
err-staff-only = this page is for course staff
err-other-site = this request came from another site's page: open this site and try again
err-live-frozen = the scoreboard is frozen: the live games show again when the course staff unfreeze it
err-sign-in-to-watch = sign in to watch games
err-replay-frozen = game { $id } was played after the scoreboard was frozen: its replay shows when the course staff unfreeze it
err-staff-not-in-contest = course staff accounts take no part in the contest
err-size-limit = the size limit must be from 1 KB to contest.toml's { $kb } KB (raising it needs contest.toml and a restart)
err-interval-budget = an interval of at most a week and a budget of at most a day
err-no-build = this submission has no build to repeat
err-redirect-not-a-path = { $param }= must be a page of this site, such as /submit: this link points elsewhere
err-redirect-other-host = { $param }= names another site (it starts with // once a browser reads it): this link is not one of this site's
err-redirect-unsafe = { $param }= holds a control character, a space or a backslash, which browsers read as another site's address: this link is not one of this site's
err-redirect-too-long = { $param }= is longer than 2048 characters

## What the judging machine writes (stored, logged and in the API in English), said on the
## pages; arbiter-i18n's `machine` module recognises these forms, word for word.
machine-judging-paused = judging paused: { $what } for { $seconds } s
machine-trouble-locked = database locked
machine-trouble-not-answering = database not answering
machine-trouble-unreachable = database unreachable
machine-trouble-restarting = database restarting
machine-trouble-db-storage = the database cannot be written
machine-trouble-db-error = database error
machine-trouble-disk = disk cannot be written
machine-stalled = judging machine stalled { $seconds } s at move { $move }
machine-cpu-wait = the bot waited { $seconds } s for a CPU of the overloaded judging machine at move { $move }
machine-disk = the judging machine could not write to its disk ({ $what })
machine-disk-read-only = read-only file system
machine-disk-full = disk full
machine-disk-quota = disk quota exceeded
machine-disk-io = I/O error
machine-lease-lost = voided after the lease was taken over: { $why }
machine-voided = voided: { $why }
machine-both-failed = both bots failed: first: { $first }; second: { $second }
machine-compiler-failed = the compiler failed (an unknown status)
machine-compiler-failed-code = the compiler failed (exit code { $code })
machine-compiler-failed-signal = the compiler failed (signal { $signal })
machine-compile-timeout = compilation took longer than { $seconds } s and was stopped
machine-compile-memory = the compiler used more than { $mb } MB
machine-compile-no-program = the compiler wrote no usable program
machine-compile-cut = [... output cut]
machine-compile-no-command = no compile command for this language
machine-compile-empty-command = the compile command is empty
machine-compiler-cannot-start = the compiler could not start: { $error }
machine-build-not-run = the build could not be run; the course staff can re-judge it

# The log download (a text file)
logs-game = game { $game }: your bot played { $seat } against { $opponent }: { $outcome }
logs-move = move { $n } ({ $move }):
logs-before-failure = before the failure:
logs-stderr = standard error:
logs-cut = cut at 8 MB
logs-none = No finished games with output from this bot yet.
logs-seat-first = first
logs-seat-second = second
logs-seat-black = Black (first to move)
logs-seat-white = White (second to move)
# The ladder and the leagues (docs/contest.md).
board-rules-ladder = A new submission plays opponents near its rating, a few games at a time, until its rating's 95 % interval is narrow; the board ranks by Elo ± that interval (Bradley-Terry over every game).
board-rules-leagues = Leagues: each student's latest submission plays the boss of the student's league, and beating it moves the student up a league for good.
league-boss = boss { $boss }
league-top = the top league
league-need-score = To move up to { $next }: score at least { $need } of { $games } points against { $boss } (win 1, draw 1/2).
league-need-sprt = To move up to { $next }: beat { $boss } in an SPRT (stronger by { $elo1 } Elo rather than { $elo0 }, at most { $max } games).
league-row-playing = { $points } points in { $games } of { $of } games against the boss
league-row-promoted = beat the boss: { $points } points in { $games } games
league-row-stays = did not beat the boss ({ $points } points in { $games } games): a new submission tries again
league-row-top = in the top league
league-row-moved-up = moved up from { $from } (beat { $boss })
league-you = You are in { $league }.
league-you-top = You are in { $league }, the top league: there is no boss left to beat.
league-you-promoted = Your bot beat { $boss }, the boss of { $from }: you were promoted to { $league }.

## The game's name (the submit page, the scoreboard)

game-name-reversi = Reversi { $size } x { $size }
game-name-gomoku = Gomoku { $size } x { $size }, { $rule }
game-name-duel = 2048 duel, { $rounds } rounds
game-rule-freestyle = freestyle
game-rule-standard = standard
game-rule-renju = renju
game-rule-renju-gomocup = renju (Gomocup)

## A contest on a game of more than two seats (tables)
board-rules-tables = A game of { $seats } seats: every set of { $seats } students sits at one table (their latest ready submissions), which plays { $games } games, each student in every seat in turn. A table counts once all its games are done; 1st, 2nd, ... place give { $points } points. Rating: Weng-Lin mu ± its 95 % interval.
board-places = Places
board-places-title = games finished { $places }
board-skill = Rating
board-skill-title = Weng-Lin (OpenSkill) mu ± its 95 % interval, from the places of every counted game
board-uncounted-table-title = games played at tables not finished yet: they count once every game of their table is played
place-nth = { $n ->
    [1] 1st
    [2] 2nd
    [3] 3rd
   *[other] { $n }th
}
sub-table-with = At the table with
sub-places = Places
sub-table = Table
sub-table-points = { $n } points
sub-at-table = with { $names }:{" "}
words-placed = { $place } of { $seats }
game-seat-n = Seat { $n }

# Test games (/test-games)
nav-test = Test games
test-title = Test games
test-game-title = Test game { $id }
test-intro = Play your bot against an opponent you choose: a level of the built-in bot, another student's latest bot (you see its games, never its code or logs), or yourself by clicks. Test games are judged after the contest's games and never count on the scoreboard.
test-per-hour = You may start { $n } an hour.
test-no-bot = You have no bot that compiled yet.
test-your-submission = Your bot
test-latest = #{ $id } { $file } (latest)
test-opponent = Opponent
test-levels = Built-in bot
test-level-random = random moves
test-level = level { $n }
test-students = Other students' latest bots
test-yourself = Yourself
test-me = me, by clicks in the browser
test-seat = Your bot plays
test-start = Start the test game
test-note = A game by clicks starts when you open your seat's page from the test game's page (it waits 5 minutes for you); you have a minute a move.
test-none = No test games yet.
test-result = Result
test-moves = Moves
test-asked = Asked for
test-outcome-won = won
test-outcome-lost = lost
test-outcome-drawn = drawn
test-by-clicks = { $name } (by clicks)
test-your-bot = { $name } (your bot)
test-queued = waiting for a judge (the contest's games go first; this page reloads itself)
test-running = being played
test-play-seat = Play your seat
test-watch-live = Watch it live
test-person-wait = When a judge takes this game, the link to your seat appears here.
err-test-opponent = no such opponent: { $value } (choose one from the list)
err-test-off = this contest has no test games
err-test-seat = no such seat: the game has { $seats }
err-test-no-person = this server plays no games by clicks (it has no judge of its own)
err-test-person-open = you have a game by clicks not over yet: play it (its page has your seat's link) or wait for its end
err-test-per-hour = at most { $n } test games an hour: try again later
err-test-not-ready = submission { $id } is not ready (it must compile first)
err-test-no-submission = you have no bot that compiled yet: submit one first
err-test-no-opponent = student { $id } has no bot that compiled
err-test-game = test game { $id }
err-test-replay = the replay of test game { $id }
err-test-submission = no such submission: { $value }
err-live-game = live game { $id }
