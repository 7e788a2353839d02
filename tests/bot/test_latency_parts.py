"""The pieces that keep first answers fast: the per-user rate limit, the collector hold, the parsed-side cache."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot.data import catalogue
from bot.discord.collector import Collector
from bot.discord.cooldown import RateLimit
from rules_core import RefereeError, resolve


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_user_gets_rate_uses_per_window_then_a_wait_that_counts_down() -> None:
    clock = Clock()
    limit = RateLimit(3, 30.0, clock=clock)
    assert [limit.hit("ann") for _ in range(3)] == [None, None, None]
    assert limit.hit("ann") == pytest.approx(30.0)
    clock.now += 10
    assert limit.hit("ann") == pytest.approx(20.0)  # refused uses do not push the wait back
    assert limit.hit("bob") is None  # every user has their own allowance
    clock.now += 20.5
    assert limit.hit("ann") is None


def test_the_window_slides_rather_than_resetting_all_at_once() -> None:
    clock = Clock()
    limit = RateLimit(2, 10.0, clock=clock)
    assert limit.hit("ann") is None
    clock.now += 6
    assert limit.hit("ann") is None
    clock.now += 5  # the first use has left the window, the second has not
    assert limit.hit("ann") is None
    assert limit.hit("ann") == pytest.approx(0.0 + 6 + 10 - 11)


def test_players_who_went_quiet_are_forgotten_without_walking_the_rest() -> None:
    clock = Clock()
    limit = RateLimit(6, 30.0, clock=clock)
    for user in range(1000):
        limit.hit(user)
        clock.now += 0.01
    assert len(limit) == 1000
    clock.now += 25.0  # the first ~500 users' last uses are now older than 30 seconds
    limit.hit("new")
    assert 400 < len(limit) < 600
    clock.now += 31.0
    limit.hit("newer")
    assert len(limit) == 1


def test_a_user_who_came_back_is_kept_by_their_latest_use() -> None:
    clock = Clock()
    limit = RateLimit(6, 30.0, clock=clock)
    limit.hit("ann")
    clock.now += 5
    limit.hit("bob")
    clock.now += 15
    limit.hit("ann")  # ann's latest use is now the newest: bob is the oldest
    clock.now += 16  # bob's only use is 31 s old, ann's latest 16 s
    limit.hit("cid")
    assert sorted(map(str, limit.uses)) == ["ann", "cid"]


@pytest.mark.parametrize(("rate", "per"), [(0, 30.0), (3, 0.0)])
def test_a_rate_limit_that_could_never_allow_anything_is_refused(rate: int, per: float) -> None:
    with pytest.raises(ValueError, match="rate"):
        RateLimit(rate, per)


@pytest.fixture
def collector_enabled() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


@pytest.mark.usefixtures("collector_enabled")
def test_the_collector_waits_while_any_first_answer_is_in_the_making() -> None:
    keeper = Collector()
    first = keeper.hold()
    second = keeper.hold()
    assert not gc.isenabled()
    first.release()
    first.release()  # a second release of the same hold changes nothing
    assert not gc.isenabled()
    with second:
        pass
    assert gc.isenabled()
    assert keeper.holders == 0


@pytest.mark.usefixtures("collector_enabled")
def test_a_hold_is_released_when_the_answer_fails() -> None:
    keeper = Collector()
    with pytest.raises(RuntimeError), keeper.hold():
        raise RuntimeError("a bad spec")
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_enabled")
def test_a_backlog_too_big_is_collected_even_while_held() -> None:
    keeper = Collector(backlog=100)
    gc.collect()
    with keeper.hold():
        assert keeper.forced == 0
        kept = [[] for _ in range(1000)]  # tracked objects pile up while the collector waits
        with keeper.hold():
            assert keeper.forced == 1
        assert not gc.isenabled()
    assert gc.isenabled()
    assert len(kept) == 1000


def test_a_collector_already_off_is_left_off() -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        with Collector().hold():
            pass
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


def test_a_cached_side_resolves_exactly_as_its_text_does() -> None:
    game = catalogue().game("40k")
    attacker = "10x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
    defender = "12x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"
    first = catalogue().parsed_side("40k", attacker)
    assert catalogue().parsed_side("40k", attacker) is first  # parsed once
    from_text = resolve(game, attacker, defender, seed=99, charge_distance=4.0)
    from_cache = resolve(game, first, catalogue().parsed_side("40k", defender), seed=99, charge_distance=4.0)
    assert from_cache.to_json() == from_text.to_json()


def test_a_bad_spec_is_refused_every_time_not_cached() -> None:
    for _ in range(2):
        with pytest.raises(RefereeError):
            catalogue().parsed_side("40k", "10x Marine: WS4 S4")
