"""The league domain's plain values: who acts, a league, a match, an audit entry, a season's standings.

Frozen dataclasses, built by the store from its rows and handed to the front ends; nothing here knows SQL.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Literal

from bot.leagues.standings import Points, Row

AUTO = "auto"  # the actor of automatic confirmations
Decision = Literal["win", "draw", "loss", "void"]


@dataclass(frozen=True, slots=True)
class LeagueInfo:
    id: int
    guild_id: str
    name: str
    game: str
    points: Points
    confirm_hours: int
    season: int
    season_open: bool
    version: int
    created_by: str
    created_at: datetime
    organisers: tuple[str, ...]
    players: tuple[str, ...]  # current players, in the order they (first) joined
    require_agreed: bool = False  # reports may list only combats both players agreed to (issue 24)

    def settings(self) -> dict[str, Any]:
        return {"name": self.name, "points": [self.points.win, self.points.draw, self.points.loss],
                "confirm_hours": self.confirm_hours, "require_agreed": self.require_agreed}  # fmt: skip


@dataclass(frozen=True, slots=True)
class MatchInfo:
    id: int
    league_id: int
    season: int
    reporter: str
    opponent: str
    result: str  # the reporter's
    score: str | None
    combats: tuple[int, ...]
    notes: str
    status: str
    source: str
    created_by: str
    created_at: datetime
    confirm_by: datetime | None
    decided_by: str | None
    decided_at: datetime | None

    def state(self) -> dict[str, Any]:
        """What the audit log keeps before and after a change."""
        return {"status": self.status, "reporter": self.reporter, "opponent": self.opponent, "result": self.result,
                "score": self.score, "combats": list(self.combats), "notes": self.notes,
                "decided_by": self.decided_by}  # fmt: skip


@dataclass(frozen=True, slots=True)
class MatchPost:
    """Where a match was reported: its server, and its message's channel and id (None for a match entered by an
    organiser, or reported before the referee kept them)."""

    guild_id: str
    channel_id: str | None
    message_id: str | None


@dataclass(frozen=True, slots=True)
class Reminder:
    """A pending match whose opponent is to be reminded, once, that it will confirm itself."""

    match: MatchInfo
    post: MatchPost


@dataclass(frozen=True, slots=True)
class KnownName:
    """A player's display name in a server, and when it was last seen or fetched."""

    name: str
    fetched_at: datetime


@dataclass(frozen=True, slots=True)
class ReportOutcome:
    """What a report did: created a pending match, merged into the opponent's report, or clashed with it."""

    kind: Literal["created", "merged", "conflict"]
    match: MatchInfo


@dataclass(frozen=True, slots=True)
class Agreement:
    """What a combat record says of its agreement (``agreed_json``, issue 24): the challenge it was resolved from,
    who challenged whom, and when each accepted (ISO strings as stored); where it was accepted (``by``: discord or
    terminal) and whether its dice still hold to the commitment made before they were rolled (``holds``:
    bot/seals.py). A record without one was not agreed."""

    record_id: int
    challenge_id: int | None
    challenger: str | None
    opponent: str | None
    challenger_ok_at: str | None
    opponent_ok_at: str | None
    by: str | None = None
    holds: bool = False

    @property
    def counts(self) -> bool:
        """Whether a league counts it as agreed (and marks it so): its dice hold to their commitment, and it was
        accepted on Discord. A terminal challenge proves that the seed was fixed before ``referee accept`` ran, not
        that the opponent agreed: whoever holds the challenge file and the database runs it, so its acceptance is
        the challenger's word (docs/challenges.md). On Discord the opponent presses Accept themself."""
        return self.holds and self.by == "discord"

    def between(self, one: str, other: str) -> bool:
        """Whether the two who agreed are ``one`` and ``other``, either way round."""
        return {self.challenger, self.opponent} == {one, other} and one != other


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    league_id: int
    match_id: int | None
    kind: str
    actor: str
    reason: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    at: datetime

    def changes(self) -> list[tuple[str, Any, Any]]:
        """(key, before, after) for every value the change moved; empty unless both states were kept."""
        if self.before is None or self.after is None:
            return []
        return [(key, self.before.get(key), value) for key, value in self.after.items()
                if self.before.get(key) != value]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Standings:
    league: LeagueInfo
    season: int
    rows: tuple[Row, ...]
    version: int
    cached: bool  # served from the snapshot of this version, not computed now


def pair_key(one: str, other: str) -> str:
    """The two players of a match, in either order: one pending game per pair is keyed on it."""
    return "|".join(sorted((one, other)))


def match_dict(match: MatchInfo) -> dict[str, Any]:
    """A match as JSON-ready values (datetimes in ISO form), for data exports."""
    data = asdict(match)
    for key in ("created_at", "confirm_by", "decided_at"):
        data[key] = None if data[key] is None else data[key].isoformat()
    data["combats"] = list(match.combats)
    return data


__all__ = [
    "AUTO",
    "Agreement",
    "AuditEntry",
    "Decision",
    "KnownName",
    "LeagueInfo",
    "MatchInfo",
    "MatchPost",
    "Reminder",
    "ReportOutcome",
    "Standings",
    "match_dict",
    "pair_key",
]
