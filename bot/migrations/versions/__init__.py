"""Migration scripts, oldest first (Alembic reads them by path)."""
