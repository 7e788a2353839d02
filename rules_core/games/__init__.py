"""One module (or package) per game; importing this package registers them all."""

from rules_core.games import wh40k

__all__ = ["wh40k"]
