"""Leagues: standings and ratings derived from confirmed matches (pure), their chart and their export."""
