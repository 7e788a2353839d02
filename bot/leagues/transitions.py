"""A league match's life: reported (pending), then confirmed, disputed, resolved, voided or corrected.

Each function checks that the change is allowed for the actor and says what it is: the audit event's kind, the
states the match must still be in, the values that change, and the reason logged. The store applies it as one
conditional update (``... WHERE status IN expect``), so of two concurrent changes exactly one takes effect.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from bot.access import Actor
from bot.leagues.errors import LeagueError, MatchStateError
from bot.leagues.model import AUTO, Decision, MatchInfo
from bot.leagues.permissions import require_opponent
from bot.leagues.standings import FLIPPED
from rules_core.errors import Mention


@dataclass(frozen=True, slots=True)
class Transition:
    kind: str  # the audit event
    expect: tuple[str, ...]  # the states the match must still be in
    values: dict[str, Any] = field(default_factory=dict)  # the match's changed values, by column
    reason: str = ""


def confirm_by(reported_at: datetime, confirm_hours: int) -> datetime:
    """When an unanswered report confirms itself."""
    return reported_at + timedelta(hours=confirm_hours)


def confirm(match: MatchInfo, actor: Actor, at: datetime) -> Transition:
    require_opponent(match, actor, "confirm")
    return Transition("confirmed", ("pending",), {"status": "confirmed", "decided_by": actor.user, "decided_at": at})


def dispute(match: MatchInfo, actor: Actor, reason: str) -> Transition:
    require_opponent(match, actor, "dispute")
    return Transition("disputed", ("pending",), {"status": "disputed"}, reason)


def auto_confirm(at: datetime) -> Transition:
    """A pending report nobody answered within the league's window."""
    return Transition(
        "auto-confirmed", ("pending",), {"status": "confirmed", "decided_by": AUTO, "decided_at": at},
        "not confirmed or disputed within the league's window",
    )  # fmt: skip


def resolve(decision: Decision, actor: Actor, reason: str, at: datetime) -> Transition:
    """An organiser settles a dispute: the reporter's result stands or changes (``decision``), or the match is void."""
    values: dict[str, Any] = {"decided_by": actor.user, "decided_at": at}
    values |= {"status": "void"} if decision == "void" else {"status": "confirmed", "result": decision}
    return Transition("dispute-resolved", ("disputed",), values, reason)


def void(actor: Actor, reason: str, at: datetime) -> Transition:
    values = {"status": "void", "decided_by": actor.user, "decided_at": at}
    return Transition("voided", ("pending", "confirmed", "disputed"), values, reason)


def correct(actor: Actor, result: str, score: str | None, reason: str, at: datetime) -> Transition:
    """A confirmed match's result (the reporter's) and, when given, its score change."""
    values: dict[str, Any] = {"result": result, "decided_by": actor.user, "decided_at": at}
    if score is not None:
        values["score"] = score
    return Transition("corrected", ("confirmed",), values, reason)


def answer_report(
    waiting: MatchInfo, actor: Actor, result: str, at: datetime
) -> tuple[Literal["merged", "conflict"], Transition]:
    """A report of a pair that has a pending one: the same game from the other side, agreeing or not.

    Never two pending reports of one pair: the reporter of the pending one waits for it to be settled.
    """
    if waiting.reporter == actor.user:
        raise LeagueError(
            [
                "Your game against ", Mention(waiting.opponent), f" (match #{waiting.id}) is still waiting for their "
                "confirmation: report the next once it is settled, or ask an organiser to enter it.",
            ]
        )  # fmt: skip
    if FLIPPED[result] == waiting.result:
        return "merged", Transition(
            "merged-report", ("pending",), {"status": "confirmed", "decided_by": actor.user, "decided_at": at},
            f"<@{actor.user}> reported the same game with the same result",
        )  # fmt: skip
    return "conflict", Transition(
        "conflicting-report", ("pending",), {"status": "disputed"},
        f"<@{actor.user}> reported the same game as a {result} for them",
    )  # fmt: skip


def require_nothing_pending(waiting: int | None) -> None:
    """An organiser's entry waits while the pair has a pending report (it may be this very game)."""
    if waiting is not None:
        raise LeagueError(
            f"Match #{waiting} between them is waiting for confirmation: settle it first (it may be this "
            "very game), so nothing is counted twice."
        )


def refused(match_id: int, current: str | None) -> MatchStateError:
    """The error for a change that found the match no longer in an expected state."""
    return MatchStateError(f"Match #{match_id} is already {current}: nothing was changed.")


__all__ = [
    "Transition",
    "answer_report",
    "auto_confirm",
    "confirm",
    "confirm_by",
    "correct",
    "dispute",
    "refused",
    "require_nothing_pending",
    "resolve",
    "void",
]
