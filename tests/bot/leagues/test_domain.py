"""The league domain (bot.leagues) is pure and stands alone: no SQLAlchemy, nothing of bot.storage; its
permissions and match transitions work on plain values, with no database at all."""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.access import Actor
from bot.leagues import permissions, transitions
from bot.leagues.errors import LeagueError, NotAllowed
from bot.leagues.model import AUTO, MatchInfo
from rules_core.errors import Mention

LEAGUES = Path(__file__).resolve().parents[3] / "bot" / "leagues"
MODULES = sorted(LEAGUES.rglob("*.py"))
T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            found.add("__import__")
    return found


def test_there_are_modules_to_check() -> None:
    assert {path.name for path in MODULES} >= {"model.py", "errors.py", "rules.py", "permissions.py",
                                               "transitions.py", "standings.py"}  # fmt: skip


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(LEAGUES)))
def test_the_league_domain_imports_no_sql_and_no_storage(path: Path) -> None:
    modules = imported_modules(path)
    assert not {m for m in modules if m.split(".")[0] in {"sqlalchemy", "alembic", "asyncpg", "aiosqlite"}}
    assert not {m for m in modules if m == "bot.storage" or m.startswith("bot.storage.")}
    assert "__import__" not in modules


def test_the_checker_sees_forbidden_imports(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from sqlalchemy import select\nimport bot.storage.leagues\n")
    assert imported_modules(bad) == {"sqlalchemy", "bot.storage.leagues"}


def a_match(status: str = "pending", result: str = "win") -> MatchInfo:
    return MatchInfo(
        id=7, league_id=1, season=1, reporter="ann", opponent="bob", result=result, score=None, combats=(),
        notes="", status=status, source="report", created_by="ann", created_at=T0, confirm_by=None,
        decided_by=None, decided_at=None,
    )  # fmt: skip


def test_only_the_reported_opponent_confirms() -> None:
    change = transitions.confirm(a_match(), Actor("bob"), T0)
    assert (change.kind, change.expect) == ("confirmed", ("pending",))
    assert change.values == {"status": "confirmed", "decided_by": "bob", "decided_at": T0}
    with pytest.raises(NotAllowed, match="You reported match #7: only bob can confirm it") as refused:
        transitions.confirm(a_match(), Actor("ann"), T0)
    assert Mention("bob") in refused.value.parts  # each front end names the user its own way
    with pytest.raises(NotAllowed, match="Only bob, the reported opponent, can dispute match #7"):
        transitions.dispute(a_match(), Actor("cid"), "")


def test_a_second_report_of_a_pair_merges_clashes_or_waits() -> None:
    kind, change = transitions.answer_report(a_match(result="win"), Actor("bob"), "loss", T0)
    assert (kind, change.kind, change.values["status"]) == ("merged", "merged-report", "confirmed")
    kind, change = transitions.answer_report(a_match(result="win"), Actor("bob"), "win", T0)
    assert (kind, change.kind, change.values) == ("conflict", "conflicting-report", {"status": "disputed"})
    with pytest.raises(LeagueError, match="still waiting for their confirmation"):
        transitions.answer_report(a_match(), Actor("ann"), "win", T0)


def test_organisers_act_on_matches_they_did_not_play() -> None:
    permissions.require_neutral(Actor("org"), a_match(), organiser=True, league_name="L", doing="void a match")
    permissions.require_neutral(Actor("ann", manager=True), a_match(), organiser=False, league_name="L", doing="x")
    with pytest.raises(NotAllowed, match="Only the organisers of L can void a match"):
        permissions.require_neutral(Actor("cid"), a_match(), organiser=False, league_name="L", doing="void a match")
    with pytest.raises(NotAllowed, match="You played match #7"):
        permissions.require_neutral(Actor("ann"), a_match(), organiser=True, league_name="L", doing="void a match")


def test_auto_confirmation_and_resolution_say_what_changes() -> None:
    assert transitions.auto_confirm(T0).values == {"status": "confirmed", "decided_by": AUTO, "decided_at": T0}
    assert transitions.resolve("void", Actor("org"), "", T0).values["status"] == "void"
    resolved = transitions.resolve("draw", Actor("org"), "agreed", T0)
    assert (resolved.expect, resolved.values["result"], resolved.reason) == (("disputed",), "draw", "agreed")
    assert "score" not in transitions.correct(Actor("org"), "loss", None, "swapped", T0).values
