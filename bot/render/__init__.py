"""Renderers over one report (like d20's stringifiers): terminal text, Markdown and Discord embeds over one walk of
its steps (walk.py), the summary words, the odds as text and charts, and the colours they all use."""
