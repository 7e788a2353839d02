"""The registry face of a formation game: options, tokens, parsing and resolving from one rules table.

A formation game module declares its :class:`FormationRules`, the options that
differ (Reikhammer's ``double_means`` and ``save_direction``) and its decisions;
this class does the rest, so the two game modules hold no procedure code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules_core import roll_kinds
from rules_core.dice import DiceSource
from rules_core.errors import OptionName, RefereeError, Setting, SpecError, example
from rules_core.games.formation.engine import FormationAssault, check_positions
from rules_core.games.formation.rules import DoubleMeans, FormationRules, FormationSettings, SaveDirection
from rules_core.games.formation.spec import MAX_MARKERS, Formation, FormationSpecParser, Support
from rules_core.options import OptionSpec, OptionType, OptionValue
from rules_core.registry import Game, OutcomeWords, Tallied, TokenDoc
from rules_core.report import Combine, FrozenMap, Inputs, Op, Report
from rules_core.table import TableSummary

if TYPE_CHECKING:
    from rules_core.odds.model import Odds

SIDES = ("attacker", "defender")
# What the formation engine's rolls are for (Roll.kind): every one is a kind the games share.
ROLL_KINDS = (
    roll_kinds.TO_HIT,
    roll_kinds.SAVE,
    roll_kinds.COVER_SAVE,
    roll_kinds.INVULNERABLE_SAVE,
    roll_kinds.RESULT_ROLL,
)
MAX_ROUNDS = 20

WORDS = OutcomeWords(
    loser_fates={"destroyed": "was destroyed", "broken": "is Broken and must withdraw"},
    drawn={
        "both_destroyed": "Draw: both sides were wiped out",
        "tied": "Draw: still tied at the referee's round cap (max_rounds), not a rules outcome; both sides hold",
    },
    decided={  # both_wiped_out gives it to a side (Reikhammer: every engaged attacker killed stalls the assault)
        ("both_destroyed", "attacker"): "Both formations were wiped out; the attacker wins",
        ("both_destroyed", "defender"): "Both formations were wiped out; the defender wins (the both-wiped-out "
        "decision)",
    },
)


def common_options(rules: FormationRules, support_example: str) -> tuple[OptionSpec, ...]:
    """The options both formation games declare, named after the game's own markers."""
    key, markers = rules.marker_key, rules.markers
    options: list[OptionSpec] = []
    for side in SIDES:
        options.append(
            OptionSpec(
                f"{side}_{key}",
                OptionType.INT,
                0,
                f"{markers} on the {side}'s formation before the assault."
                + (
                    f" A side of several formations gives each its own with {key}=N on one of its groups instead."
                    if rules.several_formations
                    else ""
                ),
                brief=f"{markers} on the {side}'s formation before the assault.",
                minimum=0,
                maximum=MAX_MARKERS,
                example=example(Setting(f"{side}_{key}", 2)),
            )
        )
    for side in SIDES:
        options.append(
            OptionSpec(
                f"{side}_broken",
                OptionType.BOOL,
                False,
                f"The {side}'s formation is Broken before the assault (destroyed if it loses); it is anyway when its "
                f"{markers} {'is' if rules.markers_mass else 'are'} at least its units.",
                brief=f"The {side}'s formation is Broken before the assault (destroyed if it loses).",
                example=example(Setting(f"{side}_broken", True)),
            )
        )
    for side in SIDES:
        options.append(
            OptionSpec(
                f"{side}_support",
                OptionType.TEXT,
                None,
                f"The {side}'s formations able to lend supporting fire (within {rules.engagement_range} of a "
                "directly engaged enemy, not Broken, not Marched): a spec, formations separated by '|'.",
                brief=f"The {side}'s formations lending supporting fire: a spec, formations separated by '|'.",
                example=example(Setting(f"{side}_support", support_example)),
            )
        )
    options.append(
        OptionSpec(
            "reinforced_vs_macro",
            OptionType.CHOICE,
            "save",
            "save: a unit with reinforced-armour still takes its armour save against macro-weapon hits, without the "
            "re-roll (Epic: Armageddon's Macro-Weapon rule). no_save: macro-weapon hits deny every armour save.",
            choices=("save", "no_save"),
            brief="save: reinforced armour still saves against macro-weapon hits (no re-roll). no_save: it does not.",
            example=example(reinforced_vs_macro="no_save"),
            variant=True,
        )
    )
    text_says = (
        "draw: the text's two ways to win at once are both met and neither comes first"
        if rules.both_wiped_out == "draw"
        else "defender: every directly engaged attacker is killed, so the attack stalled (the text)"
    )
    options.append(
        OptionSpec(
            "both_wiped_out",
            OptionType.CHOICE,
            rules.both_wiped_out,
            f"Who wins when both formations are wiped out together. Default {text_says}. "
            + ("defender: the attack stalled." if rules.both_wiped_out == "draw" else "draw: nobody wins."),
            choices=("draw", "defender"),
            brief="Who wins when both formations are wiped out together: draw, or defender (the attack stalled).",
            example=example(both_wiped_out="defender" if rules.both_wiped_out == "draw" else "draw"),
            variant=True,
        )
    )
    options.append(
        OptionSpec(
            "lost_contact",
            OptionType.CHOICE,
            "ff",
            f"In a round after a tie, units in {rules.contact} whose every enemy in {rules.contact} died. ff: they "
            "are no longer in contact and fight with FF. countercharge: the players say the counter-charges put them "
            f"back in {rules.contact}, so they keep CC.",
            choices=("ff", "countercharge"),
            brief="Units whose every enemy in contact died after a tie: ff (fight with FF) or countercharge (keep CC).",
            example=example(lost_contact="countercharge"),
            variant=True,
        )
    )
    options.append(
        OptionSpec(
            "result_dice",
            OptionType.CHOICE,
            "highest",
            f"highest: 2D6 keep the highest die (the rules text). sum: add both dice ({rules.sum_reading}).",
            choices=("highest", "sum"),
            brief="highest: 2D6 keep the highest die (the rules text). sum: add both dice.",
            example=example(result_dice="sum"),
            variant=True,
        )
    )
    options.append(
        OptionSpec(
            "max_rounds",
            OptionType.INT,
            5,
            "Tied results fight another round, up to this many rounds; then the assault is a draw.",
            minimum=1,
            maximum=MAX_ROUNDS,
            example=example(max_rounds=3),
            variant=True,
        )
    )
    return tuple(options)


