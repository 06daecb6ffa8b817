# random_player.py - an example AI in the original sessdsa.2048 (seed 000) style.
# Run it through arbiter with:  python3 bots/python/sessdsa_host.py random_player.py
#
# Places on its own random cell (getNext) or, when its half is full, on a random empty cell
# of the opponent's half; slides in a random direction that changes the board.
import random


class Player:
    def __init__(self, isFirst, array):
        self.isFirst = isFirst
        self.array = array

    def output(self, currentRound, board, mode):
        if mode == 'position':
            own = board.getNext(self.isFirst, currentRound)
            if own != ():
                return own
            return random.choice(board.getNone(not self.isFirst))
        elif mode == 'direction':
            choices = [d for d in range(4) if board.copy().move(self.isFirst, d)]
            return random.choice(choices)
        else:
            return None  # '_position' / '_direction': this step is skipped for us
