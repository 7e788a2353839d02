"""Model counts written the common ways, and stat keys in any case: never a different number of models than meant."""

from __future__ import annotations

import pytest

from rules_core import SpecError, all_games, get_game, resolve
from rules_core.errors import LimitError, RefereeError
from rules_core.games.wh40k.spec import format_side, parse_side
from rules_core.registry import Game
from rules_core.spec import group_head, parse_side_spec, split_groups, split_units

from .helpers40k import MARINE
from .helpers_duel import GAME

EXAMPLE = "10x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+"

COUNT_FORMS = [
    "10x Tactical Marine",
    "10 x Tactical Marine",
    "10X Tactical Marine",
    "10× Tactical Marine",
    "10 × Tactical Marine",
    "10 Tactical Marine",
    "Tactical Marine x10",
    "Tactical Marine X10",
    "Tactical Marine ×10",
    "Tactical Marine × 10",
    "Tactical Marine x 10",
    "Tactical Marine×10",
]


@pytest.mark.parametrize("head", COUNT_FORMS)
def test_every_common_way_of_writing_a_count_reads_ten_models(head: str) -> None:
    (unit,) = parse_side_spec(f"{head}: WS4", example=EXAMPLE).units
    (group,) = unit.groups
    assert (group.count, group.name) == (10, "Tactical Marine")
    side = parse_side(f"{head}: {MARINE}")
    assert side.models == 10
    assert side.units[0].name == "Tactical Marine"


def test_no_count_is_one_model_and_names_may_hold_numbers() -> None:
    for head, name in [
        ("Captain", "Captain"),
        ("2nd Platoon", "2nd Platoon"),
        ("Squad 7", "Squad 7"),
        ("Max", "Max"),
        ("Ork Boy (Big)", "Ork Boy (Big)"),
        ("Xenos", "Xenos"),
    ]:
        (group,) = parse_side_spec(f"{head}: WS4", example=EXAMPLE).units[0].groups
        assert (group.count, group.name) == (1, name), head


def test_a_name_that_begins_with_a_number_is_written_after_an_explicit_count() -> None:
    (group,) = parse_side_spec("1x 88 Gunners: WS4", example=EXAMPLE).units[0].groups
    assert (group.count, group.name) == (1, "88 Gunners")
    (group,) = parse_side_spec("3x 4x4 Truck: WS4", example=EXAMPLE).units[0].groups
    assert (group.count, group.name) == (3, "4x4 Truck")
    # A bare leading number is always the count.
    (group,) = parse_side_spec("88 Gunners: WS4", example=EXAMPLE).units[0].groups
    assert (group.count, group.name) == (88, "Gunners")


@pytest.mark.parametrize(
    ("head", "mentions"),
    [
        ("10x Marine x10", "two counts"),
        ("10 Marine x5", "two counts"),
        ("10x Marine ×10", "two counts"),
        ("Marine x10 Veteran", "count"),
        ("Marine (x10)", "count"),
        ("Marine (10x)", "count"),
        ("10xMarine", "10x Marine"),
        ("x10 Marine", "count"),
        ("10x", "no name"),
        ("10", "no name"),
        ("Marine x0", "at least one"),
    ],
)
def test_counts_that_cannot_be_read_one_way_are_refused_with_an_example(head: str, mentions: str) -> None:
    with pytest.raises(SpecError) as error:
        parse_side_spec(f"{head}: WS4", example=EXAMPLE)
    assert mentions.lower() in str(error.value).lower()
    assert "Example:" in str(error.value)


def test_a_trailing_count_is_bounded_like_a_leading_one() -> None:
    with pytest.raises(LimitError):
        parse_side_spec("Marine x99999999: WS4", example=EXAMPLE)


@pytest.mark.parametrize("game", [game.id for game in all_games()])
def test_canonical_inputs_of_every_game_keep_the_count_written_at_the_end(game: str) -> None:
    chosen = GAME if game == "duel" else get_game(game)
    attacker = chosen.example_attacker
    head, _, rest = attacker.partition(":")
    spec = parse_side_spec(head + ":", example=EXAMPLE).units[0].groups[0]
    moved = f"{spec.name} x{spec.count}:{rest}"
    report = resolve(chosen, moved, chosen.example_defender, seed=3, **dict(chosen.example_options))
    original = resolve(chosen, attacker, chosen.example_defender, seed=3, **dict(chosen.example_options))
    assert report.inputs.attacker == original.inputs.attacker


