"""Alembic migrations of the referee's store, shipped inside the package (run them with `referee db upgrade`)."""
