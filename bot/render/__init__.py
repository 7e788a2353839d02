"""Renderers over one report (like d20's stringifiers): a terminal renderer now, Discord embeds later."""
