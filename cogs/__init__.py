"""Discord cogs, one thin package per feature (arrive with the Discord bot; see docs/ADDING_A_GAME.md)."""
