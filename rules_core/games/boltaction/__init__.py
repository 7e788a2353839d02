"""Bolt Action (2nd edition) close quarters: an infantry assault from the declaration to the regroup.

Specification: ``shared/rules/bolt-action-close-quarters.txt``; damage values, exceptional damage, Tough
Fighters, assault weapons, Fanatics, reaction fire and the morale check from ``shared/rules/REFERENCE.md``
section 003. User documentation: docs/games/boltaction.md.

Decisions on unclear or unstated points (each also in docs/games/boltaction.md):

1. One unit against one unit, each written as one group with one quality. The player gives the facts the referee
   cannot see as options: ``distance`` (omitted: within reach and more than 6", said in the report; over
   ``rough_ground``, whose reach is 6", within 6": a surprise charge, the target cannot react unless in Ambush),
   ``rough_ground``, ``defended_obstacle``, ``target_has_acted``, ``ambush``, ``out_of_arc``.
2. Reach: more than 12" (6" when the path crosses rough ground or an obstacle) fails to contact; exactly 12"
   goes ahead. A failed assault is a report (``failed_to_contact``, winner ``none``) saying how far they move.
   ``rough_ground`` with ``defended_obstacle`` is refused (``state.check_terrain``), by the referee and the odds:
   a defended obstacle's line is "clear of all terrain except for" that obstacle, so no rough ground crosses it.
3. Reaction fire happens only when the assault reaches, the target has not acted, the assault was declared from
   more than 6" (or the target is in Ambush), the assaulters are not outside the fixed arc (``out_of_arc``) and
   the player gives the number of shots (``reaction_shots``); otherwise the report says why it does not, telling
   shots not given (``None``: "the player gave no reaction shots") from 0 given (the player declared that the unit
   did not fire); the ``no_reaction`` event's ``reaction_shots`` holds which.
4. Reaction to hit: 3+, -1 long range always, -1 per pin on the firers (their spec's ``pins=N``), -1 when they
   are inexperienced, plus ``reaction_modifiers`` for anything else (soft cover -1, hard cover -2, small target
   -1). A natural 1 always misses, so 2+ is the best. A 7+ is a 6 then 4+, 8+ a 6 then 5+, 9+ a 6 then 6; beyond
   that no hit is possible. Hits damage on the assaulters' damage value with no Pen (small arms); a hit unit takes
   one pin.
5. The morale check after reaction fire is taken when that fire leaves the assaulters at half (or less) of their
   number before it: 2D6 <= Morale (8 / 9 / 10 by quality) minus pins, the new pin included; a failure destroys
   the unit (``failed_morale``). Option ``morale_check`` turns it off. Fanatics take no such check ("when a fanatic
   unit loses half of its numbers from enemy fire it does not take a morale check": the Fanatics rule in BSData
   ``BSData/boltaction:Bolt Action 2.gst``, commit d939efb, REFERENCE.md's source); the report says so.
6. Close quarters: one automatic hit per man; damage on the target's damage value (inexperienced 3+, regular 4+,
   veteran 5+; a natural 1 always fails, which these values already imply). Pins have no effect.
7. Tough Fighters (the unit rule, or each man with an assault weapon: ``smg=N``, ``assault-rifle=N``,
   ``pistol=N``): each casualty a Tough Fighter's roll causes earns one extra roll at once; the extra roll earns
   no third. Extra rolls are made only while the target has men left to lose.
8. Exceptional damage (a 6, re-rolled, a 6 again) is rolled only when the target holds a living NCO or officer,
   the only casualty worth choosing, and only until each of them has been picked; the enemy then removes the
   officer, then the NCO. Otherwise the owner removes casualties: plain riflemen first, then men with assault
   weapons, then the NCO, the officer last. The officer, then the NCO, carry the unit's first assault weapons.
9. The first round: the attackers strike, casualties, the survivors strike back; from a defensive position
   (``rough_ground`` or ``defended_obstacle``) it is simultaneous. Every later round is simultaneous: after a
   draw, and after a round lost by Fanatics.
10. The winner caused more casualties in the round; a side wiped out loses whatever it caused; both wiped out at
    once is ``both_destroyed`` (a draw). The loser is destroyed, its survivors counted as casualties
    (``surrendered``), unless it is Fanatics: they fight on until they win or are wiped out.
11. The winner regroups D6" (rolled and reported). Drawn rounds repeat; after 200 (a guard no real fight reaches)
    the referee stops with ``undecided``.
12. Result keys: ``lost`` (men lost, the surrendered included), ``casualties_caused`` (by damage rolls, reaction
    fire included), ``surrendered``, ``destroyed``, ``pins``, ``regroup_inches``.
13. What each roll is for (``roll_kinds``, ``Roll.kind`` and ``Roll.side``): ``reaction_fire`` (the reaction's
    to-hit rolls, the 7+ second roll included, for the defender), ``damage`` (every damage roll, in reaction fire
    and close quarters, Tough Fighters' extra rolls included, for the side whose men strike),
    ``exceptional_damage`` (each damage 6 re-rolled, for the striker), ``leadership`` (the morale check, for the
    unit taking it) and ``regroup_distance`` (the winner's D6").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules_core.dice import DiceSource
from rules_core.errors import OptionName, example
from rules_core.games.boltaction import spec
from rules_core.games.boltaction.engine import resolve
from rules_core.games.boltaction.state import ROLL_KINDS
from rules_core.options import NearMiss, OptionSpec, OptionType, OptionValue
from rules_core.registry import Chart, Game, OutcomeWords, Tallied, TokenDoc, register
from rules_core.report import Report
from rules_core.table import TableSummary

if TYPE_CHECKING:
    from rules_core.odds.model import Odds

WORDS = OutcomeWords(
    loser_fates={
        "destroyed": "was destroyed",
        "shot_down": "was shot down by reaction fire",
        "failed_morale": "failed its morale check under fire and was destroyed",
    },
    drawn={
        "both_destroyed": "Draw: both sides were wiped out",
        "undecided": "Undecided: the referee stopped after its limit of drawn rounds",
    },
    tallied=(Tallied("casualties_caused", "caused {n} casualty", "caused {n} casualties"),),
)

# Names players give for what Bolt Action writes another way (40K's --charge-distance, --cover; a unit's pins).
_NEAR_DISTANCE = (
    NearMiss(
        "charge_distance", ("In Bolt Action it is the inches between the closest models when the assault is declared.",)
    ),
)
_NEAR_MODIFIERS = (
    NearMiss(
        "cover",
        (
            "Cover from the reaction fire is a to-hit modifier: give -1 for soft cover, -2 for hard cover (-1 more "
            "for a small target); defenders behind an obstacle or across rough ground are ",
            OptionName("defended_obstacle"),
            " or ",
            OptionName("rough_ground"),
            ".",
        ),
    ),
    NearMiss(
        "pins",
        (
            "Pins are a unit's own: write pins=N in its spec (6x Volksgrenadiers: inexperienced pins=2); the reaction "
            "fire and the morale check count them.",
        ),
        suggest=False,
    ),
)

OPTIONS = (
    OptionSpec(
        "distance",
        OptionType.FLOAT,
        None,
        'Inches between the closest models when the assault is declared. Omitted: in reach and more than 6" (over '
        'rough ground, 6" or less: a surprise charge).',
        minimum=0.0,
        maximum=200.0,
        brief='Inches apart when the assault is declared. Omitted: in reach, over 6" (rough ground: 6" or less).',
        example=example(distance=9),
        also=_NEAR_DISTANCE,
    ),
    OptionSpec(
        "rough_ground",
        OptionType.BOOL,
        False,
        'The path crosses rough ground or an obstacle: 6" reach, and the defenders fight from a defensive position.',
        brief='The path crosses rough ground or an obstacle: 6" reach; the defenders are in a defensive position.',
        example=example(distance=5, rough_ground=True),
    ),
    OptionSpec(
        "defended_obstacle",
        OptionType.BOOL,
        False,
        'The defenders shelter right behind an obstacle on a clear line: full 12" reach, defensive position.',
        example=example(defended_obstacle=True),
    ),
    OptionSpec(
        "target_has_acted",
        OptionType.BOOL,
        False,
        "The target unit has already taken an action this turn: it cannot react.",
        example=example(target_has_acted=True),
    ),
    OptionSpec(
        "ambush",
        OptionType.BOOL,
        False,
        'The target is in Ambush: it reacts even to an assault declared from 6" or less.',
        example=example(distance=5, ambush=True, reaction_shots=8),
    ),
    OptionSpec(
        "reaction_shots",
        OptionType.INT,
        None,
        "Shots the target fires at the assaulters in reaction. Omitted: the target does not react.",
        minimum=0,
        maximum=200,
        example=example(reaction_shots=10),
    ),
    OptionSpec(
        "reaction_modifiers",
        OptionType.INT,
        0,
        "Further to-hit modifiers on the reaction fire (soft cover -1, hard cover -2, small target -1); long range, "
        "the firers' pins and inexperience are applied automatically.",
        minimum=-6,
        maximum=3,
        brief="Other to-hit modifiers on reaction fire (cover -1 or -2, small target -1); the rest are automatic.",
        example=example(reaction_shots=10, reaction_modifiers=-1),
        also=_NEAR_MODIFIERS,
    ),
    OptionSpec(
        "out_of_arc",
        OptionType.BOOL,
        False,
        "The target's reacting weapons have fixed arcs and the assaulters start outside them: no reaction fire.",
        brief="The reacting weapons have fixed arcs and the assaulters start outside them: no reaction fire.",
        example=example(out_of_arc=True),
    ),
    OptionSpec(
        "morale_check",
        OptionType.BOOL,
        True,
        "Assaulters brought to half strength or less by reaction fire test morale (2D6 <= Morale - pins).",
        example=example(morale_check=False),
        variant=True,
    ),
)

TOKENS = (
    TokenDoc(
        "inexperienced / regular / veteran",
        "keyword",
        "The unit's quality (required): damaged on 3+ / 4+ / 5+, Morale 8 / 9 / 10.",
        "10x Infantry: regular",
    ),
    TokenDoc(
        "tough-fighters",
        "keyword",
        "Each casualty a man causes in close quarters earns one extra damage roll (which earns no third).",
        "8x Grenadiers: veteran tough-fighters",
    ),
    TokenDoc(
        "smg=N / assault-rifle=N / pistol=N",
        "setting",
        "N men carry an assault weapon, which makes each of them a Tough Fighter.",
        "6x Volksgrenadiers: inexperienced smg=2",
    ),
    TokenDoc(
        "fanatics",
        "keyword",
        "No morale check for losing half their number to fire; a lost round of close quarters does not destroy "
        "them: they fight on until they win or are wiped out.",
        "10x Banzai Squad: regular fanatics",
    ),
    TokenDoc(
        "nco / officer",
        "keyword",
        "The unit includes an NCO / an officer: the enemy's exceptional damage (6 then 6) picks them.",
        "10x Infantry: regular nco",
    ),
    TokenDoc(
        "pins=N",
        "setting",
        "Pin markers on the unit: -1 each to hit in reaction fire and to its morale check (none in close quarters).",
        "pins=2",
    ),
    TokenDoc("vehicle", "keyword", "Not supported yet: close quarters against vehicles give a clear error.", ""),
)

DAMAGE_CHART = Chart(
    "bolt-action-damage",
    "Bolt Action damage value by the target's quality",
    (),
    lambda: "\n".join(f"{q.value}: damaged on **{q.damage_value}+** (Morale {q.morale})" for q in spec.Quality),
    order=4,
)


class BoltActionCloseQuarters(Game):
    id = "boltaction"
    aliases = ("bolt-action", "ba", "ba2")
    title = "Bolt Action close quarters"
    short_title = "Bolt Action assault"
    command = "closequarters"
    summary = (
        "An infantry assault: reach, surprise, reaction fire and morale, the rounds of close quarters with Tough "
        "Fighters and exceptional damage, draws fought again, the loser destroyed and the winner's regroup."
    )
    docs_page = "docs/games/boltaction.md"
    options = OPTIONS
    tokens = TOKENS
    example_attacker = "8x Grenadiers: veteran smg=2 nco"
    example_defender = "10x Infantry: regular nco"
    example_options: Mapping[str, OptionValue] = {"distance": 9, "reaction_shots": 10}
    spec_shape = "one unit: '[N x] name: quality keywords settings' (one group; a unit assaults one enemy unit)."
    outcome_words = WORDS
    charts = (DAMAGE_CHART,)
    roll_kinds = ROLL_KINDS

    def parse_side(self, text: str) -> spec.Unit:
        return spec.parse_unit(text)

    def format_side(self, side: Any) -> str:
        return spec.format_unit(side)

    def resolve_sides(
        self, attacker: Any, defender: Any, options: Mapping[str, OptionValue], dice: DiceSource
    ) -> Report:
        return resolve(attacker, defender, options, dice)

    def table_summary(self, report: Report) -> TableSummary:
        from rules_core.games.boltaction import table  # noqa: PLC0415 (read only when a result is shown)

        return table.table_summary(report, self.options)

    def exact_odds(self, attacker: Any, defender: Any, options: Mapping[str, Any]) -> Odds:
        from rules_core.games.boltaction import odds  # noqa: PLC0415 (the solver loads on first use)

        return odds.exact(attacker, defender, options)

    def exact_refusal(self, attacker: Any, defender: Any) -> str | None:  # noqa: ARG002
        return None  # the solver takes every assault


GAME = register(BoltActionCloseQuarters())

__all__ = ["GAME", "OPTIONS", "TOKENS", "BoltActionCloseQuarters"]
