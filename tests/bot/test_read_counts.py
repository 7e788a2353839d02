"""Property: in every game, the models the report says it read are the models the count tokens give (no silent 1).

Sides are generated with each group's count written one of the accepted ways (``10x Name``, ``10 Name``,
``Name x10``, ``Name ×10``...) and their stats in capitals or lower case, resolved with seeded dice, and checked
three ways: the canonical inputs re-read to the same groups, the renderers' "Read" line adds up to the same number
of models, and the result's lost and remaining models (units in the formation games) add up to it too.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.data import catalogue
from bot.render.summary import read_lines
from rules_core import all_games, get_game, resolve
from rules_core.spec import parse_side_spec, side_summary

COUNT_FORMS = (
    "{n}x {name}",
    "{n} x {name}",
    "{n}X {name}",
    "{n}× {name}",
    "{n} × {name}",
    "{n} {name}",
    "{name} x{n}",
    "{name} X{n}",
    "{name} x {n}",
    "{name} ×{n}",
    "{name}×{n}",
    "{name} × {n}",
)
NAMES = ("Tactical Marine", "Ork Boy", "Nob", "Xenos", "Max", "2nd Platoon", "Squad 7", "Grey Knight", "X-Wing Pilot")

# Per game: the group's tokens, the most models a group may hold here and the most groups a side may hold. A game
# not listed (a new one) is read from its example attacker's first group: its tokens, up to its count, one group.
GAMES = {
    "40k": ("WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", 12, 4),
    "duel": ("WS4 S4 T4 W1 I4 A1 Sv-", 3, 3),
    "boltaction": ("regular", 12, 1),
    "epic": ("CC4+ FF4+ Sv4+ INF", 8, 3),
    "reikhammer": ("CC4 FF3 Sv5+ INF", 8, 3),
}


def shape(game_id: str) -> tuple[str, int, int]:
    if game_id in GAMES:
        return GAMES[game_id]
    group = parse_side_spec(get_game(game_id).example_attacker, example="").units[0].groups[0]
    return " ".join(token.text for token in group.tokens), group.count, 1


@st.composite
def sides(draw: st.DrawFn, game_id: str) -> tuple[str, list[tuple[int, str]]]:
    tokens, most, groups = shape(game_id)
    tokens = draw(st.sampled_from((tokens, tokens.lower())))  # stat keys are read in any case
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=groups, unique=True))
    written: list[tuple[int, str]] = []
    parts = []
    for name in names:
        count = draw(st.integers(1, most))
        form = draw(st.sampled_from(COUNT_FORMS + (("{name}",) if count == 1 else ())))
        parts.append(f"{form.format(n=count, name=name)}: {tokens}")
        written.append((count, name))
    separators = [draw(st.sampled_from(("|", ";"))) for _ in parts[1:]]
    text = parts[0] + "".join(f" {sep} {part}" for sep, part in zip(separators, parts[1:], strict=True))
    return text, written


def models_in_read_line(line: str) -> list[tuple[int, str]]:
    _, _, groups = line.partition(": ")
    read = []
    for group in re.split(r" \| |, ", groups):
        count, _, name = group.partition("× ")
        read.append((int(count), name))
    return read


def check(game_id: str, side: tuple[str, list[tuple[int, str]]], seed: int) -> None:
    game = catalogue().game(game_id)
    text, written = side
    models = sum(count for count, _ in written)
    # A duel is fought around one model: against several attackers, the defender is one model.
    defender = "Champion: WS4 S4 T4 W1 I4 A1 Sv-" if game_id == "duel" else game.example_defender
    report = resolve(game, text, defender, seed=seed, **dict(game.example_options))
    # The canonical input re-parses to exactly the same side.
    assert game.format_side(game.parse_side(report.inputs.attacker)) == report.inputs.attacker
    canonical = side_summary(report.inputs.attacker)
    assert models_in_read_line(f"attacker: {canonical}") == written
    assert models_in_read_line(read_lines(report)[0]) == written
    assert report.result.attacker.lost + report.result.attacker.remaining == models


def _property(game_id: str):  # type: ignore[no-untyped-def]
    @settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(side=sides(game_id), seed=st.integers(0, 2**31))
    def test(side: tuple[str, list[tuple[int, str]]], seed: int) -> None:
        check(game_id, side, seed)

    return test


for _game in all_games():  # one property per registered game: test_40k_reads_every_count...
    globals()[f"test_{_game.id}_reads_every_count"] = _property(_game.id)


def test_every_registered_game_is_covered() -> None:
    assert all(callable(globals().get(f"test_{game.id}_reads_every_count")) for game in all_games())
    assert set(GAMES) <= {game.id for game in all_games()}  # no entry left for a game that is gone
