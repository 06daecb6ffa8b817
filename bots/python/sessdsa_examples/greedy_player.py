# greedy_player.py - an example AI in the original sessdsa.2048 (seed 000) style.
# Run it through arbiter with:  python3 bots/python/sessdsa_host.py greedy_player.py
#
# Position: its own random cell when there is one (getNext), else the opponent's empty cell
# after which the opponent's best slide gains least. Direction: the slide whose result has
# the best score, comparing level counts from the top like the final judgement does.


class Player:
    def __init__(self, isFirst, array):
        self.isFirst = isFirst
        self.array = array

    def value(self, board):
        # tiles weighted 4^level: ours minus theirs
        mine = sum(4 ** v for v in board.getScore(self.isFirst))
        theirs = sum(4 ** v for v in board.getScore(not self.isFirst))
        return mine - theirs

    def best_slide(self, board, belong):
        best = None
        for d in range(4):
            after = board.copy()
            if after.move(belong, d):
                v = self.value(after)
                if best is None or (v > best[0] if belong == self.isFirst else v < best[0]):
                    best = (v, d)
        return best

    def output(self, currentRound, board, mode):
        # what the opponent did last: () nothing, (row, col) a position, (direction,) a slide
        last = board.getDecision(not self.isFirst)
        assert last == () or len(last) in (1, 2)
        if mode == 'position':
            own = board.getNext(self.isFirst, currentRound)
            if own != ():
                return own
            if board.getTime(self.isFirst) < 0.5:  # short of time: no look-ahead
                return board.getNone(not self.isFirst)[0]
            # Our half is full: give the opponent the tile that helps them least.
            best = None
            for position in board.getNone(not self.isFirst):
                after = board.copy()
                after.add(not self.isFirst, position)
                reply = self.best_slide(after, not self.isFirst)
                v = reply[0] if reply is not None else self.value(after)
                if best is None or v > best[0]:
                    best = (v, position)
            return best[1]
        elif mode == 'direction':
            # a real AI's habits: the raw view, the sequence, the printout
            raw = board.getRaw()
            assert raw[0][0][0] == board.getValue((0, 0)) and len(board.array) > currentRound
            assert str(board).count('\n') == 3
            return self.best_slide(board, self.isFirst)[1]
        else:
            return None
