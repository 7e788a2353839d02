"""The Discord front end: the discord.py app and what the cogs share (results and their buttons, error embeds,
slash-command options generated from the games, the combat sides, the rate limit, the collector hold, the batched
record writer, the settings). The cogs in ``cogs/`` import from here; nothing here imports a cog.

Inside this package ``import discord`` is the discord.py library (imports are absolute), never this package.
"""
