"""Everything that touches the outside world: the command line, renderers, data files (and later Discord and
the database)."""