def test_canonical_text_of_a_name_beginning_with_a_number_round_trips() -> None:
    side = parse_side(f"1x 88 Gunners: {MARINE} | 2nd Squad x5: {MARINE}")
    assert [unit.models for unit in side.units] == [1, 5]
    assert parse_side(format_side(side)) == side


def test_the_summary_of_a_side_says_the_counts_as_read() -> None:
    from rules_core.spec import side_summary

    text = f"9 Tactical Marine: {MARINE} ; Sergeant: {MARINE} | Warlock x1: {MARINE}"
    assert side_summary(text) == "9× Tactical Marine, 1× Sergeant | 1× Warlock"


# ---------------------------------------------------------------------------------------------- stat keys, any case

STAT_LINES = [
    # (game, capitals as the rules write them, the same stats in other cases)
    ("40k", "WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ Inv5+", "ws4 s4 t4 w1 i4 a1 ld8 sv3+ inv5+"),
    ("40k", "WS4 S4 T4 W1 I4 A1 Ld8 Sv-", "Ws4 s4 T4 w1 I4 a1 LD8 SV-"),
    ("duel", "M4 WS4 BS4 S4 T4 W1 I4 A2 Ld8 Sv3+", "m4 ws4 bs4 s4 t4 w1 i4 a2 ld8 sv3+"),
    ("epic", "CC4+ FF4+ Sv4+ INF", "cc4+ ff4+ sv4+ INF"),
    ("epic", "CC3+ FF4+ Sv5+ WE DC3", "cc3+ Ff4+ SV5+ we dc3"),
    ("reikhammer", "CC4 FF3 Sv5+ INF", "cc4 ff3 sv5+ inf"),
]


@pytest.mark.parametrize(("game", "capitals", "other_case"), STAT_LINES)
def test_stat_keys_are_case_insensitive_and_the_canonical_form_keeps_the_capitals(
    game: str, capitals: str, other_case: str
) -> None:
    chosen = GAME if game == "duel" else get_game(game)
    expected = chosen.parse_side(f"2x Trooper: {capitals}")
    side = chosen.parse_side(f"2x Trooper: {other_case}")
    assert side == expected
    assert chosen.format_side(side) == chosen.format_side(expected)


def _known_keywords(game: str) -> tuple[str, ...]:
    from rules_core.games.boltaction import spec as boltaction
    from rules_core.games.duel import spec as duel
    from rules_core.games.formation import spec as formation
    from rules_core.games.wh40k import spec as wh40k

    # The keywords `referee help` documents (a keyword added there is checked too), and the modules' own lists.
    documented = tuple(
        word
        for doc in (GAME if game == "duel" else get_game(game)).tokens
        if doc.kind == "keyword" and doc.token != "weapon names"
        for word in doc.token.replace(" / ", " ").split()
    )
    return (
        documented
        + {
            "40k": wh40k.KEYWORDS,
            "duel": (*duel.FLAGS, *GAME.armoury.names),
            "epic": (*formation.SPECIALS, *(t.value for t in formation.UnitType)),
            "reikhammer": (*formation.SPECIALS, *(t.value for t in formation.UnitType)),
            "boltaction": (*boltaction.KEYWORDS, *(q.value for q in boltaction.Quality)),
        }.get(game, ())  # another game: the keywords its help documents
    )


@pytest.mark.parametrize("game", [game.id for game in all_games()])
def test_no_keyword_a_game_knows_is_read_as_a_stat(game: str) -> None:
    chosen = GAME if game == "duel" else get_game(game)
    example = chosen.example_attacker
    for keyword in _known_keywords(game):
        words = [keyword, keyword.lower()] if keyword.isupper() else [keyword]
        for word in words:
            head, _, rest = example.partition(":")
            text = f"{head}:{rest} {word}"
            # Accepted, or refused for what it means in this group (twice, not for this unit), never as a stat.
            assert "stat" not in _refusal(chosen, text).lower(), word


def _refusal(game: Game, text: str) -> str:
    try:
        game.parse_side(text)
    except RefereeError as error:  # a SpecError, or "not supported yet" for a vehicle
        return error.message
    return ""


