"""One package per game (and formation/, the engine Epic and Reikhammer share); importing this package registers
them all.

Each game is registered by the one line that imports its package here (``from rules_core.games import X as X``:
the redundant alias marks it as exported, so no other list names the games).
"""

from rules_core.games import boltaction as boltaction
from rules_core.games import duel as duel
from rules_core.games import epic as epic
from rules_core.games import reikhammer as reikhammer
from rules_core.games import wh40k as wh40k
