"""The state of a duel's Hand-to-Hand phase: its fighters (one per model), what both sides cannot claim at once,
and the outcome words. The steps (``combat_round``, ``hits``, ``aftermath``) read and change a :class:`Phase`;
``engine`` runs them in the order of the rules text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules_core.dice import DiceSource
from rules_core.errors import SpecError
from rules_core.games.duel.spec import (
    BREAKING_OFF,
    CHARGED,
    EXAMPLE_MODEL,
    EXAMPLE_SIDE,
    HIGH_GROUND,
    ModelGroup,
    Side,
)
from rules_core.options import OptionValue
from rules_core.report import SideName, Step

GAME_ID = "duel"
# What the duel's own rolls are for (Roll.kind), beside the shared names of rules_core.roll_kinds.
ATTACK_DICE = "attack_dice"  # a model's attack dice in a combat round, read by their highest
BREAK_OFF_DISTANCE = "break_off_distance"  # the 2D6" a model that broke off moves away
ATTACKER, DEFENDER = SideName.ATTACKER, SideName.DEFENDER  # enum attribute lookups are slow in a hot loop


class Outcome:
    KILLED = "killed"
    WOUNDED = "wounded"
    STALEMATE = "stalemate"
    BROKE_OFF = "broke_off"


@dataclass(slots=True, eq=False)
class Fighter:
    group: ModelGroup
    side: SideName
    label: str
    wounds_left: int
    side_name: str = ""  # side.value, kept as plain text for the events
    breaking_off: bool = False
    opponents: list[Fighter] = field(default_factory=list)
    wounds_inflicted: int = 0
    escaped_inches: int | None = None
    slain_by: Fighter | None = (
        None  # the model whose hits slew it: only a model that killed all its opponents follows up
    )

    @property
    def alive(self) -> bool:
        return self.wounds_left > 0


def fighters(side: Side, name: SideName) -> list[Fighter]:
    """One fighter a model. A lone model is called by its name; each model of a side of several carries its place
    in the side ("Nob 1", "Ork Boy 2", "Ork Boy 3"), the order it fights in and the number ``high-ground=N`` names."""
    fighters: list[Fighter] = []
    several = side.models > 1
    for group in side.groups:
        for _ in range(group.count):
            label = f"{group.name} {len(fighters) + 1}" if several else group.name
            fighters.append(
                Fighter(group, name, label, group.profile.w, name.value, breaking_off=group.has(BREAKING_OFF))
            )
    return fighters


# Flags both sides of one fight cannot have: only the player whose turn it is charges, and of two models in base
# contact only one can stand above the other. ``obstacle`` needs ``charged`` (spec), so it is covered.
EXCLUSIVE = (
    (CHARGED, "charged this turn", "only the player whose turn it is charges"),
    (HIGH_GROUND, "are on the high ground", "of two models in base contact only one can stand above the other"),
)


def check_sides(attacker: Side, defender: Side) -> None:
    """Refuse what cannot be one fight: several models on both sides, or a situation both sides claim.

    One side is a single model that meets every model of the other, so a flag on any model of each side is a
    contradiction in some combat round.
    """
    a_models, d_models = attacker.models, defender.models
    if a_models > 1 and d_models > 1:
        raise SpecError(
            f"Both sides have several models ({a_models} and {d_models}). One duel is fought around one model: one "
            "against one, or one against several. Resolve each lone model's fight with its own command.",
            token=f"{a_models} v {d_models}",
            example=f"attacker {EXAMPLE_MODEL!r}, defender {EXAMPLE_SIDE!r}",
        )
    for flag, meaning, why in EXCLUSIVE:
        a_named = [g.name for g in attacker.groups if g.has(flag)]
        d_named = [g.name for g in defender.groups if g.has(flag)]
        if a_named and d_named:
            raise SpecError(
                f"Both sides {meaning}: the attacker ({', '.join(a_named)}) and the defender "
                f"({', '.join(d_named)}) both have '{flag}', but {why}. Give '{flag}' to one side only.",
                token=flag,
                example=(
                    f"attacker 'Marine Sergeant: WS4 S4 T4 W1 I4 A2 Sv3+ chainsword {flag}', "
                    "defender 'Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ knife'"
                ),
            )
    _check_high_ground(attacker, defender)


def _check_high_ground(attacker: Side, defender: Side) -> None:
    """``high-ground=1,3`` names a lone model's opponents by number; each pair has at most one model above."""
    models = {ATTACKER: [g for g in attacker.groups for _ in range(g.count)],
              DEFENDER: [g for g in defender.groups for _ in range(g.count)]}  # fmt: skip
    for name in (ATTACKER, DEFENDER):
        own, others = models[name], models[name.other]
        for group in dict.fromkeys(g for g in own if g.high_ground_over):
            listed = f"{HIGH_GROUND}={','.join(map(str, group.high_ground_over))}"
            if len(own) > 1:
                raise SpecError(
                    f"'{listed}' on '{group.name}': only a lone model has several opponents to name. The {name.value} "
                    f"has {len(own)} models, each fighting one opponent: give '{HIGH_GROUND}' to each model that "
                    "stands above the lone model.",
                    token=listed,
                    example=_pair(name, f"3x Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ knife {HIGH_GROUND}", LONE_CAPTAIN),
                )
            if group.high_ground_over[-1] > len(others):
                raise SpecError(
                    f"'{listed}' on '{group.name}': it has {len(others)} opponent{'s' if len(others) > 1 else ''}, "
                    f"numbered 1 to {len(others)} in the order the {name.other.value} lists them.",
                    token=listed,
                    example=_pair(
                        name, f"{LONE_CAPTAIN} {HIGH_GROUND}=1,3", "3x Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ knife"
                    ),
                )
    lone_attacks = len(models[ATTACKER]) == 1
    lone = models[ATTACKER][0] if lone_attacks else models[DEFENDER][0]
    for number, foe in enumerate(models[DEFENDER] if lone_attacks else models[ATTACKER], start=1):
        if HIGH_GROUND in lone.flags_against(number) and HIGH_GROUND in foe.flags_against(number):
            raise SpecError(
                f"Both {lone.name} and {foe.name} are on the high ground in their round (opponent {number} of "
                f"{lone.name}), but of two models in base contact only one can stand above the other. Give "
                f"'{HIGH_GROUND}' to {foe.name}, or name only the opponents {lone.name} stands above with "
                f"'{HIGH_GROUND}=N'.",
                token=HIGH_GROUND,
                example=_pair(
                    ATTACKER if lone_attacks else DEFENDER,
                    f"{LONE_CAPTAIN} {HIGH_GROUND}=1",
                    f"Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ knife | Nob: WS4 S4 T4 W2 I3 A2 Sv5+ {HIGH_GROUND}",
                ),
            )


LONE_CAPTAIN = "Captain: WS5 S4 T4 W2 I5 A3 Sv3+ power-sword"


def _pair(side: SideName, own: str, other: str) -> str:
    """An example of both sides, the attacker first as a command reads, with ``own`` on ``side``: the side the
    player wrote the refused token on."""
    attacker, defender = (own, other) if side is ATTACKER else (other, own)
    return f"attacker '{attacker}', defender '{defender}'"


class Phase:
    """One Hand-to-Hand phase being fought: the sides as given, the options, the dice, the fighters, the steps."""

    def __init__(self, attacker: Side, defender: Side, options: Mapping[str, OptionValue], dice: DiceSource) -> None:
        self.attacker_side, self.defender_side = attacker, defender
        self.options = options
        self.table = str(options["strength_save_table"])
        self.dice = dice
        self.attackers = fighters(attacker, ATTACKER)
        self.defenders = fighters(defender, DEFENDER)
        self.steps: list[Step] = []
