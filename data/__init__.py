"""The referee's data files (YAML). Installed as the package `bot.shipped_data` (bot/shipped_data is a symbolic
link to this folder), so that `importlib.resources` finds them in editable and plain installs alike; there is no code
here."""
