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
board-rules = Each student's latest ready submission plays every other one: { $games } games a pairing, colours swapped. A pairing won gives 3 points, drawn 1, lost 0; game points break ties. Elo ± its 95 % interval.
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
board-game-points = Game pts
board-elo = Elo
board-bot = Bot

## Submitting
submit-title = Submit a bot
submit-size = Size limit
submit-size-value = { $kb } KB, one file
submit-interval = Interval
submit-interval-value = one submission every { $s } s
submit-next = next allowed { $when }
submit-budget = Daily budget
submit-budget-unlimited = unlimited
submit-budget-value = { $used } s of { $budget } s of thinking time used today (UTC)
submit-game = Game
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
sub-replaced = ; this submission no longer counts: a newer one replaced it
sub-no-games = No games yet.
sub-opponent = Opponent
sub-won = Won
sub-drawn = Drawn
sub-lost = Lost
sub-pairing = Pairing
sub-games = Games
sub-to-play = { $n } to play
sub-game-title = game { $id }: { $result }
sub-game-frozen = played after the freeze: its result shows when the scoreboard is unfrozen

## One game
game-title = Game { $id }
game-first = Black / first
game-second = White / second
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
game-download-note = (open it in the player, or read it with { $command }).
game-wins = { $name } wins: { $verdict }
game-draw = draw: { $verdict }
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
admin-game = Game
admin-game-value = { $game }, { $games } games a pairing
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
admin-staff = staff
admin-student = student
admin-disqualified = disqualified
admin-initial-password = (initial password)
admin-reinstate = Reinstate
admin-disqualify = Disqualify
admin-reset = Reset password
admin-reset-title = reset the password to the login
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

## Errors and refusals
err-csrf = the form expired or did not come from this site: reload the page and try again
err-internal = internal error
err-not-found = { $what } not found
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
