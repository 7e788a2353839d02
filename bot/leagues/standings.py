"""Standings and Elo ratings, derived from a season's confirmed matches in the order they were played.

Pure functions over plain values: the store loads the matches, this computes, and the same input always gives
the same table. Nothing is updated in place, so a corrected or voided match can never leave a table behind: the
whole season is computed again from the log.

Scoring: the league's points for a win, a draw and a loss (3/1/0 unless the league says otherwise).
Ratings: Elo, everyone starting at 1500 with K = 32 (the usual club values); a win scores 1, a draw 0.5, a loss
0; both players' ratings move at once, by K x (score - expected), expected = 1 / (1 + 10 ^ ((Rb - Ra) / 400)).
A new season starts everyone at 1500 again, as it starts the points again.

Order (tie-breakers, in turn): points; then the points the tied players took from games among themselves
(head to head); then wins; then rating; then who joined the league first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby
from typing import Any

START_RATING = 1500.0
K_FACTOR = 32.0
RESULTS = ("win", "draw", "loss")
FLIPPED = {"win": "loss", "draw": "draw", "loss": "win"}
SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0}
TIE_BREAKERS = ("points", "head-to-head points", "wins", "rating", "joined first")


@dataclass(frozen=True, slots=True)
class Points:
    win: int = 3
    draw: int = 1
    loss: int = 0

    def of(self, result: str) -> int:
        return self.win if result == "win" else self.draw if result == "draw" else self.loss


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A confirmed match: ``result`` is the first player's (``player``), win, draw or loss."""

    id: int
    at: datetime
    player: str
    opponent: str
    result: str


@dataclass(slots=True)
class Row:
    player: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: int = 0
    rating: float = START_RATING
    rank: int = 0
    history: list[tuple[int, datetime, float]] = field(default_factory=list)  # (match id, when, rating after)

    def add(self, result: str, points: Points) -> None:
        self.played += 1
        self.won += result == "win"
        self.drawn += result == "draw"
        self.lost += result == "loss"
        self.points += points.of(result)

    def to_dict(self) -> dict[str, object]:
        return {
            "rank": self.rank, "player": self.player, "played": self.played, "won": self.won, "drawn": self.drawn,
            "lost": self.lost, "points": self.points, "rating": round(self.rating, 1),
            "history": [[match, when.isoformat(), round(rating, 1)] for match, when, rating in self.history],
        }  # fmt: skip

    @classmethod
    def from_dict(cls, item: dict[str, Any]) -> Row:
        """A row back from :meth:`to_dict` (the store's cached tables)."""
        history = [(int(match), datetime.fromisoformat(when), float(rating)) for match, when, rating in item["history"]]
        return cls(
            player=item["player"], played=item["played"], won=item["won"], drawn=item["drawn"], lost=item["lost"],
            points=item["points"], rating=float(item["rating"]), rank=item["rank"], history=history,
        )  # fmt: skip


def expected(rating: float, other: float) -> float:
    return 1.0 / (1.0 + float(10.0 ** ((other - rating) / 400.0)))


def elo(rating: float, other: float, result: str, k: float = K_FACTOR) -> tuple[float, float]:
    """Both ratings after one game; ``result`` is the first player's."""
    change = k * (SCORES[result] - expected(rating, other))
    return rating + change, other - change


def compute(players: Sequence[str], matches: Iterable[MatchResult], points: Points) -> list[Row]:
    """The standings: one row per player (``players`` in the order they joined, plus anyone else who played).

    ``matches`` must be confirmed ones; they are taken in the order played (time, then id).
    """
    rows: dict[str, Row] = {player: Row(player) for player in players}
    ordered = sorted(matches, key=lambda match: (match.at, match.id))
    head_to_head: dict[tuple[str, str], int] = {}
    for match in ordered:
        first = rows.get(match.player) or rows.setdefault(match.player, Row(match.player))
        second = rows.get(match.opponent) or rows.setdefault(match.opponent, Row(match.opponent))
        other_result = FLIPPED[match.result]
        first.add(match.result, points)
        second.add(other_result, points)
        first.rating, second.rating = elo(first.rating, second.rating, match.result)
        first.history.append((match.id, match.at, first.rating))
        second.history.append((match.id, match.at, second.rating))
        key = (match.player, match.opponent)
        head_to_head[key] = head_to_head.get(key, 0) + points.of(match.result)
        back = (match.opponent, match.player)
        head_to_head[back] = head_to_head.get(back, 0) + points.of(other_result)
    joined = {player: index for index, player in enumerate(rows)}
    ranked: list[Row] = []
    by_points = sorted(rows.values(), key=lambda row: -row.points)
    for _, group in groupby(by_points, key=lambda row: row.points):
        tied = list(group)
        names = {row.player for row in tied}

        def among(row: Row, names: set[str] = names) -> int:
            return sum(head_to_head.get((row.player, other), 0) for other in names if other != row.player)

        tied.sort(key=lambda row: (-among(row), -row.won, -row.rating, joined[row.player]))
        ranked.extend(tied)
    for rank, row in enumerate(ranked, start=1):
        row.rank = rank
    return ranked


__all__ = [
    "FLIPPED",
    "K_FACTOR",
    "RESULTS",
    "START_RATING",
    "TIE_BREAKERS",
    "MatchResult",
    "Points",
    "Row",
    "compute",
    "elo",
    "expected",
]
