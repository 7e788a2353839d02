"""League CSV exports are safe in every spreadsheet: no cell, and no part of a cell a `;` or `,` locale splits
off, can start a formula; every text cell is quoted."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest

from bot.leagues.export import matches_csv, safe_cell, settings_csv, standings_csv
from bot.leagues.model import LeagueInfo, MatchInfo
from bot.leagues.standings import Points, Row

WHEN = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def match(notes: str, score: str | None = "2-1") -> MatchInfo:
    return MatchInfo(id=1, league_id=1, season=1, reporter="111", opponent="222", result="win", score=score,
                     combats=(4,), notes=notes, status="confirmed", source="report", created_by="111",
                     created_at=WHEN, confirm_by=None, decided_by=None, decided_at=None)  # fmt: skip


def cells_as_a_locale_splits_them(line: str, separator: str) -> list[str]:
    """What a spreadsheet that splits on ``separator`` and ignores quoting would put in its cells."""
    return [cell.strip().strip('"').strip() for cell in line.split(separator)]


@pytest.mark.parametrize("separator", [",", ";"])
def test_no_cell_starts_a_formula_in_either_locale(separator: str) -> None:
    text = matches_csv([match("x;=cmd|' /C calc'!A0", score="+1,@SUM(A1)")])
    data_line = text.splitlines()[1]
    for cell in cells_as_a_locale_splits_them(data_line, separator):
        assert not cell.startswith(("=", "+", "-", "@")), (cell, data_line)


def test_the_text_survives_for_a_reader_that_honours_quotes() -> None:
    [row] = list(csv.DictReader(io.StringIO(matches_csv([match("a; b, c")]))))
    assert row["notes"] == "a; b, c"
    assert row["score"] == "2-1"


def test_every_text_cell_is_quoted_and_numbers_are_not() -> None:
    data_line = matches_csv([match("plain")]).splitlines()[1]
    assert data_line.startswith('1,1,"confirmed","2026-11-01T12:00:00+00:00","111","","222","","win","2-1","#4",'
                                '"","plain"')  # fmt: skip
    standings = standings_csv([Row(player="111", played=2, won=1, drawn=0, lost=1, points=3, rating=1012.34, rank=1)])
    assert standings.splitlines()[1] == '1,"111","",2,1,0,1,3,1012.3'


def test_names_stand_beside_the_ids_and_are_formula_safe() -> None:
    """The issue: the CSV showed raw ids. A known display name goes beside its id (kept: the league counts by it);
    a name is typed by its user, so it is made safe like any text."""
    names = {"111": "Ann", "222": "=HYPERLINK(1)"}
    [row] = list(csv.DictReader(io.StringIO(matches_csv([match("plain")], names))))
    assert (row["player"], row["player_name"], row["opponent"], row["opponent_name"]) == (
        "111", "Ann", "222", "'=HYPERLINK(1)",
    )  # fmt: skip
    rows = [Row(player="111", played=1, won=1, drawn=0, lost=0, points=3, rating=1516.0, rank=1)]
    [standing] = list(csv.DictReader(io.StringIO(standings_csv(rows, names))))
    assert (standing["player"], standing["name"]) == ("111", "Ann")


def test_a_leading_formula_character_is_quoted_as_before() -> None:
    assert safe_cell("=2+3") == "'=2+3"
    assert safe_cell("a;-1") == "a;'-1"
    assert safe_cell(7) == 7


def test_the_agreed_combats_and_the_setting_are_in_the_export() -> None:
    """Issue 24: a match's combats both players agreed to have a column of their own, and the league's settings
    (whether it counts only agreed combats) a file of their own."""
    two = MatchInfo(id=2, league_id=1, season=1, reporter="111", opponent="222", result="win", score=None,
                    combats=(4, 9), notes="", status="confirmed", source="report", created_by="111", created_at=WHEN,
                    confirm_by=None, decided_by=None, decided_at=None)  # fmt: skip
    [row] = list(csv.DictReader(io.StringIO(matches_csv([two], agreed={9, 12}))))
    assert (row["combats"], row["agreed_combats"]) == ("#4 #9", "#9")
    [public] = list(csv.DictReader(io.StringIO(matches_csv([two], agreed={4}, public=True))))
    assert public["agreed_combats"] == "#4"
    league = LeagueInfo(id=3, guild_id="1", name="=Crusade", game="40k", points=Points(3, 1, 0), confirm_hours=72,
                        season=2, season_open=True, version=1, created_by="111", created_at=WHEN, organisers=(),
                        players=(), require_agreed=True)  # fmt: skip
    [settings] = list(csv.DictReader(io.StringIO(settings_csv(league))))
    assert settings == {"league": "3", "name": "'=Crusade", "game": "40k", "season": "2", "season_open": "true",
                        "points_win": "3", "points_draw": "1", "points_loss": "0", "confirm_hours": "72",
                        "require_agreed": "true"}  # fmt: skip
