"""Everything around the pure engine in rules_core: the services both front ends share (data and the catalogue,
recording, verification, continuing, rosters), the renderers, the store (SQLite or PostgreSQL), the league domain,
and the two front ends, bot/cli (the `referee` command) and bot/discord (the Discord app)."""
