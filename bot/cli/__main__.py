"""``python -m bot.cli``: the `referee` command, as the console script runs it."""

from bot.cli import main

main()
