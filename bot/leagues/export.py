"""A league as CSV: its matches and a season's standings, safe in any spreadsheet: every text cell is quoted, and no
cell, nor any part of one that a `,` or `;` locale splits off when it ignores the quotes, can start a formula."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime

from bot.leagues.model import LeagueInfo, MatchInfo
from bot.leagues.standings import Row

# Players are their ids (what the league counts by) with their display names beside, where the referee knows them.
# ``agreed_combats``: those of its combats both players agreed to (issue 24), as "#12 #15".
MATCH_COLUMNS = ("match", "season", "status", "reported_at", "player", "player_name", "opponent", "opponent_name",
                 "result", "score", "combats", "agreed_combats", "notes", "source", "decided_by",
                 "decided_at")  # fmt: skip
PRIVATE_COLUMNS = ("notes", "decided_by")  # left out of the web pages' copy: no page shows them
SETTINGS_COLUMNS = ("league", "name", "game", "season", "season_open", "points_win", "points_draw", "points_loss",
                    "confirm_hours", "require_agreed")  # fmt: skip
STANDINGS_COLUMNS = ("rank", "player", "name", "played", "won", "drawn", "lost", "points", "rating")
# A formula starts with = + - @ (or a tab or carriage return before one), at the start of a cell or of any part a
# spreadsheet may split off at a `,` or a `;` (European locales split on `;`).
_FORMULA_START = re.compile(r"(^|[,;])(\s*)(?=[=+\-@\t\r])")


def safe_cell(value: object) -> object:
    """A cell as a spreadsheet should show it: numbers as numbers; text as typed, with a quote before anything that
    could start a formula (`=2+3` is written `'=2+3`, `a;-1` is `a;'-1`)."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, int | float):
        return value
    return _FORMULA_START.sub(r"\1\2'", str(value))


def _csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)  # text always quoted
    writer.writerow(header)
    for row in rows:
        writer.writerow([safe_cell(value) for value in row])
    return buffer.getvalue()


def _ids(combats: Iterable[int]) -> str:
    return " ".join(f"#{c}" for c in combats)


def matches_csv(
    matches: Iterable[MatchInfo], names: Mapping[str, str] | None = None, *, public: bool = False,
    agreed: Collection[int] = (),
) -> str:  # fmt: skip
    """Matches oldest first; the result is the player's (the one who reported it, or the organiser's first).
    ``names``: display names by id (a name column is empty where none is known). ``public``: the web pages' copy,
    without the columns no page shows (the free-text notes, the organiser's id: ``PRIVATE_COLUMNS``). ``agreed``:
    the combat records both players agreed to (the ``agreed_combats`` column lists a match's)."""
    ordered = sorted(matches, key=lambda m: (m.created_at, m.id))
    known = names or {}
    rows = (
        (m.id, m.season, m.status, m.created_at, m.reporter, known.get(m.reporter), m.opponent,
         known.get(m.opponent), m.result, m.score, _ids(m.combats), _ids(c for c in m.combats if c in agreed),
         m.notes, m.source, m.decided_by, m.decided_at)
        for m in ordered
    )  # fmt: skip
    if not public:
        return _csv(MATCH_COLUMNS, rows)
    kept = [index for index, column in enumerate(MATCH_COLUMNS) if column not in PRIVATE_COLUMNS]
    return _csv([MATCH_COLUMNS[i] for i in kept], ([row[i] for i in kept] for row in rows))


def settings_csv(league: LeagueInfo) -> str:
    """The league's settings as its organisers set them, one row (whether reports count only agreed combats too)."""
    points = league.points
    return _csv(SETTINGS_COLUMNS, [(league.id, league.name, league.game, league.season, str(league.season_open).lower(),
                                    points.win, points.draw, points.loss, league.confirm_hours,
                                    str(league.require_agreed).lower())])  # fmt: skip


def standings_csv(rows: Iterable[Row], names: Mapping[str, str] | None = None) -> str:
    known = names or {}
    return _csv(
        STANDINGS_COLUMNS,
        (
            (r.rank, r.player, known.get(r.player), r.played, r.won, r.drawn, r.lost, r.points, round(r.rating, 1))
            for r in rows
        ),
    )


__all__ = [
    "MATCH_COLUMNS",
    "PRIVATE_COLUMNS",
    "SETTINGS_COLUMNS",
    "STANDINGS_COLUMNS",
    "matches_csv",
    "safe_cell",
    "settings_csv",
    "standings_csv",
]
