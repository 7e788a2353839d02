"""The per-game rules table of the formation-assault engine, and the per-resolution settings.

Epic: Armageddon and Reikhammer run the same procedure; everything in which
they differ is a field of :class:`FormationRules`. The engine reads nothing
else about the game, so a third formation game is one more table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules_core.report import Combine, Op, SideName


class DoubleMeans(StrEnum):
    """What 'double units remaining' asks for."""

    AT_LEAST = "at_least"  # at least twice as many (>= 2x)
    MORE_THAN = "more_than"  # more than twice as many (> 2x)


class SaveDirection(StrEnum):
    OVER = "over"  # a save succeeds on a roll equal to or over its value
    UNDER = "under"  # ... equal to or under it


@dataclass(frozen=True, slots=True)
class FormationRules:
    """How one formation game differs from the others."""

    game_id: str
    game_name: str
    hit_op: Op  # Epic: a hit on a roll >= the value; Reikhammer: <= the value
    engagement_range: str  # how far a unit may be to use its FF value ("15cm", "4 tiles")
    marker: str  # singular, as the rules name it: "Blast marker", "Shock"
    markers: str  # plural: "Blast markers", "Shock"
    marker_key: str  # the report's key: "blast_markers", "shock"
    inspiring_modifier: bool  # the result table has +1 per Inspiring unit
    # Within the engagement range is directly engaged even without a line of fire (Reikhammer: "within 4 tiles");
    # such units (the no-line-of-fire keyword) can be hit but cannot shoot. False: a line of fire is part of being
    # directly engaged (Epic), so a unit without one is left out of the fight.
    engaged_without_line_of_fire: bool
    # A side may be several formations fighting as one ('|' between formations, ';' between groups of one), each
    # with its own starting markers (a ``<marker_key>=N`` setting) and its own markers and breaking after the
    # assault (Reikhammer: "each winning formation receives ..."). False: '|' and ';' both separate groups (Epic).
    several_formations: bool
    # Supporting fire needs an enemy "directly involved in the assault", which Reikhammer's text defines as "in a
    # position to attack": with none, the supporting formations cannot fire. False: any directly engaged enemy
    # unit will do (Epic's A5: "an enemy unit that was directly engaged").
    support_needs_attacker: bool
    double_means: DoubleMeans  # what the text's 'twice/double as many units' means (an option may override)
    both_wiped_out: str  # who wins when both formations are wiped out together: "draw" or "defender" (an option)
    consolidation: str  # the winner's free move, as an instruction
    withdrawal: str  # what a withdrawing formation does, as an instruction
    counter_charge: str  # what a new round after a tie starts with, as an instruction
    rally: str | None  # the end phase's rally test for a Broken formation, as an instruction ({side}); None: no rule
    example_group: str  # a correct group, for error messages
    example_side: str
    # What the text calls units touching the enemy: Epic "base contact", Reikhammer "close contact".
    contact: str = "base contact"
    # Where the result_dice=sum reading comes from, in the option's help.
    sum_reading: str = "the published rulebook"
    # The summary's short words: the winner's move (after its name), how the loser withdraws (after "D withdraws
    # (3x D): "), and the rally test, said once for every Broken formation (``{name}``: "A", or "A and B").
    consolidation_move: str = "may consolidate"
    withdrawal_move: str = "as the rules for broken formations explain"
    rally_test: str = ""  # {name}: the Broken formations; {tests}: "it tests" for one, "each tests" for several

    @property
    def markers_mass(self) -> bool:
        """Whether the markers are a mass noun (Shock: "its Shock is", "as much Shock"), not counted ones (Blast
        markers: "are", "as many")."""
        return self.marker == self.markers

    @property
    def value_suffix(self) -> str:
        """Epic writes CC4+ (roll over); Reikhammer writes CC4 (roll under)."""
        return "+" if self.hit_op is Op.AT_LEAST else ""

    def value_text(self, value: int | None) -> str:
        return "-" if value is None else f"{value}{self.value_suffix}"


@dataclass(frozen=True, slots=True)
class FormationSettings:
    """One resolution's options, read from the game's declared options by its module."""

    markers: tuple[int, int]  # (attacker, defender) Blast markers / Shock at the start
    broken: tuple[bool, bool]  # (attacker, defender) Broken at the start
    result_dice: Combine  # HIGHEST (2D6 keep the highest die) or SUM
    double_means: DoubleMeans
    save_op: Op
    max_rounds: int
    reinforced_saves_macro: bool = True  # reinforced armour keeps its save (no re-roll) against macro-weapon hits
    both_wiped_out: str = "draw"  # "draw", or "defender": the attack stalled (every engaged attacker killed)
    # In a later round, units in base contact whose every enemy in contact died: False, they fight with FF; True,
    # the players say the counter-charges put them back in contact, so they keep CC.
    recontact: bool = False
    # Where supporting fire's hits may land (Reikhammer, an option): "attackers", only on enemy units in a position
    # to attack (the text's "directly involved"); "engaged", on every directly engaged unit (as the combat attacks).
    support_targets: str = "engaged"

    def markers_of(self, side: SideName) -> int:
        return self.markers[0 if side is SideName.ATTACKER else 1]

    def broken_at_start(self, side: SideName) -> bool:
        return self.broken[0 if side is SideName.ATTACKER else 1]
