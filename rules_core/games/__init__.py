"""One module (or package) per game; importing this package registers them all."""

from rules_core.games import boltaction, duel, epic, reikhammer, wh40k

__all__ = ["boltaction", "duel", "epic", "reikhammer", "wh40k"]