def token_docs(rules: FormationRules) -> tuple[TokenDoc, ...]:
    v = rules.value_text
    over = rules.hit_op is Op.AT_LEAST
    cc, ff = (v(4), v(4)) if over else (v(4), v(3))
    hit_rule = "a hit on that roll or more" if over else "a hit on a roll equal to or under it"
    docs = [
        TokenDoc(
            "CC FF",
            "stat",
            f"Close combat value (units in {rules.contact}) and firefight value (within {rules.engagement_range} "
            f"with a line of fire): {hit_rule}. FF- for units with assault weapons only; CC- or FF- units can be hit "
            "but cannot attack.",
            f"CC{cc} FF{ff}",
        ),
        TokenDoc(
            "Sv",
            "stat",
            "Armour save, 2+ to 6+, or Sv- for none." + ("" if over else " Rolled over by default (save_direction)."),
            "Sv4+",
        ),
        TokenDoc(
            "INF LV AV WE",
            "keyword",
            "The unit type (required): infantry, light or armoured vehicle, war engine.",
            "INF",
        ),
        TokenDoc("DC=N", "setting", "A war engine's damage capacity (required for WE).", "WE DC=3"),
        TokenDoc(
            "contact=N / ff=N",
            "setting",
            f"Units of the group in {rules.contact} / within {rules.engagement_range} with a line of fire. Neither "
            "given: the whole group is in contact; the rest of a group given a position is not directly engaged.",
            f"{rules.example_group.split(':')[0]}: ... contact=2 ff=4",
        ),
        TokenDoc("extra-attacks=N", "setting", "N more attack dice per unit.", "extra-attacks=1"),
        TokenDoc(
            "macro-weapon",
            "keyword",
            "Its hits deny armour saves, except reinforced armour's (allocated after the other hits).",
            "",
        ),
        TokenDoc(
            "reinforced-armour",
            "keyword",
            "Re-rolls a failed armour save; against macro-weapon hits it keeps its save but never re-rolls it.",
            "",
        ),
        TokenDoc(
            "invulnerable",
            "keyword",
            "A second save of 6+ after a failed (or denied) armour save; a unit with cover too takes the better one.",
            "",
        ),
        TokenDoc(
            "cover=N+",
            "setting",
            "A defending infantry group's cover save, taken after a failed or denied armour save (never for the "
            "attacking side).",
            "cover=4+",
        ),
    ]
    if rules.inspiring_modifier:
        docs.append(TokenDoc("inspiring", "keyword", "+1 to the result roll per surviving unit that took part.", ""))
    if rules.engaged_without_line_of_fire:
        docs.append(
            TokenDoc(
                "no-line-of-fire",
                "keyword",
                f"The group's ff=N units are within {rules.engagement_range} but have no line of fire: directly "
                "engaged (they can be hit, and keep the attack from stalling) but they cannot shoot.",
                "2x Handgunners: CC5 FF3 Sv6+ INF ff=2 no-line-of-fire",
            )
        )
    if rules.several_formations:
        key = rules.marker_key
        docs.append(
            TokenDoc(
                f"{key}=N",
                "setting",
                f"A formation's {rules.markers} before the assault, given on one of its groups: each formation of a "
                f"side of several has its own (the {key} option is for a side of one formation).",
                f"3x Line Infantry: CC4 FF3 Sv5+ INF {key}=1 | 2x Knights: CC3 FF5 Sv4+ INF",
            )
        )
        docs.append(
            TokenDoc(
                "formations and groups",
                "syntax",
                "A side is one formation, or several fighting as one with '|' between them; ';' separates the groups "
                "of one formation. Groups are listed nearest the enemy first: hits are allocated in that order. After "
                f"the assault each formation takes its own {rules.markers} and breaks on its own.",
                rules.example_side,
            )
        )
    else:
        docs.append(
            TokenDoc(
                "groups",
                "syntax",
                "Groups are listed nearest the enemy first (';' or '|' between them): hits are allocated in that "
                "order.",
                rules.example_side,
            )
        )
    return tuple(docs)


