"""Standings and Elo from a list of confirmed matches: the numbers, the order, the tie-breakers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.leagues.standings import START_RATING, MatchResult, Points, compute, elo, expected

T0 = datetime(2026, 11, 1, tzinfo=UTC)


def game(number: int, player: str, opponent: str, result: str) -> MatchResult:
    return MatchResult(number, T0 + timedelta(hours=number), player, opponent, result)


def test_elo_with_the_usual_values() -> None:
    assert expected(1500, 1500) == 0.5
    assert elo(1500, 1500, "win") == (1516.0, 1484.0)
    assert elo(1500, 1500, "draw") == (1500.0, 1500.0)
    # The favourite gains little by winning and loses much by losing (400 points apart: expected 10/11).
    favourite, underdog = elo(1900, 1500, "win")
    assert favourite == pytest.approx(1900 + 32 / 11) and underdog == pytest.approx(1500 - 32 / 11)
    assert elo(1900, 1500, "loss")[0] == pytest.approx(1900 - 32 * 10 / 11)


def test_a_table_counts_results_points_and_ratings_in_the_order_played() -> None:
    rows = compute(["ann", "bob", "cid"], [game(2, "bob", "cid", "draw"), game(1, "ann", "bob", "win")], Points())
    table = {row.player: row for row in rows}
    assert [row.player for row in rows] == ["ann", "cid", "bob"]
    assert (table["ann"].played, table["ann"].won, table["ann"].points) == (1, 1, 3)
    assert (table["bob"].played, table["bob"].drawn, table["bob"].lost, table["bob"].points) == (2, 1, 1, 1)
    # Game 1 first (bob falls to 1484), then bob's draw with the 1500 cid moves bob up and cid down.
    bob_after_draw, cid_after_draw = elo(1484.0, 1500.0, "draw")
    assert table["bob"].rating == pytest.approx(bob_after_draw) and table["cid"].rating == pytest.approx(cid_after_draw)
    assert [match for match, _, _ in table["bob"].history] == [1, 2]
    assert [row.rank for row in rows] == [1, 2, 3]


def test_the_leagues_points_are_used() -> None:
    rows = compute(["ann", "bob"], [game(1, "ann", "bob", "win"), game(2, "ann", "bob", "draw")], Points(2, 1, 0))
    assert [(row.player, row.points) for row in rows] == [("ann", 3), ("bob", 1)]


def test_players_without_games_are_listed_at_1500_and_former_players_who_played_are_kept() -> None:
    rows = compute(["ann", "dee"], [game(1, "ann", "gone", "win")], Points())
    assert [(row.player, row.played, row.rating) for row in rows][1:] == [("dee", 0, START_RATING), ("gone", 1, 1484.0)]


def test_ties_go_to_head_to_head_then_wins_then_rating_then_who_joined_first() -> None:
    # ann and bob both have 4 points; bob beat ann, so bob is ahead despite ann's higher rating order otherwise.
    matches = [
        game(1, "bob", "ann", "win"),
        game(2, "ann", "cid", "win"),
        game(3, "ann", "dee", "draw"),
        game(4, "bob", "dee", "draw"),
        game(5, "cid", "bob", "win"),
    ]
    rows = compute(["ann", "bob", "cid", "dee"], matches, Points())
    assert [(row.player, row.points) for row in rows[:2]] == [("bob", 4), ("ann", 4)]
    # Head to head level (no games between them): more wins first.
    wins = compute(["ann", "bob", "cid", "dee"], [game(1, "ann", "cid", "win"), game(2, "bob", "dee", "draw"),
                   game(3, "bob", "cid", "draw"), game(4, "bob", "dee", "draw")], Points(3, 1, 0))  # fmt: skip
    assert [(row.player, row.points, row.won) for row in wins[:2]] == [("ann", 3, 1), ("bob", 3, 0)]
    # Everything level, no games at all: who joined first.
    assert [row.player for row in compute(["dee", "ann"], [], Points())] == ["dee", "ann"]


def test_ties_on_points_and_wins_go_to_rating() -> None:
    # ann beats the strong cid, bob beats the weak dee: same points, same wins, no games between them.
    matches = [
        game(1, "cid", "eve", "win"),
        game(2, "eve", "dee", "win"),
        game(3, "bob", "dee", "win"),
        game(4, "ann", "cid", "win"),
    ]
    rows = compute(["bob", "ann", "cid", "dee", "eve"], matches, Points())
    table = {row.player: row for row in rows}
    assert table["ann"].points == table["bob"].points == 3 and table["ann"].rating > table["bob"].rating
    assert [row.player for row in rows].index("ann") < [row.player for row in rows].index("bob")


def test_the_same_log_always_gives_the_same_table() -> None:
    matches = [game(n, f"p{n % 7}", f"p{(n * 3 + 1) % 7}", ("win", "draw", "loss")[n % 3]) for n in range(60)]
    matches = [m for m in matches if m.player != m.opponent]
    first = [row.to_dict() for row in compute([f"p{n}" for n in range(7)], matches, Points())]
    second = [row.to_dict() for row in compute([f"p{n}" for n in range(7)], list(reversed(matches)), Points())]
    assert first == second
