"""Everything that touches the outside world: the `referee` command line, the Discord app, the renderers, the store
(SQLite or PostgreSQL), the league domain and the shipped data files, around the pure engine in rules_core."""
