"""The league's embeds stay inside Discord's limits at any size, and say who did what."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.leagues.model import AuditEntry, LeagueInfo, MatchInfo, Standings
from bot.leagues.standings import Points, Row
from cogs.leagues._ui import audit_embed, history_embed, match_embed, match_view, standings_embed

T0 = datetime(2026, 11, 1, tzinfo=UTC)
LEAGUE = LeagueInfo(
    id=1, guild_id="g", name="L" * 50, game="40k", points=Points(), confirm_hours=72, season=3, season_open=True,
    version=1, created_by="1", created_at=T0, organisers=("1",), players=(),
)  # fmt: skip


def match(number: int, status: str = "pending", notes: str = "") -> MatchInfo:
    return MatchInfo(id=number, league_id=1, season=3, reporter=str(10**17 + number), opponent=str(10**17 + number + 1),
                     result="win", score="10-9", combats=(1, 2, 3), notes=notes, status=status, source="report",
                     created_by="x", created_at=T0, confirm_by=T0 + timedelta(hours=72), decided_by=None,
                     decided_at=None)  # fmt: skip


def total(embed: object) -> int:
    data = embed.to_dict()  # type: ignore[attr-defined]
    return (
        len(data.get("title", ""))
        + len(data.get("description", ""))
        + len(data.get("footer", {}).get("text", ""))
        + sum(len(field["name"]) + len(field["value"]) for field in data.get("fields", []))
    )


def test_a_table_of_two_hundred_players_fits_and_points_to_the_export() -> None:
    rows = tuple(
        Row(player=str(10**17 + n), played=99, won=50, drawn=20, lost=29, points=170, rating=1612.4, rank=n + 1)
        for n in range(200)
    )
    embed = standings_embed(Standings(LEAGUE, 3, rows, 1, cached=True))
    description = embed.description or ""
    assert len(description) <= 4096 and total(embed) <= 6000
    assert description.splitlines()[-1].startswith("… and ") and "/league export" in description
    shown = len(description.splitlines()) - 1
    assert description.splitlines()[-1] == f"… and {200 - shown} more: `/league export` has the whole table."


def test_a_pending_match_has_both_buttons_and_a_settled_one_none() -> None:
    pending = match(7, notes="n" * 500)
    embed = match_embed(pending, LEAGUE)
    assert embed.title == "Match #7: pending" and total(embed) <= 6000
    assert "confirms itself <t:" in embed.fields[-1].value
    view = match_view(pending)
    assert view is not None
    assert [item.custom_id for item in view.children] == ["referee:league:confirm:7", "referee:league:dispute:7"]  # type: ignore[attr-defined]
    assert match_view(match(7, status="confirmed")) is None
    assert "/league-admin resolve match:7" in match_embed(match(7, status="disputed"), LEAGUE).fields[-1].value


def test_long_histories_and_audit_logs_are_cut_to_fit() -> None:
    history = history_embed(LEAGUE, [match(n) for n in range(1, 200)], None)
    assert len(history.description or "") <= 4096
    entries = [AuditEntry(id=n, league_id=1, match_id=n, kind="corrected", actor="5", reason="r" * 300,
                          before={"result": "win", "score": "1-0"}, after={"result": "loss", "score": "0-1"}, at=T0)
               for n in range(40)]  # fmt: skip
    audit = audit_embed(LEAGUE, entries)
    assert len(audit.description or "") <= 4096
    assert "result: win → loss, score: 1-0 → 0-1" in (audit.description or "").splitlines()[0]
