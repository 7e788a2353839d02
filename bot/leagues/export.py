"""A league as CSV: its matches and a season's standings (spreadsheet-safe: no cell can run as a formula)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import datetime

from bot.leagues.model import MatchInfo
from bot.leagues.standings import Row

MATCH_COLUMNS = ("match", "season", "status", "reported_at", "player", "opponent", "result", "score", "combats",
                 "notes", "source", "decided_by", "decided_at")  # fmt: skip
STANDINGS_COLUMNS = ("rank", "player", "played", "won", "drawn", "lost", "points", "rating")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    """Text a spreadsheet shows as typed: a leading = + - @ would make it a formula, so it gets a quote."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.isoformat()
    text = str(value)
    if isinstance(value, int | float):
        return text
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def _csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([safe_cell(value) for value in row])
    return buffer.getvalue()


def matches_csv(matches: Iterable[MatchInfo]) -> str:
    """Matches oldest first; the result is the player's (the one who reported it, or the organiser's first)."""
    ordered = sorted(matches, key=lambda m: (m.created_at, m.id))
    return _csv(
        MATCH_COLUMNS,
        (
            (m.id, m.season, m.status, m.created_at, m.reporter, m.opponent, m.result, m.score,
             " ".join(f"#{c}" for c in m.combats), m.notes, m.source, m.decided_by, m.decided_at)
            for m in ordered
        ),
    )  # fmt: skip


def standings_csv(rows: Iterable[Row]) -> str:
    return _csv(
        STANDINGS_COLUMNS,
        ((r.rank, r.player, r.played, r.won, r.drawn, r.lost, r.points, round(r.rating, 1)) for r in rows),
    )


__all__ = ["MATCH_COLUMNS", "STANDINGS_COLUMNS", "matches_csv", "safe_cell", "standings_csv"]
