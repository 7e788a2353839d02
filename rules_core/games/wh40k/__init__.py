"""Warhammer 40,000 assault phase (the c.2003 "Trial Assault Rules" draft).
Long because it is where a player reads the game from: its numbered decisions, its options and its tokens' help,
each declared once.

Specification: ``shared/rules/40k-trial-assault-rules.txt``, gaps filled from
``shared/rules/REFERENCE.md`` section 000. User documentation: docs/games/40k.md.

Decisions on unclear or unstated points (each also in docs/games/40k.md):

1. Step 5's "go to step 9" means the combat continues: skip to the pile-in step.
2. The break-off test named in the step-6 summary is not a separate roll; the
   sweeping-advance comparison is the only break-off mechanic.
3. The danger zone (the models that can be hit) is fixed at the start of the fight
   from the players' ``engaged``/``supporting`` counts, per unit; models beyond it
   neither fight nor can be hit, and wounds beyond it are discarded.
4. Power fist: strikes at Initiative 1 (the weapon entry); the dual-weapon note's
   "initiative 0" is read as the same.
5. Morale: 2D6 <= the highest Leadership in the unit, no modifier by default;
   ``morale_modifier=per_wound`` applies the 4th-edition -1 per wound the side lost
   by; ``double_one_passes`` makes a double 1 always pass.
6. The sweeping advance compares the winner's 2D6 with the loser's fall-back roll
   as rolled (before halving for difficult terrain), and must be strictly greater;
   against a fall-back roll of 12 or more it is still rolled, and said to be hopeless.
7. A drawn combat, or one whose loser held, continues next turn (``round`` 2 and
   later): no charge bonus and no cover advantage. The next round's positions (the
   ``continues`` event's survivors, positions.py): each unit keeps this round's
   numbers in base contact and within 2", capped by the models it has left (the
   casualties came from those places and the pile-in fills them: models that were
   in base contact first, then those within 2", then the rest; nobody steps back).
   The players may give other positions per unit (``Ork Boy=6:4 | Nob=1``), and
   the front ends say which applied; a later round's report lists the positions it
   used (the ``positions`` event of its first step).
8. Majorities (WS, T, save) are taken over the unit's living models at the start
   of each strike step; the "majority type" is the single most common value, even
   short of half the models (``ws_majority=over_half``: a WS held by more than half
   of them). WS with no majority type (a tie for the most models) uses the lowest
   WS in the unit, tied or not (the rule), and the report says so; tied T or saves
   are the owner's choice (the text's own fallback): by default the highest T and
   the save best against the attacks being resolved; ``tie-t=N`` / ``tie-save=N+``
   choose otherwise.
9. Saves: one roll per wound, with the better of the usable armour save (none
   against power weapons, fists, claws, force weapons and monstrous creatures; at
   best 4+ against heavy close combat weapons) and the invulnerable save. Rending
   6s to hit wound automatically and allow only invulnerable saves.
10. Which models die (owner's choice): first models with the save that was used
    (the rule), then ``dies-first`` groups, ordinary groups, ``dies-last`` groups;
    within those a model already wounded, then supporting models before those in
    base contact, then the largest group first. Each batch of unsaved wounds is
    allocated one model at a time; only wounds beyond the last model in reach are
    lost.
11. Weapons (choosing.py): a model with two or more special weapons strikes with one
    of them, the others counting only as an additional close combat weapon (+1
    attack; the dual-weapon note, for any two). ``strike-with=NAME`` picks the weapon,
    ``strike-with=none`` attacks normally; by default the referee takes the better
    expected result against the group's first target (the chance per attack of an
    unsaved wound against its majorities at the start of the fight; a force weapon
    counts as a power weapon, its psychic test not counted), on equal chances the
    higher Initiative, then the keyword order, and says so with the numbers; the
    choice holds for the turn, the sweeping advance included. Rending
    and poisoned are weapons of their own (the text's "Rending weapons", "Poisoned
    Weapons"); ``weapon_traits=traits`` makes them traits of the weapon struck with.
    A single lightning claw never gets the two-weapon bonus, whichever weapon the model strikes with ("the only
    weapon that can provide an additional close combat weapon attack bonus for a model with a Lightning Claw is
    another Lightning Claw", about the model), and the report says so when ``strike-with=`` chose another weapon;
    ``lone_claw_bonus=as_additional`` reads it as about striking with the claw: beside the weapon struck with, the
    claw is the additional weapon (+1 attack), and the default choice weighs the attacks too. A pair
    (``lightning-claws``) gets the bonus. Supporting models use none of this.
12. Cover (round 1, ``defender_in_cover``): every model of a charged defending unit
    strikes first, power fists included ("regardless of Initiative"). A charging
    unit with frag grenades strikes in that first step too, its power fists included
    ("fight simultaneously with them"); the report says the fists strike in the
    Cover step, not at Initiative 1. ``cover_power_fists=initiative_1`` keeps every
    power fist (defenders' and chargers') at Initiative 1 instead; a charging unit with
    plasma grenades makes the defenders it fights strike in Initiative order. A
    unit with both uses plasma when it would strike first in Initiative order, frag
    otherwise (``grenades=frag|plasma`` chooses).
13. Force weapons: after the force-weapon attacks of a step, each psyker takes one
    psychic test (2D6 <= Ld) against a different enemy it wounded that survived; no
    test when none survived (it could only risk Perils). A psyker tests at most once
    per turn ("you may not use another psychic power in the same turn"): one that
    tested (or suffered Perils) in the fight does not test again in the sweeping
    advance; one that has not tested yet may. Perils of the Warp (option
    ``perils``, on by default) on a double 1 or double 6: the psyker takes a wound,
    invulnerable save only; it does not count for the assault result. A side left
    with no model loses automatically even when Perils killed some of them, and the
    report says so rather than "destroyed by the enemy". A psyker that already used
    a psychic power this turn (``used-psychic-power``, accepted only with
    ``force-weapon``) strikes with it as a power weapon: no psychic test, said.
14. One charge per resolution: ``charge_distance`` and ``difficult_terrain`` are one
    fact for the charging side, and one 2D6-pick-highest roll decides it.
    ``difficult_terrain`` needs ``charge_distance``.
15. Several units: each unit fights the enemy unit its ``vs=`` names (default the first). Attacks at a unit with no
    model left in reach are lost. Dividing attacks ("MULTIPLE COMBATS"): a group divides its models in reach between
    enemy units (``vs=1:6+2,2:2``: 6 in base contact and 2 within 2" fight unit 1, 2 fight unit 2; the counts must
    add up to the group's engaged/supporting); casualties among them are taken in that written order. An independent
    character divides its hits between the units it is engaged with (``vs=1,2``): it rolls to hit once, against the
    hardest WS among them (the hits are dealt after the roll), and deals the hits in the order rolled, one at a time
    in turn in ``vs=`` order (default policy), or ``hits=2:1`` first (unit 2 takes the first hit, and never more
    than 1), the rest in turn between the units it names no cap for (a cap is also a priority: the text leaves the
    division to the player); hits beyond every cap (all its units capped) are lost, and the report says so; each
    unit's share is wounded and saved against that unit. It may divide only between units some of whose models in
    base contact fight it (base contact is mutual; refused otherwise). The danger zone stays per unit: a unit's
    models in base contact or within 2" can be hit by any enemy unit it fights. A winning unit sweeps (one 2D6
    against its own target's fall-back roll, or the first fleeing unit it is engaged with) and consolidates only
    when every enemy unit it is engaged with fell back or was destroyed; in a sweep every model in reach makes its
    full attacks with its weapons, no charge bonus, hitting automatically.
16. Independent characters are written as units of their own (one model); they
    fight, are hit and test morale separately. Models with no attacks (A0, in base
    contact and not charging) are not in the strike order; they can still be hit.
    Pile-in is given only for units with living models not in base contact.
17. A unit falls back 3D6" only when every living model has ``bike`` or ``jump-pack``.
18. Frag and plasma grenades carried by any group count for the whole unit.
19. Assaulted while falling back (``defender_falling_back``): when the charge goes in
    (round 1 only; in a later round the option is kept but nobody tests: the units
    regrouped when charged, and fight normally), every defending unit checks to regroup
    at once: 2D6 <= its highest Ld, no modifiers (``morale_modifier`` does not apply;
    ``double_one_passes`` does, as it does to every Leadership roll). One that passes
    fights normally; one that fails is destroyed before a blow is struck. Its models
    count as lost, but they are not wounds inflicted: they do not count for the
    assault result, and attacks aimed at it go elsewhere (decision 20). If every defending unit is
    destroyed so, the attacker wins automatically ("destroys the enemy"). The option
    is for all the defending units; a unit that was not falling back is charged in
    a resolution of its own.
20. Hits aimed at a unit that is gone before the fight (it failed to regroup, decision
    19): it engages nobody any more, so the models that would fight it ("models engaged
    with ... a single unit must attack that unit") fight the first enemy unit, in order,
    that declared models in base contact with their unit (base contact is mutual); a
    split share (``vs=1:3,2:2``) and a character dividing (``vs=1,2``) whose units are
    all gone do the same (a character keeps dividing between those left, or
    fights the one left). With no such
    unit their attacks are lost, and the report says why.
21. Who charged and who is in cover, per unit (charging.py): by default every attacking unit charges in round 1 and
    none in a later round, and ``defender_in_cover`` puts every defending unit in cover; ``charged`` /
    ``not-charged`` on a unit and ``in-cover`` on a defending unit say otherwise for that unit. Units marked
    ``charged`` in a later round join the combat going on this turn: ``charge_distance``, ``difficult_terrain`` and
    ``shot_this_turn`` then describe their charge (one fact and one roll, as decision 14), and if it fails the
    report says they do not reach the combat, its headline whose charge failed, never "no combat" (resolve the round
    again without them); the units already fighting get no bonus, and nobody tests to regroup (decision 19 is for
    round 1). A defending unit in cover strikes first only with its models fighting a unit that charged this turn
    ("cover advantage applies only to models in cover that are being charged"): at a unit marked not-charged, or
    fighting it since before ("the first round ... swept into the cover"), they strike in Initiative order;
    ``cover_later_round=none`` gives no cover advantage after round 1; grenades count only for a unit that charged,
    frag grenades only against a unit in cover. Refused:
    ``charged`` with ``not-charged``; ``charged`` on a defending unit (only the side whose turn it is charges);
    ``in-cover`` on an attacking unit (cover is "of no benefit if the unit charges"); round 1 with every attacking
    unit ``not-charged`` (a combat going on is round 2 or later). The next round's survivors drop these tokens.
22. Separate combats ("there may be several separate assaults ... choose what order to fight the combats in"):
    units that never touch, by their ``vs=`` declarations (either way: a unit fights the units its ``vs=`` names
    and is fought by those naming it), directly or through a chain of units, are separate combats, each with its
    own result, morale, sweep and consolidation. One command resolves one combat: sides holding several are
    refused (resolve and odds alike), naming each combat, with one ready-to-copy command per combat (its units,
    their ``vs=`` renumbered within it, and the options given), fought in the order the player chooses. Each
    command runs as given: a combat no unit charges into this turn has no charge options, and in round 1 (all its
    attacking units ``not-charged``) it is offered as ``round`` 2. The
    engine itself (``engine.resolve``) still fights what it is given as one, so a stored record of an earlier
    version replays as stored; continuing such a record is refused with one command per combat (``round`` N).
23. Each losing unit's fate is its own: when the loser's units met different fates (one held its ground, one
    fell back, one was destroyed, in the fight or cut down in the sweeping advance), the summary's headline and
    the loser's table line say each unit's (``table_summary``'s ``fates``), never one word for all of them; the
    outcome word (``held``, ``some_fell_back``...) stays what it was, about the units left standing.
24. "Models engaged with or supporting a model engaged with a single unit must attack that unit": models within
    2" (``supporting``, or a split's ``+N``) may attack only an enemy unit that some model of their own unit
    touches, by the declarations: one its models in base contact fight, or one whose models in base contact
    fight it (base contact is mutual); otherwise the declaration is refused with an example, as a character
    dividing its hits between units it does not touch is (decision 15). Models in base contact declare whom
    they touch by whom they fight. A unit that no enemy model fights back (a second unit charging into a fight)
    is said in the report (the ``unopposed`` event): enemy models in base contact with it alone must attack it,
    so either none are or the declarations leave them out.
25. The sweeping advance's wounds do not count for the result (it comes after the result): its wounds step says
    so and how many were taken off models, never that they "count"; the table's totals say what the sweep added
    ("inflicted 6 wounds (+4 in the sweeping advance, not counted)", "remove 10 Guards (4 of them cut down in
    the sweeping advance)"), on each unit that lost them when the side has several ("all 10 from Ork (5 of them
    cut down in the sweeping advance), all 5 from Grot"); the result's ``wounds_inflicted`` stays the fight's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules_core.charts import TO_HIT, TO_WOUND
from rules_core.dice import DiceSource
from rules_core.errors import Do, example
from rules_core.games.wh40k import continuing, lines, spec
from rules_core.games.wh40k.allocation import CASUALTY_POLICY
from rules_core.games.wh40k.combats import check_declarations, combats
from rules_core.games.wh40k.engine import resolve
from rules_core.games.wh40k.kinds import ROLL_KINDS
from rules_core.options import OptionSpec, OptionType, OptionValue
from rules_core.registry import Game, NextRound, OutcomeWords, Tallied, TokenDoc, register
from rules_core.report import Report, Step
from rules_core.table import TableSummary

if TYPE_CHECKING:
    from rules_core.odds.model import Odds

WORDS = OutcomeWords(
    loser_fates={
        "held": "held its ground",
        "fell_back": "fell back",
        "some_fell_back": "partly fell back (some units held)",
        "destroyed": "was destroyed",
    },
    drawn={"both_destroyed": "Draw: both sides were wiped out"},
    tallied=(Tallied("wounds_inflicted", "inflicted {n} wound", "inflicted {n} wounds"),),
)

OPTIONS = (
    OptionSpec(
        "charge_distance",
        OptionType.FLOAT,
        None,
        "Inches from the nearest charger to the enemy. Omitted: assumed within reach. Over 6: no charge.",
        minimum=0.0,
        maximum=100.0,
        example=example(charge_distance=4.5),
    ),
    OptionSpec(
        "difficult_terrain",
        OptionType.BOOL,
        False,
        "The charge crosses difficult terrain: roll 2D6, the highest die must reach the charge distance.",
        example=example(charge_distance=4, difficult_terrain=True),
    ),
    OptionSpec(
        "shot_this_turn",
        OptionType.BOOL,
        False,
        "The charging unit fired this turn: declaring the charge is illegal.",
        example=example(shot_this_turn=True),
    ),
    OptionSpec(
        "defender_in_cover",
        OptionType.BOOL,
        False,
        "Every defending unit is in or behind cover (in-cover marks one unit): those charged this turn strike first.",
        brief="Every defending unit is in cover (in-cover marks one): those charged this turn strike first.",
        example=example(defender_in_cover=True),
    ),
    OptionSpec(
        "defender_falling_back",
        OptionType.BOOL,
        False,
        "The defending units were falling back when charged: each tests at once to regroup (2D6 <= Ld, no "
        "modifiers) and is destroyed if it fails.",
        brief="The defenders were falling back when charged: each tests to regroup at once, destroyed if it fails.",
        example=example(charge_distance=4, defender_falling_back=True),
    ),
    OptionSpec(
        "cover_power_fists",
        OptionType.CHOICE,
        "cover",
        "cover: power fists strike in the Cover step with their unit (defenders in cover, chargers with frag "
        "grenades). initiative_1: power fists strike at Initiative 1 even then.",
        choices=("cover", "initiative_1"),
        brief="cover: power fists strike with their unit in the Cover step. initiative_1: always at Initiative 1.",
        example=example(defender_in_cover=True, cover_power_fists="initiative_1"),
        variant=True,
    ),
    OptionSpec(
        "cover_later_round",
        OptionType.CHOICE,
        "chargers",
        "chargers: in a later round a defending unit in cover strikes first only at the units charging into the "
        "combat this turn. none: after the first round the fighting has swept into the cover, so it gives no "
        "advantage at all.",
        choices=("chargers", "none"),
        brief="chargers: later rounds, cover counts only against units charging in. none: no cover after round 1.",
        example=example(round=2, cover_later_round="none"),
        variant=True,
    ),
    OptionSpec(
        "round",
        OptionType.INT,
        1,
        "1 = the charge turn; 2 or more = the combat continues (no charge bonus, no cover), except for units "
        "marked charged, which join it this turn.",
        brief="1 = the charge turn; 2 or more = the combat continues (units marked charged join it now).",
        minimum=1,
        maximum=50,
        example=example(round=2),
    ),
    OptionSpec(
        "morale_modifier",
        OptionType.CHOICE,
        "none",
        "none: 2D6 <= Ld (the rules text). per_wound: -1 Ld per wound the side lost by (4th edition).",
        choices=("none", "per_wound"),
        example=example(morale_modifier="per_wound"),
        variant=True,
    ),
    OptionSpec(
        "double_one_passes",
        OptionType.BOOL,
        False,
        "A Leadership roll of double 1 always passes (4th edition's Insane Heroism).",
        example=example(double_one_passes=True),
        variant=True,
    ),
    OptionSpec(
        "ws_majority",
        OptionType.CHOICE,
        "most",
        "most: the single most common WS in the unit is its majority type. over_half: only a WS held by more "
        "than half of the models is. With no majority type, the lowest WS in the unit is used.",
        choices=("most", "over_half"),
        brief="most: the most common WS is the majority. over_half: only a WS held by over half the models.",
        example=example(ws_majority="over_half"),
        variant=True,
    ),
    OptionSpec(
        "weapon_traits",
        OptionType.CHOICE,
        "weapons",
        "weapons: rending and poisoned are special weapons of their own; a model with another special weapon strikes "
        "with one of them, the other counting as an additional close combat weapon. traits: they are traits of the "
        "weapon the model strikes with, and add to it.",
        choices=("weapons", "traits"),
        brief="weapons: rending and poisoned are weapons of their own. traits: they add to the weapon struck with.",
        example=example(weapon_traits="traits"),
        variant=True,
    ),
    OptionSpec(
        "lone_claw_bonus",
        OptionType.CHOICE,
        "never",
        "never: a model with a single lightning claw never gets the additional weapon attack, whichever weapon it "
        "strikes with (only another claw gives it). as_additional: a claw beside another special weapon struck "
        "with is the additional close combat weapon, +1 attack.",
        choices=("never", "as_additional"),
        brief="never: one lightning claw gives no +1 attack. as_additional: +1 beside the weapon struck with.",
        example=example(lone_claw_bonus="as_additional"),
        variant=True,
    ),
    OptionSpec(
        "perils",
        OptionType.BOOL,
        True,
        "Perils of the Warp on a psychic test of double 1 or double 6 (force weapons).",
        example=example(perils=False),
        variant=True,
    ),
)

TOKENS = (
    TokenDoc(
        "WS S T W I A Ld",
        "stat",
        "Weapon Skill, Strength, Toughness, Wounds, Initiative, Attacks, Leadership (all required; A may be 0).",
        "WS4 S4 T4 W1 I4 A1 Ld8",
    ),
    TokenDoc("Sv", "stat", "Armour save, 2+ to 6+, or Sv- for none (required).", "Sv3+"),
    TokenDoc("Inv", "stat", "Invulnerable save, usable even when armour is ignored.", "Inv4+"),
    TokenDoc("power-weapon", "keyword", "Ignores armour saves.", "1x Sergeant: ... power-weapon"),
    TokenDoc(
        "power-fist",
        "keyword",
        "Doubles Strength (max 10), ignores armour, strikes at Initiative 1.",
        "1x Sergeant: ... power-fist",
    ),
    TokenDoc(
        "lightning-claw",
        "keyword",
        "One claw: ignores armour, re-rolls failed wounds; no extra attack.",
        "1x Sergeant: ... lightning-claw",
    ),
    TokenDoc(
        "lightning-claws",
        "keyword",
        "A pair: as a claw, plus the +1 attack for two weapons.",
        "5x Terminator: ... lightning-claws",
    ),
    TokenDoc(
        "force-weapon",
        "keyword",
        "A power weapon; after wounding, a psychic test slays a wounded foe.",
        "1x Librarian: ... force-weapon",
    ),
    TokenDoc(
        "heavy-ccw",
        "keyword",
        "Heavy close combat weapon: armour saves are at best 4+.",
        "10x Berserker: ... heavy-ccw",
    ),
    TokenDoc(
        "rending",
        "keyword",
        "A 6 to hit wounds automatically with no armour save.",
        "8x Genestealer: ... rending",
    ),
    TokenDoc(
        "poisoned",
        "keyword",
        "Wounds on 4+ whatever the Toughness (poisoned=2+ for lethal venom).",
        "10x Wych: ... poisoned",
    ),
    TokenDoc("monstrous", "keyword", "A monstrous creature: ignores armour saves.", "1x Carnifex: ... monstrous"),
    TokenDoc(
        "two-weapons",
        "keyword",
        "A close combat weapon or pistol in each hand: +1 attack in base contact.",
        "10x Assault Marine: ... two-weapons",
    ),
    TokenDoc(
        "frag-grenades",
        "keyword",
        "Charging enemy in cover: strike simultaneously with them.",
        "10x Tactical Marine: ... frag-grenades",
    ),
    TokenDoc(
        "plasma-grenades",
        "keyword",
        "Charging enemy in cover: everyone fights in Initiative order.",
        "5x Banshee: ... plasma-grenades",
    ),
    TokenDoc("bike / jump-pack", "keyword", 'Falls back 3D6" instead of 2D6".', "5x Assault Marine: ... jump-pack"),
    TokenDoc(
        "independent-character",
        "keyword",
        "Fights and is hit as a unit of its own (write it as one model after '|').",
        "| 1x Warlock: ... independent-character",
    ),
    TokenDoc(
        "dies-first / dies-last",
        "keyword",
        "Which models the owner removes first or last as casualties.",
        "1x Sergeant: ... dies-last",
    ),
    TokenDoc(
        "charged / not-charged",
        "keyword",
        "The unit charged this turn, or did not (default: every attacking unit in round 1, none later).",
        "5x Assault Marine: ... charged",
    ),
    TokenDoc(
        "in-cover",
        "keyword",
        "A defending unit in cover: strikes first when a unit charges it this turn.",
        "12x Ork Boy: ... in-cover",
    ),
    TokenDoc(
        "used-psychic-power",
        "keyword",
        "With force-weapon: the psyker used a psychic power this turn, so it strikes as a power weapon (no test).",
        "1x Librarian: ... force-weapon used-psychic-power",
    ),
    TokenDoc("vehicle", "keyword", "Not supported yet: vehicles in assault give a clear error.", ""),
    TokenDoc(
        "engaged=N",
        "setting",
        "Models of the group in base contact (default: all of them).",
        "10x Tactical Marine: ... engaged=6 supporting=4",
    ),
    TokenDoc(
        "supporting=N",
        "setting",
        'Models within 2" of an engaged friend: 1 attack each (default 0). The rest neither fight nor can be hit.',
        "supporting=4",
    ),
    TokenDoc("vs=K", "setting", "The unit fights the K-th enemy unit (default 1).", "vs=2"),
    TokenDoc(
        "vs=K:E+S,...",
        "setting",
        'The group divides its models between enemy units: E in base contact and S within 2" fight unit K.',
        "10x Ork Boy: ... engaged=8 supporting=2 vs=1:6+2,2:2",
    ),
    TokenDoc(
        "vs=K,K / hits=K:N",
        "setting",
        "An independent character divides its hits between these units (in turn; hits=K:N deals unit K up to N "
        "hits first, never more, the rest in turn to the others).",
        "1x Captain: ... independent-character vs=1,2 hits=2:1",
    ),
    TokenDoc(
        "strike-with=NAME",
        "setting",
        "Which special weapon the group strikes with (the others count as an additional close combat weapon), or "
        "none. Default: the better expected result.",
        "strike-with=power-weapon",
    ),
    TokenDoc(
        "tie-t=N / tie-save=N+",
        "setting",
        "The owner's pick when the unit's Toughness or saves are tied.",
        "tie-save=4+",
    ),
    TokenDoc("grenades=frag|plasma", "setting", "Which grenades a unit carrying both uses.", "grenades=plasma"),
)


class Warhammer40kAssault(Game):
    id = "40k"
    aliases = ("wh40k", "40000", "warhammer40k", "tar")
    title = "Warhammer 40,000 assault phase (Trial Assault Rules)"
    short_title = "40K assault"
    standing_choices = (str(CASUALTY_POLICY.get("note")),)
    command = "assault"
    summary = (
        "The whole assault: charge, who strikes first, hits, wounds, saves, casualties, the result, "
        "morale, fall back, sweeping advance, consolidation and pile-in."
    )
    docs_page = "docs/games/40k.md"
    options = OPTIONS
    tokens = TOKENS
    example_attacker = "10x Tactical Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ frag-grenades"
    example_defender = "12x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+"
    example_options: Mapping[str, OptionValue] = {"charge_distance": 4}
    outcome_words = WORDS
    charts = (TO_HIT, TO_WOUND)
    roll_kinds = ROLL_KINDS
    continues = "40K assaults"
    positions_help = continuing.POSITIONS_HELP

    def step_line(self, step: Step) -> str:
        return lines.step_line(step)

    def parse_side(self, text: str) -> spec.Side:
        return spec.parse_side(text)

    def format_side(self, side: Any) -> str:
        return spec.format_side(side)

    def resolve_sides(
        self, attacker: Any, defender: Any, options: Mapping[str, OptionValue], dice: DiceSource
    ) -> Report:
        check_declarations(attacker, defender, options, self.options, do=Do.RESOLVE)  # decisions 22, 24
        return resolve(attacker, defender, options, dice)

    def exact_odds(self, attacker: Any, defender: Any, options: Mapping[str, Any]) -> Odds:
        from rules_core.games.wh40k import odds  # noqa: PLC0415 (the solvers load on first use)

        check_declarations(attacker, defender, options, self.options, do=Do.ODDS)
        return odds.exact(attacker, defender, options)

    def exact_refusal(self, attacker: Any, defender: Any) -> str | None:
        from rules_core.games.wh40k import odds  # noqa: PLC0415 (the solvers load on first use)

        if len(combats(attacker, defender)) > 1:
            return None  # not an exact-odds matter: exact_odds refuses them, with one command per combat
        return odds.refusal(attacker, defender)

    def sampled_odds(self, attacker: Any, defender: Any, options: Mapping[str, Any], *, trials: int, seed: int) -> Odds:
        from rules_core.games.wh40k import odds_sampled  # noqa: PLC0415 (NumPy loads on first use)

        check_declarations(attacker, defender, options, self.options, do=Do.ODDS)
        return odds_sampled.sample(attacker, defender, options, trials=trials, seed=seed)

    def table_summary(self, report: Report) -> TableSummary:
        from rules_core.games.wh40k import table  # noqa: PLC0415 (read only when a result is shown)

        return table.table_summary(report, self.options)

    def next_round(
        self, report: Report, *, attacker_positions: str | None, defender_positions: str | None
    ) -> NextRound:
        return continuing.next_round(
            report, attacker_positions=attacker_positions, defender_positions=defender_positions
        )


GAME = register(Warhammer40kAssault())

__all__ = ["GAME", "OPTIONS", "TOKENS", "Warhammer40kAssault"]
