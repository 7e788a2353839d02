"""Discord cogs, one thin package per feature: each converts its slash-command arguments, calls a service of bot/,
renders and sends; cogs share through bot/discord/, never by importing each other, and register their own
persistent views."""
