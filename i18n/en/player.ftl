# The web player: controls, status lines, results, failures, accessibility labels, live modes.
player-draw = Draw
