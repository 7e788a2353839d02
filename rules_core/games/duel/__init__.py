"""Warhammer 40,000 2nd edition (1993) hand-to-hand combat: duels and multiple combats.

Specification: ``shared/rules/2nd-edition-hand-to-hand.txt``, "damage and armour
saves as normal" filled from ``shared/rules/REFERENCE.md`` section 002. User
documentation: docs/games/duel.md.

Decisions on unclear or unstated points (each also in docs/games/duel.md):

1. One resolution fights one Hand-to-Hand phase: one model against one, or a lone
   model against up to ten (a multiple combat). When both sides hold several models
   the fight is not one combat around one model, and the referee says so.
2. Multiple combat order: the outnumbering side's models fight in the order its
   spec lists them (the rules let that player choose), each labelled with its place
   there ("Nob 1", "Ork Boy 2", "Ork Boy 3"), the number ``high-ground=N`` names; a
   lone model is called by its name. The k-th of them rolls
   k-1 extra attack dice; it only fights at all if the lone model survived the
   earlier rounds, so the bonus always applies to the rounds that happen.
3. Attack dice: A, +1 for two or more weapons with the Close Combat rule
   (``cc``), plus the multiple-combat bonus. Pistols in the weapon table carry
   ``cc``; basic weapons (bolter, lasgun) do not and are never used.
4. Parries: each weapon with ``parry`` is one parry; a model breaking off has
   none. Parries cancel one for one and the surplus side forces re-rolls of the
   opponent's highest die, one per parry, one after another (each re-roll of the
   then-highest die, the new result standing). ``parry=auto`` (default) parries
   exactly when it improves the parrier's expected score difference (its combat
   score minus the opponent's) over the re-roll's six equally likely results,
   counting fumbles (a re-rolled 1: +1 to the parrier) and criticals (a 6 after
   the first: a re-roll can make one, or lose one of a [6, 6]). With several
   usable parries the expectation counts the parries still left, each used only
   when it pays in turn (``rules_core.games.duel.parry``), so a [4, 3, 4] is
   parried with two parries but not with one. On equal expectation it does not
   parry (parrying is optional). The report says why it parried or not, with
   both expectations. ``always`` always parries, ``never`` never. Fumbles and
   criticals are counted on the dice after any parry.
5. Criticals: every 6 after the first; fumbles: every 1, each giving the
   opponent +1. ``obstacle`` (charged an opponent behind an obstacle, -1)
   requires ``charged`` (+1): a model with both scores +0 from them. Situations
   both sides cannot share are refused with an example (``check_sides``):
   ``charged`` on both sides (only the player whose turn it is charges; ``obstacle``
   implies ``charged``) and ``high-ground`` on both sides (of two models in base
   contact only one stands above the other). The lone model meets every opponent,
   so the flag on any model of each side is refused. The odds refuse the same.
   High ground is between two models (the text's "above their opponent"): the
   plain ``high-ground`` stands above every opponent (the default), and a lone
   model's ``high-ground=1,3`` above only the opponents it names, by their number
   in the other side's order; a pair where both claim it is refused, and so is
   ``high-ground=N`` on a model of a side of several (each has one opponent).
6. Tied scores go to the higher Initiative (1 hit); equal Initiative is a
   stalemate. A model breaking off fights with WS 0 but keeps its Initiative.
7. Which weapon the winner strikes with (the player's choice): ``weapon-choice``
   names it; by default the Close Combat weapon with the most expected wounds
   against this opponent (to wound x failing the save x damage, capped at the
   wounds it has left), the first listed of equals. A model with no Close Combat
   weapon strikes with its own Strength.
8. Save modifiers: the weapon's own ``sv``; a weapon with none (sword, knife,
   club, a model's own Strength) takes it from the Strength table of option
   ``strength_save_table``: ``whfb`` (default; S3 or less 0, S4 -1 ... S10 -7) or
   ``none``. A save needing more than 6 is not rolled.
9. Damage: each unsaved wound takes its weapon's Damage in wounds (a D3 is half a
   D6, rounded up); damage beyond the model's last wound is lost, and no damage
   dice are rolled for unsaved wounds once the model is slain.
10. Breaking off: declared with ``breaking-off`` on the model; it fights every one
    of its rounds at WS 0 without parrying, and if it survives it moves 2D6"
    away (one roll, after all the rounds) and its squad is Broken. A model breaking
    off that kills all its opponents meets two rules: "if the escaping model
    survives, it moves 2D6"..." and "if a model has killed all of its opponents, it
    may ... make a Follow-Up Move". By default the escape stands (option
    ``breaking_off_kill=escape``): it was declared before the round, its only
    condition in the text is surviving, and the Follow-Up Move is optional while
    the escape and the Broken squad are not; it moves away from where its opponent
    fell and makes no Follow-Up Move. ``breaking_off_kill=follow_up`` reads it the
    other way: with no opponent left it has nothing to escape from, is not Broken,
    and may follow up (decision 11). The odds follow the option.
11. Follow-up: the model that "has killed all of its Hand-to-Hand Combat
    opponents" (the text) may make the 2" Follow-Up Move; the referee states it as
    an instruction. A model whose opponent was slain by a friend, or that never
    fought (the lone model fell first), is out of the combat and makes none.
    Models still in contact fight again next phase.
12. Result: ``winner`` is the side that took more wounds off the other (wounds
    actually lost, damage beyond a model's last wound not counted), ``draw`` when
    equal. ``outcome`` is ``killed`` when any model was slain, else ``broke_off``
    when a model escaped, else ``wounded`` when any wound was lost, else
    ``stalemate`` (nobody lost a wound: tied rounds, or every hit failed to wound
    or was saved). Each round's winner and scores are in its step's ``round`` event.
13. Weapons may be table names (``chainsword``) or inline definitions
    (``weapon=claw/S+1/dmg=D3/sv=-1/parry/cc``); the canonical spec writes every
    weapon inline, so a stored resolution replays without the table. rules_core
    does no I/O: ``bot/`` loads ``data/weapons/duel.yaml`` and binds it with
    :meth:`DuelGame.with_data`. The table's rows follow the 2nd edition Wargear
    book as transcribed by BSData wh40k-2nd-edition (a save modifier written "-"
    there is left out, so the Strength table gives it: the laspistol's is 0, not
    -1); knife and club, not in that data, take its Axe's profile. Each row's
    source and confidence is in docs/games/duel.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules_core import compact
from rules_core import roll_kinds as shared_kinds
from rules_core.charts import TO_WOUND
from rules_core.dice import DiceSource
from rules_core.errors import example
from rules_core.games.duel import spec
from rules_core.games.duel.engine import resolve
from rules_core.games.duel.state import ATTACK_DICE, BREAK_OFF_DISTANCE
from rules_core.games.duel.strike import strength_save_modifier
from rules_core.games.duel.weapons import EMPTY_ARMOURY, WEAPON_TABLE, Armoury, parse_weapon_table
from rules_core.options import OptionSpec, OptionType, OptionValue
from rules_core.registry import Chart, Game, OutcomeWords, Tallied, TokenDoc, register
from rules_core.report import Report, Step
from rules_core.table import TableSummary

if TYPE_CHECKING:
    from rules_core.odds.model import Odds

# The duel is decided on the wounds inflicted over the phase: the loser may still stand, and a draw can cost models.
WORDS = OutcomeWords(
    loser_fates={
        "killed": "lost a model",
        "wounded": "took wounds",
        "broke_off": "lost more wounds; a model broke off",
    },
    drawn={
        "killed": "Draw: equal wounds inflicted, and a model was slain",
        "broke_off": "Draw: equal wounds inflicted, and a model broke off",
    },
    on_wounds=frozenset({"killed", "wounded", "broke_off"}),
    models_lost=frozenset({"killed"}),
    tallied=(Tallied("wounds_inflicted", "inflicted {n} wound", "inflicted {n} wounds"),),
    # What the odds count as the loser breaking: "breaks" alone would read as breaking off.
    loser_breaks="The losing side is wiped out, or a model of it broke off (its squad Broken)",
)

OPTIONS = (
    OptionSpec(
        "strength_save_table",
        OptionType.CHOICE,
        "whfb",
        "Save modifier of a hit whose weapon lists none: whfb (S4 -1, S5 -2 ... S10 -7) or none.",
        choices=("whfb", "none"),
        example=example(strength_save_table="none"),
        variant=True,
    ),
    OptionSpec(
        "breaking_off_kill",
        OptionType.CHOICE,
        "escape",
        'A model breaking off that kills all its opponents: escape (default: it still moves 2D6" away, its squad '
        "Broken) or follow_up (nothing left to escape from: not Broken, it may make the Follow-Up Move).",
        choices=("escape", "follow_up"),
        brief="A breaking-off model that kills all its opponents: escape (default) or follow_up.",
        example=example(breaking_off_kill="follow_up"),
        variant=True,
    ),
)

TOKENS = (
    TokenDoc(
        "WS S T W I A", "stat", "Weapon Skill, Strength, Toughness, Wounds, Initiative, Attacks.", "WS4 S4 T4 W1 I4 A1"
    ),
    TokenDoc("Sv", "stat", "Armour save 2+ to 6+, or Sv- for none (required).", "Sv3+"),
    TokenDoc("M BS Ld", "stat", "Optional; kept so a pasted profile reads, not used in hand-to-hand.", "M4 BS4 Ld8"),
    TokenDoc("charged", "keyword", "The model charged this turn: +1 to its combat score (one side only).", "charged"),
    TokenDoc("high-ground", "keyword", "On terrain above its opponents: +1 (one side only).", "high-ground"),
    TokenDoc(
        "high-ground=N,N",
        "setting",
        "A lone model above only some of its opponents, numbered in the other side's order: +1 in those rounds.",
        "high-ground=1,3",
    ),
    TokenDoc("encumbered", "keyword", "Carries Wargear (usually a heavy weapon) that encumbers it: -1.", "encumbered"),
    TokenDoc(
        "obstacle",
        "keyword",
        "It charged an opponent behind an obstacle: -1 (give charged too).",
        "charged obstacle",
    ),
    TokenDoc(
        "breaking-off",
        "keyword",
        'Tries to escape: fights at WS 0 without parrying; if it survives it moves 2D6" away, its squad Broken.',
        "breaking-off",
    ),
    TokenDoc(
        "weapon=NAME/fields",
        "setting",
        "A weapon defined inline: S5 | S+1 | S=user, dmg=1 | D3 | D6 | 2D6 | D3+1, sv=-1 (leave out for the "
        "Strength table), parry, cc (the Close Combat rule). Repeat for more weapons.",
        "weapon=claw/S+1/dmg=D3/sv=-1/parry/cc",
    ),
    TokenDoc(
        "parry=auto|always|never",
        "setting",
        "When to use parries: auto (default) when the re-roll improves its expected score difference (fumbles and "
        "criticals counted, the parries still left too); always; never.",
        "parry=always",
    ),
    TokenDoc(
        "weapon-choice=NAME",
        "setting",
        "The Close Combat weapon it strikes with when it wins (default: its best against the opponent).",
        "weapon-choice=bolt-pistol",
    ),
)

SAVE_MODIFIER = Chart(
    "save-modifier",
    "Duel: save modifier of a Strength (the WHFB table)",
    ("the Strength",),
    lambda strength: f"S{strength}: save modifier **{strength_save_modifier(strength, 'whfb'):+d}**.",
    order=3,
)


class DuelGame(Game):
    id = "duel"
    aliases = ("40k2", "wh40k2", "hand-to-hand", "2nd-edition")
    title = "Warhammer 40,000 2nd edition hand-to-hand combat"
    short_title = "40K 2nd edition duel"
    command = "duel"
    summary = (
        "One Hand-to-Hand phase, model against model or one against several: attack dice, parries, fumbles, "
        "criticals, combat scores, hits, wounds, saves, damage, breaking off and the follow-up move."
    )
    docs_page = "docs/games/duel.md"
    options = OPTIONS
    example_attacker = "Marine Sergeant: WS4 S4 T4 W1 I4 A2 Sv3+ chainsword bolt-pistol charged"
    example_defender = "3x Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ knife"
    spec_shape = (
        "models separated by '|', each '[N x] name: tokens' (N identical models fight one after another). "
        "One side holds a single model; the other one or several (a multiple combat, fought in the order given)."
    )
    data_files: Mapping[str, str] = {"weapons": WEAPON_TABLE}
    outcome_words = WORDS
    charts = (TO_WOUND, SAVE_MODIFIER)
    # What its rolls are for (Roll.kind): each model's attack dice, the winner's to wound and damage, the loser's
    # armour saves, and a model's break-off move.
    roll_kinds = (ATTACK_DICE, shared_kinds.TO_WOUND, shared_kinds.SAVE, shared_kinds.DAMAGE, BREAK_OFF_DISTANCE)

    def __init__(self, armoury: Armoury = EMPTY_ARMOURY) -> None:
        self.armoury = armoury
        names = ", ".join(armoury.names) if armoury.names else "none loaded here (define weapons inline)"
        self.tokens = (
            *TOKENS[:3],
            TokenDoc(
                "weapon names",
                "keyword",
                f"Weapons from the weapon table: {names}.",
                "chainsword bolt-pistol",
            ),
            *TOKENS[3:],
        )

    def with_data(self, data: Mapping[str, Any]) -> DuelGame:
        return DuelGame(parse_weapon_table(data["weapons"], name=self.data_files["weapons"]))

    def parse_side(self, text: str) -> spec.Side:
        return spec.parse_side(text, self.armoury)

    def format_side(self, side: Any) -> str:
        return spec.format_side(side)

    def resolve_sides(
        self, attacker: Any, defender: Any, options: Mapping[str, OptionValue], dice: DiceSource
    ) -> Report:
        return resolve(attacker, defender, options, dice)

    def table_summary(self, report: Report) -> TableSummary:
        from rules_core.games.duel import table  # noqa: PLC0415 (read only when a result is shown)

        return table.table_summary(report)

    def step_line(self, step: Step) -> str:
        """A round in one line is its title, the combat scores ("Round 2: Marine Sergeant 11 v 8 Ork Boy 2"): the
        next line says who hits whom (a stalemate says so), never the parry's reasoning; a strike's line is the
        default's."""
        fought = next((ev for ev in step.events if ev.kind == "round"), None)
        if fought is None:
            return compact.step_line(step)
        return step.title if fought.get("winner_model") else compact.join(step.title, "a stalemate, no hits")

    def exact_odds(self, attacker: Any, defender: Any, options: Mapping[str, Any]) -> Odds:
        from rules_core.games.duel import odds  # noqa: PLC0415 (the solver loads on first use)

        return odds.exact(attacker, defender, options)

    def exact_refusal(self, attacker: Any, defender: Any) -> str | None:  # noqa: ARG002
        return None  # the solver takes every phase


GAME = register(DuelGame())

__all__ = ["GAME", "OPTIONS", "TOKENS", "DuelGame"]
