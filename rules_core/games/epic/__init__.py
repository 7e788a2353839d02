"""Epic: Armageddon assaults, A1-A8 (the "EA Rules Revamp" wording of step A4).

Specification: ``shared/rules/epic-armageddon-A4.txt``, gaps filled from
``shared/rules/REFERENCE.md`` section 001. The procedure is the shared
formation engine (``rules_core.games.formation``); this module holds Epic's
rules table and options. User documentation: docs/games/epic.md.

Decisions on unclear or unstated points (each also in docs/games/epic.md):

1. The referee runs A1-A8. A1-A3 (target, charge, counter-charges) happen on the
   table: players give each group's position (``contact=N`` in base contact,
   ``ff=N`` within 15cm with a line of fire). A group with neither is all in base
   contact; the rest of a group given a position is not directly engaged.
   Positions must agree: base contact is mutual, so a side with units in base
   contact when the other has none is refused, and so is an attacker directly
   engaged when no defending unit is (a unit within 15cm of an enemy has that
   enemy within 15cm too; supporting fire would have nothing to fire at). An
   attacker with no unit directly engaged is not refused: the assault does not
   take place (decision 18).
2. A side is one formation: formations drawn in by counter-charges fight as one
   "for all rules purposes", so ``;`` and ``|`` both separate its groups.
   Supporting formations are options, one formation per ``|``.
3. Hits are allocated as for shooting: units in base contact first, then those in
   range, each in the order the groups are listed (nearest first); no unit takes a
   second hit before every eligible unit has one; only directly engaged units. A
   war engine takes up to its remaining damage capacity in each pass.
4. Macro-weapon hits are allocated apart, after the other hits, from the front
   again. They deny armour saves (Epic: Armageddon's Macro-Weapon rule, quoted in
   REFERENCE.md 001: "not allowed a saving throw unless they possess Reinforced
   Armour or an Invulnerable Save. Even then, they may not reroll"): a unit with
   ``reinforced-armour`` takes its armour save without the re-roll; an
   invulnerable save is taken as its second save (decision 5); cover saves still
   apply (no source says otherwise). ``reinforced_vs_macro=no_save`` gives the
   old reading (no armour save at all against macro-weapons). ``macro-weapon``
   covers all of a group's attacks.
5. Saves: D6 >= Sv; ``reinforced-armour`` re-rolls a failed armour save once
   (never against a macro-weapon hit);
   after a failed or denied armour save the unit takes one second save, the better
   of its cover save (the defending side's infantry only) and ``invulnerable`` (6+).
6. A unit with FF- within 15cm (or CC- in base contact) is directly engaged (it can
   be hit) but cannot attack. A unit within 15cm with no line of fire is not
   directly engaged (the text: "within 15cm of, and have a line of fire to"):
   leave it out of ``contact=``/``ff=``; Reikhammer's ``no-line-of-fire`` keyword
   is refused here, saying so. Supporting fire may target any directly engaged
   enemy unit, one that cannot attack too: Epic's A5 (REFERENCE.md 001) asks
   for a line of fire to "an enemy unit that was directly engaged", not, as
   Reikhammer's text, one "in a position to attack".
7. The immediate outcomes are checked after the combat attacks (the text). When
   the defending formation is destroyed the attacker wins if any of its units
   survive (the only formation left). When both formations are wiped out
   together, the text's two ways to win at once ("The attacker must destroy
   every unit in the defending formation" / "The defender must destroy every
   attacking unit that is directly engaged") are both met and neither comes
   first: the assault is drawn (``both_destroyed``); ``both_wiped_out=defender``
   gives it to the defender (the attack stalled, as Reikhammer's text says).
   Otherwise, when every directly engaged attacker is destroyed, the defender
   wins. Supporting fire comes only after these checks (A5, "only if stalled"),
   so it never stalls the attack: after it the result step's own rule applies,
   a side with no unit left at all loses at once (both wiped out: as above, the
   report saying "both sides are wiped out by supporting fire" and naming the
   both-wiped-out decision), and
   otherwise the result is rolled even when no directly engaged attacker is
   left; a tie then starts a round with no attacker directly engaged, in which
   the attack stalls before anyone rolls (the referee keeps each survivor's
   position, so that round's words offer no counter-charges: counter-charges
   that would bring attackers back within reach are a case it cannot follow).
   An immediate win is followed by A7/A8 like a won result roll.
8. The result roll is 2D6 keeping the highest die (the text); ``result_dice=sum``
   adds them (the published rulebook).
9. Modifiers: kills include supporting fire and earlier rounds; units remaining
   count the whole formation (never the supporting formations); "more than twice"
   is strictly more than 2x; Blast markers are the ones given (none are placed
   during the assault) and a Broken formation counts as many as its units; each
   surviving directly engaged Inspiring unit, and each Inspiring unit of a
   supporting formation able to fire, adds +1.
10. The loser's extra hits take no save of any kind and fall on the whole losing
    formation: base contact first, then in range, then the rest; hits beyond the
    last unit are lost.
11. A tie starts a new round with the survivors in the positions they had
    (counter-charges are moves the referee cannot see), up to ``max_rounds``
    (default 5), with one exception: the referee knows how many units are in
    base contact, not who touches whom, so when one side has no unit in base
    contact left, the other side's units in contact have lost every contact
    partner: they stay the nearest (hits fall on them first) but fight with FF.
    ``lost_contact=countercharge`` says the counter-charges put them back in
    base contact (they keep CC). Still tied after ``max_rounds``, the referee's
    cap (the rules would fight on): the referee calls it a draw (``tied``) and
    says so; neither side withdraws, and each side not already Broken gains a
    Blast marker per unit lost (Broken if that reaches its units).
12. The loser is Broken and withdraws, or is destroyed if it was Broken already;
    a Broken formation is reported with Blast markers equal to its units left
    (never more). Each of the losing side's supporting formations "that could
    have provided supporting fire" gains 1 Blast marker: one with no unit able
    to fire (``ff=0`` on every group) could not, and gains none.
13. A formation whose Blast markers are at least its units (a war engine counting
    its DC) is Broken before the assault, whether or not ``<side>_broken`` is
    given (REFERENCE.md 001): it is destroyed if it loses, and a Broken winner
    gains no Blast markers and ends with as many as its units left. Otherwise
    the winner gains 1 Blast marker per unit it lost; with Blast markers >= its
    units it is Broken but does not withdraw, and ends with as many Blast
    markers as its units left (never more: decision 12).
14. War engines (``WE DC=N``): each unsaved hit removes one damage capacity; 0 is
    destroyed. For the result, Blast markers and breaking a war engine counts as
    units equal to its remaining DC and each DC it lost counts as a unit killed
    (the report calls them damage points, not units: "one per damage point it
    lost", "3 damage points left", and the table line "1 unit left, 3 damage
    capacity left"); the result's ``lost``/``remaining`` count it as one unit.
15. ``extra-attacks=N`` adds N dice to every attack of the unit, in contact, in
    range and in supporting fire.
16. Withdrawal (two moves, ignoring zones of control; units ending within 15cm
    of an enemy are destroyed), consolidation (5cm, not into a zone of control)
    and rallying are instructions, not resolved: each formation Broken after the
    assault gets the end phase's rally test (REFERENCE.md 001: D6, -2 Broken, -1
    enemy within 30cm, equal to or over its Initiative; a rallied formation keeps
    Blast markers equal to half its units, rounded down) as a ``rally`` event.
17. No first-strike special (it is not in the rules text). ``cover=`` on an
    attacking group or on vehicles is ignored with a note, so one roster serves
    for either side.
18. An assault in which no attacking unit is directly engaged does not take place
    (outcome ``no_assault``).
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.games.formation.game import ROLL_KINDS, FormationGame, common_options, token_docs
from rules_core.games.formation.rules import DoubleMeans, FormationRules
from rules_core.options import OptionValue
from rules_core.registry import Chart, register
from rules_core.report import Op

RULES = FormationRules(
    game_id="epic",
    game_name="Epic: Armageddon",
    hit_op=Op.AT_LEAST,
    engagement_range="15cm",
    marker="Blast marker",
    markers="Blast markers",
    marker_key="blast_markers",
    inspiring_modifier=True,
    engaged_without_line_of_fire=False,
    support_needs_attacker=False,
    several_formations=False,
    double_means=DoubleMeans.MORE_THAN,
    both_wiped_out="draw",
    consolidation="The winner's units may make a 5cm consolidation move; they may not enter an enemy zone of control.",
    withdrawal="Withdrawal: two moves, ignoring zones of control; any unit that ends within 15cm of an enemy is "
    "destroyed.",
    counter_charge="Both sides may counter-charge, the attacker first; the referee keeps each survivor in its position "
    "(contact= / ff=), except that units left with no enemy in base contact fight with FF (unless the lost_contact "
    "option says the counter-charges put them back in contact).",
    rally="In the end phase the Broken {side} may rally: a D6, -2 as it is Broken and -1 with an enemy unit within "
    "30cm, equal to or over its Initiative rating. If it rallies it is no longer Broken and keeps Blast markers equal "
    "to half its units, rounded down.",
    example_group="6x Tactical: CC4+ FF4+ Sv4+ INF contact=2 ff=4",
    example_side="6x Tactical: CC4+ FF4+ Sv4+ INF contact=4 ff=2 ; 2x Rhino: CC6+ FF6+ Sv5+ AV ff=2",
    consolidation_move="may consolidate 5cm (not into an enemy zone of control)",
    withdrawal_move="two moves, ignoring zones of control; a unit ending within 15cm of an enemy is destroyed",
    rally_test="In the end phase, Broken {name}: {tests} to rally, a D6 -2 (-1 more with an enemy within 30cm) "
    "equal to or over its Initiative.",
)

OPTIONS = common_options(RULES, "4x Devastator: FF3+ | 1x Warhound Titan: FF3+ WE DC=3")

RESULT_MODIFIERS = (
    "+1 for each enemy unit destroyed in this assault (supporting fire and earlier rounds included)\n"
    "+1 for more units remaining than the enemy; +1 more for more than twice as many\n"
    "+1 for no Blast markers; +1 for fewer Blast markers than the enemy\n"
    "+1 for each Inspiring unit taking part"
)
RESULT_CHART = Chart("epic-result", "Epic: Armageddon assault result modifiers", (), lambda: RESULT_MODIFIERS, order=5)


class EpicAssault(FormationGame):
    id = "epic"
    aliases = ("ea", "epic-armageddon", "netea")
    title = "Epic: Armageddon assault (A1-A8)"
    short_title = "Epic assault"
    summary = (
        "A whole formation assault: combat attacks with CC and FF values, hits, saves, the immediate outcomes, "
        "supporting fire, the result roll with every modifier, extra hits, ties, Blast markers, Broken formations, "
        "withdrawal and consolidation."
    )
    docs_page = "docs/games/epic.md"
    rules = RULES
    options = OPTIONS
    tokens = token_docs(RULES)
    roll_kinds = ROLL_KINDS  # to hit, armour save, cover save, invulnerable save, result roll
    example_attacker = RULES.example_side
    example_defender = "8x Ork Boyz: CC4+ FF6+ Sv6+ INF contact=5 ff=3 cover=5+ ; 2x Nobz: CC3+ FF5+ Sv6+ INF ff=2"
    example_options: Mapping[str, OptionValue] = {"defender_blast_markers": 1}
    charts = (RESULT_CHART,)


GAME = register(EpicAssault())

__all__ = ["GAME", "OPTIONS", "RESULT_CHART", "RULES", "EpicAssault"]
