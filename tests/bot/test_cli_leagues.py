"""`referee league ...` offline: the read-only views and the CSV export of a league the bot keeps."""

from __future__ import annotations

import csv
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.access import Actor
from bot.recording import with_store
from bot.storage import Store
from tests.bot.test_cli import referee

GUILD = "g1"
T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def league_id() -> int:
    async def fill(store: Store) -> int:
        organiser = Actor("org", guild=GUILD)
        league = await store.leagues.create("g1", "Autumn Crusade", "40k", actor=organiser, at=T0)
        for user in ("ann", "bob", "cid"):
            await store.leagues.join(league.id, actor=Actor(user, guild=GUILD), at=T0)
        await store.matches.enter(league.id, actor=organiser, player="ann", opponent="bob", result="win",
                                  score="=2+3", at=T0 + timedelta(hours=1))  # fmt: skip
        match = (await store.matches.report(league.id, actor=Actor("cid", guild=GUILD), opponent="ann", result="draw",
                                          at=T0 + timedelta(hours=2))).match  # fmt: skip
        await store.matches.confirm(match.id, actor=Actor("ann", guild=GUILD), at=T0 + timedelta(hours=3))
        return league.id

    return with_store(fill)


def test_list_and_standings(league_id: int, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("league", "list", capsys=capsys)
    assert code == 0 and "Autumn Crusade" in out and "1 (open)" in out
    code, out, _ = referee("league", "standings", "autumn crusade", capsys=capsys)
    assert code == 0
    lines = [line for line in out.splitlines() if "ann" in line or "bob" in line or "cid" in line]
    assert [line.split("│")[2].strip() for line in lines] == ["ann", "cid", "bob"]  # 4 pts, 1 pt, 0 pts
    assert "head-to-head points" in out
    assert referee("league", "standings", str(league_id), "--season", "2", capsys=capsys)[0] == 2


def test_history_and_audit(league_id: int, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("league", "history", f"#{league_id}", "--player", "bob", capsys=capsys)
    assert code == 0 and out.splitlines() == [out.splitlines()[0]] and "ann win v bob =2+3 [confirmed]" in out
    code, out, _ = referee("league", "audit", str(league_id), capsys=capsys)
    kinds = [line.split()[2] for line in out.splitlines()]
    assert kinds == ["confirmed", "reported", "entered", "joined", "joined", "joined", "league-created"]
    assert "status: pending -> confirmed" in out.splitlines()[0]


def test_export_writes_two_spreadsheet_safe_csv_files(
    league_id: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = referee("league", "export", str(league_id), "--output-dir", str(tmp_path), capsys=capsys)
    assert code == 0 and "Wrote 2 matches" in out
    matches = list(csv.DictReader((tmp_path / f"league-{league_id}-matches.csv").open(encoding="utf-8")))
    assert [(m["player"], m["result"], m["opponent"], m["status"]) for m in matches] == [
        ("ann", "win", "bob", "confirmed"), ("cid", "draw", "ann", "confirmed"),
    ]  # fmt: skip
    assert matches[0]["score"] == "'=2+3"  # never a formula in a spreadsheet
    standings = list(csv.DictReader((tmp_path / f"league-{league_id}-season-1-standings.csv").open(encoding="utf-8")))
    assert [(s["rank"], s["player"], s["points"]) for s in standings] == [("1", "ann", "4"), ("2", "cid", "1"),
                                                                          ("3", "bob", "0")]  # fmt: skip


def test_an_unknown_league_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee("league", "standings", "Nope", capsys=capsys)
    assert code == 2 and "There is no league 'Nope'" in err


def test_no_leagues_says_where_they_are_made_without_a_slash_command(capsys: pytest.CaptureFixture[str]) -> None:
    """The terminal user is told where leagues are made, never given a slash command to type (was '/league create')."""
    code, out, _ = referee("league", "list", capsys=capsys)
    assert code == 0
    assert out.strip() == "No leagues yet: organisers create them in Discord."


def test_a_league_counting_only_agreed_combats_in_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 24: `referee league list` says a league counts only agreed combats, `history` marks an agreed combat,
    and the export writes its settings and each match's agreed combats."""
    from tests.bot.leagues.agreed_records import agreed_combat

    async def fill(store: Store) -> tuple[int, int]:
        organiser = Actor("org", guild=GUILD)
        league = await store.leagues.create(GUILD, "Remote Crusade", "40k", actor=organiser, require_agreed=True)
        for user in ("ann", "bob"):
            await store.leagues.join(league.id, actor=Actor(user, guild=GUILD))
        agreed = await agreed_combat(store, "ann", "bob", GUILD)
        await store.matches.report(league.id, actor=Actor("bob", guild=GUILD), opponent="ann", result="loss",
                                   combats=[agreed])  # fmt: skip
        return league.id, agreed

    league_id, agreed = with_store(fill)
    code, out, _ = referee("league", "list", capsys=capsys)
    assert code == 0 and f"#{league_id} Remote Crusade counts only combats both players agreed to" in out
    code, out, _ = referee("league", "history", str(league_id), capsys=capsys)
    assert code == 0 and f"combats #{agreed} (agreed)" in out
    code, out, _ = referee("league", "export", str(league_id), "--output-dir", str(tmp_path), capsys=capsys)
    assert code == 0 and "settings" in out
    [settings] = list(csv.DictReader((tmp_path / f"league-{league_id}-settings.csv").open(encoding="utf-8")))
    assert settings["require_agreed"] == "true" and settings["name"] == "Remote Crusade"
    [match] = list(csv.DictReader((tmp_path / f"league-{league_id}-matches.csv").open(encoding="utf-8")))
    assert (match["combats"], match["agreed_combats"]) == (f"#{agreed}", f"#{agreed}")


def test_export_counts_in_the_right_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    async def fill(store: Store) -> int:
        organiser = Actor("org", guild=GUILD)
        league = await store.leagues.create("g1", "One Match", "40k", actor=organiser, at=T0)
        for user in ("ann", "bob"):
            await store.leagues.join(league.id, actor=Actor(user, guild=GUILD), at=T0)
        await store.matches.enter(league.id, actor=organiser, player="ann", opponent="bob", result="win",
                                  at=T0 + timedelta(hours=1))  # fmt: skip
        return league.id

    league_id = with_store(fill)
    code, out, _ = referee("league", "export", str(league_id), "--output-dir", str(tmp_path), capsys=capsys)
    assert code == 0 and out.startswith("Wrote 1 match to ") and ", 2 players to " in out, out