@pytest.mark.parametrize(
    ("game", "token", "suggestion"),
    [
        ("40k", "Sb3+", "Sv3+"),
        ("40k", "sb3+", "Sv3+"),
        ("40k", "WB4", "WS4"),
        ("40k", "SW4", "WS4"),
        ("40k", "Lf8", "Ld8"),
        ("40k", "In4+", "Inv4+"),
        ("duel", "Sb3+", "Sv3+"),
        ("duel", "wz4", "WS4"),
        ("epic", "Sb4+", "Sv4+"),
        ("epic", "Cc4+", None),  # accepted: CC in another case
        ("reikhammer", "sb5+", "Sv5+"),
    ],
)
def test_near_misses_get_the_right_stat_suggested(game: str, token: str, suggestion: str | None) -> None:
    chosen = GAME if game == "duel" else get_game(game)
    base = {
        "40k": "WS4 S4 T4 W1 I4 A1 Ld8 Sv3+",
        "duel": "WS4 S4 T4 W1 I4 A2 Sv3+",
        "epic": "CC4+ FF4+ INF",
        "reikhammer": "CC4 FF3 INF",
    }[game]
    key = next(k for k in ("Sv", "WS", "Ld", "Inv") if suggestion and suggestion.startswith(k)) if suggestion else ""
    words = [w for w in base.split() if not (key and w.startswith(key) and w[len(key) :][:1].isdigit())]
    if key == "WS":
        words = [w for w in words if not w.startswith("WS")]
    text = f"2x Trooper: {' '.join(words)} {token}"
    if suggestion is None:
        chosen.parse_side(f"2x Trooper: {token} FF4+ Sv4+ INF")
        return
    with pytest.raises(SpecError) as error:
        chosen.parse_side(text)
    assert f"Did you mean '{suggestion}'?" in error.value.message
    assert "Example:" in str(error.value)


def test_keywords_in_capitals_are_keywords_not_stats() -> None:
    assert parse_side(f"1x Sergeant: {MARINE} Power-Fist") == parse_side(f"1x Sergeant: {MARINE} power-fist")
    with pytest.raises(SpecError) as error:
        parse_side(f"1x Sergeant: {MARINE} Power-Sword")
    assert "Unknown keyword 'Power-Sword'" in error.value.message
    assert "stat" not in error.value.message


def test_an_inline_weapon_strength_is_read_in_any_case() -> None:
    upper = GAME.parse_side("Nob: WS4 S4 T4 W2 I3 A2 Sv5+ weapon=choppa/S+1/dmg=1/sv=-1/cc")
    assert GAME.parse_side("Nob: ws4 s4 t4 w2 i3 a2 sv5+ weapon=choppa/s+1/dmg=1/sv=-1/cc") == upper
    assert GAME.parse_side("Nob: WS4 S4 T4 W2 I3 A2 Sv5+ weapon=axe/s5/cc") == GAME.parse_side(
        "Nob: WS4 S4 T4 W2 I3 A2 Sv5+ weapon=axe/S5/cc"
    )


def test_a_number_in_brackets_after_the_name_is_refused_unless_a_count_is_given() -> None:
    with pytest.raises(SpecError) as error:
        parse_side_spec("Ork Boyz (20): WS4", example=EXAMPLE)
    assert "Ork Boyz x20" in error.value.message
    assert "Example:" in str(error.value)
    (group,) = parse_side_spec("1x Ork Boyz (20): WS4", example=EXAMPLE).units[0].groups
    assert (group.count, group.name) == (1, "Ork Boyz (20)")
    (group,) = parse_side_spec("Ork Boyz (20) x2: WS4", example=EXAMPLE).units[0].groups
    assert (group.count, group.name) == (2, "Ork Boyz (20)")


def test_a_name_beginning_with_a_large_number_is_told_how_to_write_it() -> None:
    with pytest.raises(LimitError, match=r"If '1944 Volunteers' is a name, give the count first: 1x 1944 Volunteers"):
        parse_side_spec("1944 Volunteers: regular", example="1x 1944 Volunteers: regular")
    with pytest.raises(LimitError) as refused:
        parse_side_spec("250x Volunteers: regular", example="10x Volunteers: regular")
    assert "give the count first" not in str(refused.value)


@pytest.mark.parametrize("written", ["engaged = 5", "engaged =5", "engaged= 5"])
def test_a_setting_written_with_spaces_is_named_whole_with_its_fix(written: str) -> None:
    with pytest.raises(SpecError, match=r"write a setting with no spaces around '=', as engaged=5") as refused:
        parse_side_spec(f"10x Marine: WS4 {written}", example="10x Marine: WS4 engaged=5")
    assert refused.value.token == " ".join(written.split())


def test_the_front_ends_split_units_and_groups_as_the_parser_does() -> None:
    text = "10x Tactical Marine: WS4; Sergeant: WS4 | Warlock x2: WS5"
    side = parse_side_spec(text, example=EXAMPLE)
    units = split_units(text)
    assert len(units) == len(side.units)
    for unit_text, unit in zip(units, side.units, strict=True):
        groups = split_groups(unit_text)
        assert [group_head(group) for group in groups] == [(group.count, group.name) for group in unit.groups]
