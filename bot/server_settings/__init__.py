"""Server settings and personal preferences: what each server (or one of its channels) sets once instead of in
every command (house rules, where results go, how loud the bot is), and what each player prefers.

``model`` is pure (no Discord, no SQL): the keys, their values checked, the effective settings of a channel, and
house rules merged into a command's options. ``cache`` holds every server's settings in the bot's memory, so a
combat's first answer never waits on a settings query.
"""
