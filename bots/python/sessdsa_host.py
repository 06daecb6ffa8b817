"""sessdsa_host.py - runs an ORIGINAL sessdsa.2048 (seed 000) AI file, unchanged, as a bot of
arbiter's `duel` protocol.

    python3 sessdsa_host.py path/to/AI.py

The AI file defines `class Player` with `__init__(self, isFirst, array)` and
`output(self, currentRound, board, mode)`; `board` is a copy of a `Chessboard` offering the
original API (add, move, getBelong, getValue, getScore, getNone, getNext, copy, getRaw,
getDecision, getTime, getAnime, updateDecision, updateTime, printing, and the `array`
attribute). This host keeps that board in step with the referee's commands and translates
the AI's answers: a position (row, col) -> "ROW COL", a direction 0..3 -> up/down/left/right.

Whatever the AI prints goes to stderr (stdout is the protocol). An exception in the AI is
printed to stderr and the host exits with status 1: the referee judges it a crash, like the
original platform's "run time error". An answer of the wrong shape is sent as
`invalid ...`, which the referee judges malformed ("illegal output").

Clocks: every `PLACE r t o` / `SLIDE r t o` carries both players' remaining thinking time,
and the host keeps both on the board, so `getTime(isFirst)` and `getTime(not isFirst)` both
move as on the original. Two small differences remain: the rival's time is as of this
request (the original showed it as of the rival's own last request, before that thinking),
and a skipped step (`SKIP r`, mode '_position' / '_direction') carries no times, so the
board keeps the last ones.
"""
import importlib.util
import os
import sys
import traceback
from collections import namedtuple

ROWS = 4
COLUMNS = 8
MAXTIME = 5  # seconds of thinking per player and game, as in the original
DIRECTIONS = ["up", "down", "left", "right"]


# A tile, as the original names it (some AIs read `board.board[position].value`).
Chessman = namedtuple("Chessman", "belong position value")