class FormationGame(Game):
    """A formation game: everything but the rules table, the options and the docs is shared."""

    rules: FormationRules
    command = "assault"
    spec_shape = (
        "a side is one formation: groups '[N x] name: tokens' separated by ';' (or '|'), nearest the enemy first. "
        "Supporting formations (options) are separated by '|'."
    )
    several_shape = (
        "a side is one or more formations fighting as one, '|' between formations, each of groups '[N x] name: "
        "tokens' separated by ';', nearest the enemy first; each formation may give its starting {markers} on one "
        "of its groups ({key}=N). Supporting formations (options) are separated by '|'."
    )
    losses_count = "units"  # stands and war engines
    outcome_words = WORDS

    def __init__(self) -> None:
        self.parser = FormationSpecParser(self.rules)
        if self.rules.several_formations:
            self.spec_shape = self.several_shape.format(markers=self.rules.markers, key=self.rules.marker_key)
        marker, markers = self.rules.marker, self.rules.markers  # the game's own markers: "Blast marker", "Shock"
        tallied = (
            Tallied("damage_capacity", "{n} damage capacity left"),  # a war engine's, which its markers count
            Tallied(self.rules.marker_key, f"{{n}} {marker}", f"{{n}} {markers}"),
            Tallied("broken", "Broken", flag=True),
        )
        self.outcome_words = replace(WORDS, tallied=tallied)

    def check_markers(self, side: str, formation: Formation, option: int) -> None:
        """A side's starting markers are said once: by the option (one formation) or by each formation's setting."""
        key, markers = self.rules.marker_key, self.rules.markers
        given = [group for group in formation.groups if group.markers is not None]
        parts = formation.parts()
        if not option or (not given and len(parts) == 1):
            return
        tokens = "; ".join(
            f"{key}=1 on {formation.groups[part[0]].name}" if i == 0 else f"{key}=0 on {formation.groups[part[0]].name}"
            for i, part in enumerate(parts)
        )
        if given:
            message = (
                f"The {side}'s {markers} is given twice: by ",
                OptionName(f"{side}_{key}"),
                f" and by {key}={given[0].markers} on '{given[0].name}'. Give it once: each formation's on one of its "
                f"groups ({key}=N), or the option alone for a side of one formation.",
            )
        else:
            message = (
                f"The {side} is {len(parts)} formations fighting as one ('|' between them), each with its own "
                f"{markers}: give each formation's on one of its groups with {key}=N (e.g. {tokens}) instead of ",
                OptionName(f"{side}_{key}"),
                ".",
            )
        raise SpecError(message, token=f"{key}=", example=f"{self.rules.example_group} {key}=1")

    def parse_side(self, text: str) -> Formation:
        return self.parser.parse_formation(text)

    def format_side(self, side: Any) -> str:
        return self.parser.format_formation(side)

    def table_summary(self, report: Report) -> TableSummary:
        from rules_core.games.formation import table  # noqa: PLC0415 (read only when a result is shown)

        return table.table_summary(report, self.rules)

    def exact_odds(self, attacker: Any, defender: Any, options: Mapping[str, Any]) -> Odds:
        from rules_core.games.formation import odds  # noqa: PLC0415 (the solver loads on first use)

        return odds.exact(self, attacker, defender, options)

    def exact_refusal(self, attacker: Any, defender: Any) -> str | None:
        from rules_core.games.formation import odds  # noqa: PLC0415 (the solver loads on first use)

        return odds.refusal(attacker, defender)

    def parse_support(self, name: str, value: OptionValue) -> Support | None:
        if value is None:
            return None
        try:
            return self.parser.parse_support(str(value))
        except RefereeError as error:
            raise type(error)(f"In {name}: {error.message}", token=error.token, example=error.example) from None

    def resolve_sides(
        self, attacker: Any, defender: Any, options: Mapping[str, OptionValue], dice: DiceSource
    ) -> Report:
        return self.assault(attacker, defender, options, dice).run()

    def assault(
        self, attacker: Formation, defender: Formation, options: Mapping[str, OptionValue], dice: DiceSource
    ) -> FormationAssault:
        """The procedure set up for these formations and options, not yet run (the exact odds follow it too)."""
        key = self.rules.marker_key
        support = (
            self.parse_support("attacker_support", options.get("attacker_support")),
            self.parse_support("defender_support", options.get("defender_support")),
        )
        settings = FormationSettings(
            markers=(int(options[f"attacker_{key}"] or 0), int(options[f"defender_{key}"] or 0)),
            broken=(bool(options["attacker_broken"]), bool(options["defender_broken"])),
            result_dice=Combine(str(options["result_dice"])),
            double_means=DoubleMeans(str(options.get("double_means", self.rules.double_means))),
            save_op=Op.AT_MOST if options.get("save_direction") == SaveDirection.UNDER else Op.AT_LEAST,
            max_rounds=int(options["max_rounds"] or 1),
            reinforced_saves_macro=options.get("reinforced_vs_macro", "save") == "save",
            both_wiped_out=str(options.get("both_wiped_out", self.rules.both_wiped_out)),
            recontact=options.get("lost_contact", "ff") == "countercharge",
            support_targets=str(options.get("support_targets", "engaged")),
        )
        check_positions(self.rules, attacker, defender)
        for side, formation in zip(SIDES, (attacker, defender), strict=True):
            self.check_markers(side, formation, int(options[f"{side}_{key}"] or 0))
        # Saves rolled under are written without '+' (Sv3), in the report and in its canonical inputs alike.
        plus = settings.save_op is Op.AT_LEAST
        normalised = dict(options)
        for name, parsed in zip(("attacker_support", "defender_support"), support, strict=True):
            normalised[name] = None if parsed is None else self.parser.format_support(parsed, save_plus=plus)
        inputs = Inputs(
            self.parser.format_formation(attacker, save_plus=plus),
            self.parser.format_formation(defender, save_plus=plus),
            FrozenMap(normalised),
        )
        return FormationAssault(
            self.rules, settings, attacker=attacker, defender=defender, support=support, inputs=inputs, dice=dice
        )
