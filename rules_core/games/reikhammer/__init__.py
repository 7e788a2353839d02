"""Reikhammer formation assaults (steps I-VII; a fan game derived from Epic: Armageddon, on tiles, with Shock).

Specification: ``shared/rules/reikhammer-assaults.txt``, gaps filled from
``shared/rules/REFERENCE.md`` section 004. The procedure is the shared formation
engine (``rules_core.games.formation``); this module holds Reikhammer's rules
table and options. User documentation: docs/games/reikhammer.md.

Decisions on unclear or unstated points (each also in docs/games/reikhammer.md):

1. The referee runs steps IV-VII. Choosing the target, the charge and the
   counter-charges (I-III) happen on the table: players give each group's
   position (``contact=N`` in close contact, ``ff=N`` within 4 tiles with a line
   of fire). A group with neither is all in contact; the rest of a group given a
   position is not directly engaged. Positions must agree: close contact is
   mutual, so a side with units in contact when the other has none is refused,
   and so is an attacker directly engaged when no defending unit is (supporting
   fire would have nothing to fire at). An attacker with no unit directly
   engaged is not refused: the assault does not take place (decision 18).
2. Formations drawn in by counter-charges (or several assaulted together) fight
   as "a single formation for all rules purposes for the duration of the
   assault", but after it "each winning formation receives" its own Shock and
   "it is possible for a formation to win ... and then become broken": so ``|``
   separates the formations of a side and ``;`` the groups of one. During the
   assault the side is one formation: allocation runs over all its groups, and
   the result counts its units and its Shock together (each formation's, a
   Broken one counting Shock equal to its units). Each formation gives its
   starting Shock with ``shock=N`` on one of its groups (the ``<side>_shock``
   option is for a side of one formation: with several, or with the setting
   too, it is refused with an example); ``<side>_broken`` makes each formation
   Broken. The side counts as Broken before the assault, and is destroyed if
   it loses, only when every formation was ("only destroyed if the
   intermingled formation was considered broken before the assault"). After
   the assault every losing formation is Broken; each other formation gains
   Shock for its own units lost, breaks when that reaches its units left, and
   ends with Shock equal to its units left once Broken (the report's
   ``formations``; the side's ``shock`` is their sum, its ``broken`` whether
   each formation left is). Up to engine 0.2.0 ``|`` only separated groups: a
   record stores its sides with ``;`` only, so it replays and verifies as it
   was made; a roster saved with ``|`` now reads as several formations,
   which changes nothing in the dice, the winner or the outcome, only the
   Shock and breaking after the assault and the summary (and a non-zero
   ``<side>_shock`` with it is refused, asking for ``shock=N`` per formation).
   Supporting formations are options, one formation per ``|``.
3. Attacks hit on a D6 equal to or under the value (the text), so values are
   written without '+': ``CC4 FF3``.
4. Saves: the text says only "as when allocating hits from shooting", and the
   save direction cannot be found: D6 >= Sv by default (as in Epic:
   Armageddon), ``save_direction=under`` for D6 <= Sv (cover saves follow it).
   ``Sv5+`` and ``Sv5`` are the same value; with ``save_direction=under`` the
   report and its canonical inputs write saves without '+' (``Sv3``,
   ``cover=4``), and old inputs written ``Sv3+`` still read the same.
5. Hits are allocated as for shooting: units in contact first, then those in
   range, in the order the groups are listed; no unit takes a second hit before
   every eligible unit has one; only directly engaged units. A war engine takes
   up to its remaining damage capacity in each pass.
6. The specials are Epic: Armageddon's (the text names none): macro-weapon hits
   are allocated apart after the others and deny armour saves, except that
   ``reinforced-armour`` keeps its save without the re-roll (the Macro-Weapon
   rule; ``reinforced_vs_macro=no_save`` denies it too); ``reinforced-armour``
   re-rolls a failed armour save against other hits; after a failed or denied
   armour save one second save, the better of cover (not for the charging
   formation's infantry: the text) and ``invulnerable`` (always 6+, whatever the
   save direction). Reikhammer's result has no Inspiring modifier, so
   ``inspiring`` is refused rather than silently ignored.
7. A unit with FF- within 4 tiles (or CC- in contact) is directly engaged (it can
   be hit) but cannot attack. So is a unit within 4 tiles with no line of fire
   (``no-line-of-fire`` on a group: its ``ff=N`` units): the text makes "within
   4 tiles" directly engaged (hits "only to units ... within 4 tiles of the
   enemy"; an attacker "within 4 tiles of a defending unit" keeps the attack
   from stalling) but needs a line of fire to use the firefight value.
   Supporting formations refuse it: they fire only with a line of fire (``ff=N``
   says how many have one). Supporting fire needs "a line of fire to an enemy
   unit directly involved in the assault", "directly involved" meaning
   "belonging to the attacking or defending formation(s) and in a position to
   attack": an enemy unit that cannot attack where it is (no line of fire, FF-
   within 4 tiles, CC- in contact) is not, so with no enemy unit able to attack
   the supporting formations cannot fire (said in the report). Where some can
   and some cannot, the hits land only on those that can (the text names them
   as the targets); ``support_targets=engaged`` lets them land on every directly
   engaged unit, as the combat attacks' hits do ("as though performing shooting
   attacks").
8. The immediate outcomes (the text): every defending unit killed and at least
   one attacker alive, the attacker wins (the first sentence comes first, so
   attackers left out of the fight still win it when the defenders are all
   dead); every directly engaged attacker killed, the attack stalls and the
   defender wins, even when the defending formation is wiped out too (outcome
   ``both_destroyed``, winner the defender; its supporting formations gain no
   Shock, the attacker's gain 1 each; ``both_wiped_out=draw`` calls it a draw).
   Checked after the attacks only: supporting fire comes after ("If the assault
   has not ended by this point ... work out the result"), so it never stalls
   the attack. After it the result step's rule applies: "if one side has
   completely wiped the other side out, then it is the winner" (both wiped out:
   as above, the report saying "both sides are wiped out by supporting fire"
   and naming the both-wiped-out decision), and otherwise the result is rolled even when no directly engaged
   attacker is left; a tie then starts a round with no attacker within 4 tiles,
   in which the attack stalls before anyone rolls (the referee keeps each
   survivor's position, so that round's words offer no counter-charges:
   counter-charges that would bring attackers back within 4 tiles are a case it
   cannot follow). An immediate win is followed
   by steps VI-VII like a won result roll.
9. The result roll is 2D6 dropping the lowest (the text); ``result_dice=sum``
   adds them.
10. Modifiers: kills include supporting fire and earlier rounds; units remaining
    count the whole formation (never the supporting formations); "double units
    remaining" means at least twice as many by default (``double_means=more_than``
    for strictly more); Shock is the Shock given (none is applied during the
    assault, the text) and a Broken formation counts Shock equal to its units.
11. The loser's extra hits take no save and fall on the whole losing formation:
    contact first, then in range, then the rest; hits beyond the last unit are lost.
12. A tie repeats from step III with the survivors in the positions they had, up
    to ``max_rounds`` (default 5), except that when one side has no unit in
    close contact left, the other side's units in contact have lost every
    contact partner (the referee knows how many units touch, not which): they
    stay the nearest but fight with FF; ``lost_contact=countercharge`` says the
    counter-charges (attacker first) put them back in contact (they keep CC).
    Still tied after ``max_rounds``, the referee's cap (the rules would fight
    on): the referee calls it a draw (``tied``) and says so; neither side
    withdraws, and each side not already Broken gains Shock per unit lost.
13. The loser is Broken and withdraws, or is destroyed if it was Broken already;
    a Broken formation is reported with Shock equal to its units left (never
    more). Each of the losing side's supporting formations "that could have
    provided supporting fire" gains 1 Shock: one with no unit able to fire
    (``ff=0`` on every group) could not, and gains none.
14. A formation is Broken when its Shock reaches its units (the Epic analogy;
    the threshold is not on the assault page), a war engine counting its DC:
    before the assault that makes it Broken whether or not ``<side>_broken`` is
    given, so it is destroyed if it loses, and as a winner it gains no Shock and
    ends with Shock equal to its units left. Otherwise the winner gains 1 Shock
    per unit it lost; a winner Broken so does not withdraw, and ends with Shock
    equal to its units left (never more: decision 13).
15. War engines (``WE DC=N``) as in Epic: Armageddon: each unsaved hit removes one
    damage capacity; for the result, Shock and breaking they count their
    remaining DC as units and each DC lost as a unit killed (the report calls
    them damage points, not units, as Epic's decision 14 says).
16. ``extra-attacks=N`` adds N dice to every attack of the unit.
17. The withdrawal (the rules for broken formations, not on the assault page) and
    the winner's 1-tile move are instructions, not resolved. The assault page has
    no rally rule, so the referee gives no rally instruction.
18. An assault in which no attacking unit is within 4 tiles does not take place
    (outcome ``no_assault``), as the text says of the charge.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.errors import example
from rules_core.games.formation.game import ROLL_KINDS, FormationGame, common_options, token_docs
from rules_core.games.formation.rules import DoubleMeans, FormationRules
from rules_core.options import OptionSpec, OptionType, OptionValue
from rules_core.registry import register
from rules_core.report import Op

RULES = FormationRules(
    game_id="reikhammer",
    game_name="Reikhammer",
    hit_op=Op.AT_MOST,
    engagement_range="4 tiles",
    marker="Shock",
    markers="Shock",
    marker_key="shock",
    inspiring_modifier=False,
    engaged_without_line_of_fire=True,
    support_needs_attacker=True,
    several_formations=True,
    double_means=DoubleMeans.AT_LEAST,
    both_wiped_out="defender",
    consolidation="Any units on the winning side may move 1 tile; they may not enter an enemy zone of control.",
    withdrawal="The survivors make an immediate withdrawal as the rules for broken formations explain.",
    counter_charge="Both sides may counter-charge, the attacker first; the referee keeps each survivor in its position "
    "(contact= / ff=), except that units left with no enemy in close contact fight with FF (unless the lost_contact "
    "option says the counter-charges put them back in contact).",
    rally=None,  # the assault page has no rally rule
    contact="close contact",
    sum_reading="a house rule",
    example_group="6x Line Infantry: CC4 FF3 Sv5+ INF contact=2 ff=4",
    example_side="6x Line Infantry: CC4 FF3 Sv5+ INF contact=4 ff=2 ; 2x Field Gun: CC1 FF4 Sv6+ LV ff=2",
    consolidation_move="may move 1 tile (not into an enemy zone of control)",
    withdrawal_move="at once, as the rules for broken formations explain",
)

OPTIONS = (
    *common_options(RULES, "4x Handgunners: FF3 | 1x Steam Tank: FF4 WE DC=3"),
    OptionSpec(
        "double_means",
        OptionType.CHOICE,
        "at_least",
        "'Double units remaining': at_least twice as many (>= 2x), or more_than twice (> 2x, as in Epic).",
        choices=("at_least", "more_than"),
        example=example(double_means="more_than"),
        variant=True,
    ),
    OptionSpec(
        "support_targets",
        OptionType.CHOICE,
        "attackers",
        "Where supporting fire's hits land. attackers: only on enemy units in a position to attack (the text's "
        "'directly involved'). engaged: on every directly engaged enemy unit, as the combat attacks' hits.",
        choices=("attackers", "engaged"),
        brief="Supporting fire hits: attackers (units able to attack: the text) or engaged (any engaged unit).",
        example=example(support_targets="engaged"),
        variant=True,
    ),
    OptionSpec(
        "save_direction",
        OptionType.CHOICE,
        "over",
        "over: a save succeeds on D6 >= Sv (as in Epic: Armageddon). under: on D6 <= Sv.",
        choices=("over", "under"),
        example=example(save_direction="under"),
        variant=True,
    ),
)


class ReikhammerAssault(FormationGame):
    id = "reikhammer"
    aliases = ("reik", "rh")
    title = "Reikhammer formation assault"
    short_title = "Reikhammer assault"
    summary = (
        "A whole formation assault on tiles: roll-under combat attacks, hits, saves, the immediate outcomes, "
        "supporting fire, the result roll with every modifier, extra hits, ties, Shock, Broken formations, "
        "withdrawal and the winner's move."
    )
    docs_page = "docs/games/reikhammer.md"
    rules = RULES
    options = OPTIONS
    tokens = token_docs(RULES)
    roll_kinds = ROLL_KINDS  # to hit, armour save, cover save, invulnerable save, result roll
    example_attacker = RULES.example_side
    example_defender = "8x Spearmen: CC4 FF1 Sv6+ INF contact=5 ff=3 cover=5+ ; 2x Archers: CC2 FF4 Sv6+ INF ff=2"
    example_options: Mapping[str, OptionValue] = {"defender_shock": 1}


GAME = register(ReikhammerAssault())

__all__ = ["GAME", "OPTIONS", "RULES", "ReikhammerAssault"]