class Chessboard:
    """The original platform's board, with its full public API and its attributes: `array`
    (the random sequence), `board` (position -> Chessman, tiles only), `belongs` (owner ->
    positions of its tiles), `decision`, `time`, `anime`."""

    def __init__(self, array):
        self.array = array
        self.board = {}
        self.belongs = {True: [], False: []}
        self.decision = {True: (), False: ()}
        self.time = {True: MAXTIME, False: MAXTIME}
        self.anime = []

    # ---- changing the board ----
    # add() and move() keep the original's bookkeeping exactly, including what it does with
    # an add() onto an occupied cell (AIs simulate with these, so they must see what they saw
    # on the original platform).
    def add(self, belong, position, value=1):
        """Puts a tile of `value` on `position`; the column decides the owner (the `belong`
        argument is ignored, as in the original). On an occupied cell the original replaces
        the tile but leaves the old tile's entry in its owner's list (`belongs`); so does
        this board, so getScore and move behave as they did there."""
        owner = position[1] < COLUMNS // 2
        self.belongs[owner].append(position)
        self.board[position] = Chessman(owner, position, value)

    def move(self, belong, direction):
        """Slides `belong`'s tiles towards `direction` (0 up, 1 down, 2 left, 3 right),
        front tiles first; returns whether the board changed. A tile passes through empty
        cells of the mover's half only, then merges with an equal tile (either owner) that
        was not itself made by this move."""
        self.anime = []
        if direction not in range(4):
            # The original has no order for other directions and fails the same way.
            raise TypeError("'NoneType' object is not iterable")
        dr, dc = [(-1, 0), (1, 0), (0, -1), (0, 1)][direction]
        axis = 0 if direction < 2 else 1
        front_first = sorted(self.belongs[belong], key=lambda p: p[axis],
                             reverse=direction in (1, 3))

        def on_board(p):
            return 0 <= p[0] < ROWS and 0 <= p[1] < COLUMNS

        def own_empty(p):
            return on_board(p) and (p[1] < COLUMNS // 2) == belong and p not in self.board

        merged = []
        changed = False
        for start in front_first:
            tile = self.board[start]
            here = start
            while own_empty((here[0] + dr, here[1] + dc)):
                here = (here[0] + dr, here[1] + dc)
            ahead = (here[0] + dr, here[1] + dc)
            other = self.board.get(ahead)
            if (on_board(ahead) and other is not None and ahead not in merged
                    and other.value == tile.value):
                self.belongs[belong].remove(start)
                owner = belong if ahead in self.belongs[belong] else not belong
                self.belongs[owner].remove(ahead)
                self.belongs[belong].append(ahead)
                self.board[ahead] = Chessman(belong, ahead, tile.value + 1)
                del self.board[start]
                merged.append(ahead)
                self.anime.append(start + ahead)
                changed = True
            elif here != start:
                self.belongs[belong].remove(start)
                self.belongs[belong].append(here)
                self.board[here] = Chessman(belong, here, tile.value)
                del self.board[start]
                self.anime.append(start + here)
                changed = True
        return changed

    # ---- reading the board ----
    def getBelong(self, position):
        tile = self.board.get(position)
        return tile.belong if tile is not None else position[1] < COLUMNS // 2

    def getValue(self, position):
        tile = self.board.get(position)
        return tile.value if tile is not None else 0

    def getScore(self, belong):
        return sorted(self.board[p].value for p in self.belongs[belong])

    def getNone(self, belong):
        return [(r, c) for r in range(ROWS) for c in range(COLUMNS)
                if (r, c) not in self.board and (c < COLUMNS // 2) == belong]

    def getNext(self, belong, currentRound):
        """As the original: () when the half is full; otherwise indexes the random sequence,
        so a round past the last raises IndexError (and a negative one counts from the end)."""
        available = self.getNone(belong)
        if not belong:
            available.reverse()
        if not available:
            return ()
        return available[self.array[currentRound] % len(available)]

    def getRaw(self):
        return [[(self.getValue((r, c)), self.getBelong((r, c))) for c in range(COLUMNS)]
                for r in range(ROWS)]

    def getDecision(self, belong):
        return self.decision[belong]

    def getTime(self, belong):
        return self.time[belong]

    def getAnime(self):
        return self.anime

    def updateDecision(self, belong, decision):
        self.decision[belong] = decision

    def updateTime(self, belong, time):
        self.time[belong] = time

    def copy(self):
        new = Chessboard(self.array)
        new.board = dict(self.board)
        new.belongs = {True: list(self.belongs[True]), False: list(self.belongs[False])}
        new.decision = dict(self.decision)
        new.time = dict(self.time)
        new.anime = list(self.anime)
        return new

    def __repr__(self):
        rows = []
        for r in range(ROWS):
            rows.append(" ".join("%s%02d" % ("+" if self.getBelong((r, c)) else "-",
                                              self.getValue((r, c)))
                                 for c in range(COLUMNS)))
        return "\n".join(rows)

    __str__ = __repr__


def load_player_class(path):
    """Imports the AI file by path (its folder first on sys.path, for its own helpers)."""
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location("sessdsa_ai", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["sessdsa_ai"] = module
    spec.loader.exec_module(module)
    return module.Player


def update_times(board, me, words):
    """`PLACE r t o` / `SLIDE r t o`: t = our remaining ms, o = the opponent's. The original
    platform updates the clock of the side about to move on the board it keeps, so an AI
    reads both players' remaining time there (`getTime(not isFirst)` too). A referee that
    sends no `o` leaves the opponent's clock as it was."""
    board.updateTime(me, int(words[2]) / 1000)
    if len(words) > 3:
        board.updateTime(not me, int(words[3]) / 1000)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: python3 sessdsa_host.py AI.py\n")
        sys.exit(2)
    protocol = sys.stdout
    sys.stdout = sys.stderr  # the AI's own prints must not reach the referee

    def send(text):
        protocol.write(text + "\n")
        protocol.flush()

    try:
        Player = load_player_class(sys.argv[1])
    except Exception:
        traceback.print_exc()
        sys.exit(1)

    me = True  # the AI's belong: True = first player
    rounds = 0
    player = None
    board = None
    expect = "position"  # the kind of our next step: each round one placement then one slide

    def ask(currentRound, mode):
        try:
            return player.output(currentRound, board.copy(), mode)
        except Exception:
            traceback.print_exc()
            sys.exit(1)

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "START":
            me = words[1] == "0"
            rounds = int(words[2])
        elif cmd == "RANDOM":
            array = tuple(int(v) for v in words[1:rounds + 1])
            board = Chessboard(array)
            try:
                player = Player(me, array)
            except Exception:
                traceback.print_exc()
                sys.exit(1)
            send("OK")
        elif cmd == "OPPONENT":
            arg = words[1:]
            if arg == ["skip"]:
                board.updateDecision(not me, ())
            elif len(arg) == 2:
                position = (int(arg[0]), int(arg[1]))
                board.add(not me, position)
                board.updateDecision(not me, position)
            elif len(arg) == 1:
                d = DIRECTIONS.index(arg[0]) if arg[0] in DIRECTIONS else int(arg[0])
                board.move(not me, d)
                board.updateDecision(not me, (d,))
        elif cmd == "PLACE":
            currentRound = int(words[1])
            update_times(board, me, words)
            answer = ask(currentRound, "position")
            if isinstance(answer, (tuple, list)) and len(answer) == 2 and all(map(is_int, answer)):
                position = (answer[0], answer[1])
                if 0 <= position[0] < ROWS and 0 <= position[1] < COLUMNS:
                    board.add(me, position)
                board.updateDecision(me, position)
                send("%d %d" % position)
            else:
                send("invalid position %r" % (answer,))
            expect = "direction"
        elif cmd == "SLIDE":
            currentRound = int(words[1])
            update_times(board, me, words)
            answer = ask(currentRound, "direction")
            if is_int(answer) and 0 <= answer <= 3:
                board.move(me, answer)
                board.updateDecision(me, (answer,))
                send(DIRECTIONS[answer])
            else:
                send("invalid direction %r" % (answer,))
            expect = "position"
        elif cmd == "SKIP":
            currentRound = int(words[1])
            board.updateDecision(me, ())
            ask(currentRound, "_" + expect)  # the original tells the AI; the answer is ignored
            expect = "direction" if expect == "position" else "position"
        elif cmd == "END":
            break
        # anything else: ignore


if __name__ == "__main__":
    main()
