"""Formation specs (Epic: Armageddon, Reikhammer): the parser and the canonical formatter (the typed groups and
formations they read and write are in units.py, and re-exported here).

A side fights as one formation (formations drawn into the assault fight as one,
as both rules texts say), its groups listed nearest to the enemy first. In Epic
its groups are separated by ``;`` or ``|``; in Reikhammer (``several_formations``)
``|`` separates the formations that make it up and ``;`` the groups of one, each
formation giving its own starting Shock (``shock=N`` on one of its groups). A
supporting-fire spec is one or more formations separated by ``|``, each of groups
separated by ``;``.

Group shape: ``[N x] name: CC4+ FF4+ Sv4+ INF [contact=N] [ff=N] [specials]``
(Reikhammer writes ``CC4 FF3``: it hits on a roll equal to or under the value).
"""

from __future__ import annotations

import re

from rules_core.errors import RefereeError, SpecError
from rules_core.games.formation.rules import FormationRules
from rules_core.games.formation.units import (
    INSPIRING,
    INVULNERABLE,
    INVULNERABLE_SAVE,
    MACRO_WEAPON,
    MAX_DC,
    MAX_EXTRA_ATTACKS,
    MAX_MARKERS,
    NO_LINE_OF_FIRE,
    REINFORCED_ARMOUR,
    SETTINGS,
    SPECIALS,
    UNIT_TYPES,
    Formation,
    Group,
    Position,
    Support,
    UnitType,
)
from rules_core.report import Op
from rules_core.spec import (
    GroupSpec,
    SideSpec,
    Token,
    TokenKind,
    closest,
    did_you_mean,
    fixed_setting,
    fixed_stat,
    parse_side_spec,
    suggest_stat,
)

_NUMBER = re.compile(r"^\d{1,3}$")
_MODELS = re.compile(r"\bmodel(s?)\b")
_VALUE = re.compile(r"^(\d{1,2})(\+?)$")


class FormationSpecParser:
    """Parses and formats sides for one formation game's rules table."""

    def __init__(self, rules: FormationRules) -> None:
        self.rules = rules
        # Settings: a formation's starting markers (shock=N) where a side may be several formations.
        self.settings = (*SETTINGS, rules.marker_key) if rules.several_formations else SETTINGS
        refused = {INSPIRING} if not rules.inspiring_modifier else set()
        if not rules.engaged_without_line_of_fire:
            refused.add(NO_LINE_OF_FIRE)
        self.specials = tuple(special for special in SPECIALS if special not in refused)
        self.support_example = f"3x Devastators: FF{rules.value_text(3 if rules.hit_op is Op.AT_LEAST else 4)}"
        # Stat keys with an example value: read in any case (cc4+ is CC4+); near misses suggest one of these. DC has
        # none: only a war engine has one, so a value standing alone ('INF 3') is never read as a DC lost its key.
        self.stat_examples = {"CC": rules.value_text(4), "FF": rules.value_text(4), "Sv": "4+", "DC": ""}
        self.keywords = frozenset((*SPECIALS, *UNIT_TYPES, *(unit_type.lower() for unit_type in UNIT_TYPES)))

    # ------------------------------------------------------------------ errors

    def _error(self, message: str, token: str, example: str | None = None, fix: str | None = None) -> SpecError:
        return SpecError(message, token=token, example=example or self.rules.example_group, fix=fix)

    # ------------------------------------------------------------------ values

    def _value(self, token: Token, group: str, what: str, example: str) -> int | None:
        """CC / FF: Epic's 2+ to 6+ (roll over), Reikhammer's 1 to 6 (roll under); '-' for none."""
        if token.value == "-":
            return None
        match = _VALUE.match(token.value)
        rules = self.rules
        if rules.hit_op is Op.AT_LEAST:
            if match is None or match.group(2) != "+" or not 2 <= int(match.group(1)) <= 6:
                hint = f" Did you mean {token.key}{match.group(1)}+?" if match and not match.group(2) else ""
                raise self._error(
                    f"'{token.text}' on '{group}': {rules.game_name} {what} values are 2+ to 6+ "
                    f"(a hit on that roll or more), or {token.key}- for none.{hint}",
                    token.text,
                    example,
                    fix=f"{token.key}{match.group(1)}+" if hint and match else None,
                )
        elif match is None or match.group(2) == "+" or not 1 <= int(match.group(1)) <= 6:
            hint = f" Did you mean {token.key}{match.group(1)}?" if match and match.group(2) else ""
            raise self._error(
                f"'{token.text}' on '{group}': {rules.game_name} hits on a roll equal to or under the value, "
                f"so {what} is written 1 to 6 without '+', or {token.key}- for none.{hint}",
                token.text,
                example,
                fix=f"{token.key}{match.group(1)}" if hint and match else None,
            )
        return int(match.group(1))

    def _save(self, text: str, value: str, group: str, example: str, *, setting: bool = False) -> int:
        match = _VALUE.match(value)
        needs_plus = self.rules.hit_op is Op.AT_LEAST
        if match is None or (needs_plus and match.group(2) != "+") or not 2 <= int(match.group(1)) <= 6:
            form = "cover=4+" if setting else "Sv4+"
            raise self._error(
                f"'{text}' on '{group}': a save is written {form}, from 2+ to 6+"
                + ("." if setting else " (or Sv- for none)."),
                text,
                example,
                fix=text + "+" if match is not None and needs_plus and not match.group(2) else None,
            )
        return int(match.group(1))

    def _int_setting(self, token: Token, low: int, high: int, group: str, example: str) -> int:
        if not _NUMBER.match(token.value) or not low <= int(token.value) <= high:
            key = "DC" if token.key == "dc" else token.key
            raise self._error(
                f"'{token.text}' on '{group}': {key} must be a whole number from {low} to {high}.",
                token.text,
                _with_setting(example, key, low, high),
            )
        return int(token.value)

    def _example(self, *, supporting: bool) -> str:
        """A correct group for where the refused one stands: supporting formations give no contact=."""
        return self.support_example if supporting else self.rules.example_group

    # ------------------------------------------------------------------ groups

    def parse_group(self, spec: GroupSpec, *, supporting: bool) -> Group:
        stats: dict[str, int | None] = {}
        specials: set[str] = set()
        settings: dict[str, Token] = {}
        unit_type: UnitType | None = None
        example = self._example(supporting=supporting)
        for token in spec.tokens:
            if token.kind is TokenKind.STAT:
                self._read_stat(token, spec.name, stats, example)
            elif token.kind is TokenKind.KEYWORD:
                upper = token.key.upper()
                if upper in UNIT_TYPES:
                    if unit_type is not None:
                        raise self._error(f"'{spec.name}' gives a unit type twice.", token.text, example)
                    unit_type = UnitType(upper)
                elif token.key in self.specials:
                    if token.key in specials:
                        raise self._error(f"'{spec.name}' gives {token.key} twice.", token.text, example)
                    specials.add(token.key)
                elif token.key == INSPIRING:
                    raise self._error(
                        f"'{token.text}' on '{spec.name}': {self.rules.game_name}'s assault result has no Inspiring "
                        "modifier, so the keyword would change nothing.",
                        token.text,
                        example,
                    )
                elif token.key == NO_LINE_OF_FIRE:
                    raise self._error(
                        f"'{token.text}' on '{spec.name}': in {self.rules.game_name} a unit needs a line of fire to "
                        f"be directly engaged (within {self.rules.engagement_range} and a line of fire), so one "
                        "without is not directly engaged: leave it out of contact= and ff= (it neither attacks nor "
                        "can be hit).",
                        token.text,
                        example,
                    )
                else:
                    known = (*(t.value for t in UnitType), *self.specials)
                    raise self._error(
                        f"Unknown keyword '{token.text}' on '{spec.name}'.{did_you_mean(token.key, known)} "
                        f"Unit types: INF LV AV WE; specials: {' '.join(self.specials)}.",
                        token.text,
                        example,
                        fix=closest(token.key, known),
                    )
            else:
                if token.key not in self.settings:
                    raise self._error(
                        f"Unknown setting '{token.text}' on '{spec.name}'.{did_you_mean(token.key, self.settings)} "
                        "Settings: " + ", ".join(f"{name}=" for name in self.settings) + ".",
                        token.text,
                        example,
                        fix=fixed_setting(token, self.settings),
                    )
                if token.key in settings:
                    raise self._error(f"'{spec.name}' gives {token.key}= twice.", token.text, example)
                settings[token.key] = token
        if "DC" in stats:
            if "dc" in settings:
                raise self._error(f"'{spec.name}' gives its damage capacity twice.", "dc", _war_engine_example(self))
            settings["dc"] = Token(f"DC={stats['DC']}", TokenKind.SETTING, "dc", str(stats.pop("DC")))
        return self._build_group(spec, stats, specials, settings, unit_type, supporting=supporting)

    def _read_stat(self, token: Token, group: str, stats: dict[str, int | None], example: str) -> None:
        key = token.key
        if key in ("CC", "FF"):
            value = self._value(token, group, key, example)
        elif key == "Sv":
            value = None if token.value == "-" else self._save(token.text, token.value, group, example)
        elif key == "DC":
            if not _NUMBER.match(token.value) or not 1 <= int(token.value) <= MAX_DC:
                raise self._error(
                    f"'{token.text}' on '{group}': DC must be 1 to {MAX_DC}.", token.text, _war_engine_example(self)
                )
            value = int(token.value)
        else:
            hint = suggest_stat(key, token.value, self.stat_examples)
            raise self._error(
                f"Unknown stat '{token.text}' on '{group}'. {self.rules.game_name} stats are CC FF Sv "
                f"(and DC for war engines).{hint}",
                token.text,
                example,
                fix=fixed_stat(key, token.value, self.stat_examples),
            )
        if key in stats:
            raise self._error(f"'{group}' gives {key} twice.", token.text, example)
        stats[key] = value

    def _build_group(
        self,
        spec: GroupSpec,
        stats: dict[str, int | None],
        specials: set[str],
        settings: dict[str, Token],
        unit_type: UnitType | None,
        *,
        supporting: bool,
    ) -> Group:
        name = spec.name
        example = self._example(supporting=supporting)
        if supporting:
            if "FF" not in stats or stats["FF"] is None:
                raise self._error(
                    f"'{name}' is in a supporting formation, which fires with its FF value: give it one.",
                    name,
                    self.support_example,
                )
            if "contact" in settings:
                raise self._error(
                    f"'{name}' is in a supporting formation: supporting units are never in {self.rules.contact} "
                    "(use ff=N for how many can fire).",
                    settings["contact"].text,
                    self.support_example,
                )
            if self.rules.marker_key in settings:
                raise self._error(
                    f"'{settings[self.rules.marker_key].text}' on '{name}': a supporting formation's "
                    f"{self.rules.markers} play no part in the assault (it gains 1 if its side loses).",
                    settings[self.rules.marker_key].text,
                    self.support_example,
                )
            if NO_LINE_OF_FIRE in specials:
                raise self._error(
                    f"'{name}' is in a supporting formation, which fires only with a line of fire: leave "
                    f"{NO_LINE_OF_FIRE} out and give ff=N for how many of its units have one.",
                    NO_LINE_OF_FIRE,
                    self.support_example,
                )
        else:
            missing = [key for key in ("CC", "FF", "Sv") if key not in stats]
            if missing or unit_type is None:
                missing += [] if unit_type is not None else ["a unit type (INF, LV, AV or WE)"]
                raise self._error(
                    f"'{name}' is missing {', '.join(missing)}: every {self.rules.game_name} group needs "
                    "CC, FF (FF- for assault weapons only), Sv (Sv- for none) and its type.",
                    name,
                )
        dc = 1
        if unit_type is UnitType.WAR_ENGINE:
            if "dc" not in settings:
                raise self._error(
                    f"'{name}' is a war engine: give its damage capacity, e.g. DC=3.", name, _war_engine_example(self)
                )
            dc = self._int_setting(settings["dc"], 1, MAX_DC, name, _war_engine_example(self))
        elif "dc" in settings:
            raise self._error(
                f"'{settings['dc'].text}' on '{name}': only war engines (WE) have a damage capacity.",
                settings["dc"].text,
                _war_engine_example(self),
            )
        contact = (
            self._int_setting(settings["contact"], 0, spec.count, name, example) if "contact" in settings else None
        )
        in_range = self._int_setting(settings["ff"], 0, spec.count, name, example) if "ff" in settings else None
        if supporting:
            contact, in_range = 0, spec.count if in_range is None else in_range
        elif contact is None and in_range is None:
            contact, in_range = spec.count, 0
        contact, in_range = contact or 0, in_range or 0
        if contact + in_range > spec.count:
            raise self._error(
                f"'{name}' has {spec.count} unit{'' if spec.count == 1 else 's'} but contact={contact} and "
                f"ff={in_range} make {contact + in_range}.",
                settings.get("ff", settings.get("contact", spec.tokens[0])).text,
                self.rules.example_group,
            )
        extra = (
            self._int_setting(settings["extra-attacks"], 1, MAX_EXTRA_ATTACKS, name, example)
            if "extra-attacks" in settings
            else 0
        )
        cover = None
        if "cover" in settings:
            cover = self._save(settings["cover"].text, settings["cover"].value, name, example, setting=True)
        key = self.rules.marker_key
        markers = self._int_setting(settings[key], 0, MAX_MARKERS, name, example) if key in settings else None
        return Group(
            count=spec.count,
            name=name,
            cc=stats.get("CC"),
            ff=stats.get("FF"),
            save=stats.get("Sv"),
            unit_type=unit_type,
            dc=dc,
            contact=contact,
            in_range=in_range,
            extra_attacks=extra,
            cover=cover,
            specials=frozenset(specials),
            markers=markers,
        )

    # ------------------------------------------------------------------ sides

    def _read(self, text: str, example: str, part: str = "Formation") -> SideSpec:
        """The generic reader's split, its errors counting units (stands, vehicles, war engines), not models, and
        naming what '|' separates: formations (in Epic, formations drawn in that fight as one)."""
        try:
            return parse_side_spec(
                text,
                example=example,
                stats=self.stat_examples,
                keywords=self.keywords,
                settings=self.settings,
                part=part,
            )
        except RefereeError as error:
            worded = _MODELS.sub(lambda found: "unit" + found.group(1), error.message)
            if worded == error.message:
                raise
            raise type(error)(
                worded, token=error.token, example=error.example, hint=error.hint, fix=error.fix
            ) from None

    def parse_formation(self, text: str) -> Formation:
        side = self._read(text, self.rules.example_side)
        parts = [tuple(self.parse_group(g, supporting=False) for g in unit.groups) for unit in side.units]
        key = self.rules.marker_key
        for part in parts:
            given = [group for group in part if group.markers is not None]
            if len(given) > 1:
                raise self._error(
                    f"'{given[1].name}' gives its formation's {self.rules.markers} twice ({key}= on '{given[0].name}' "
                    f"too): give it once, on one group of the formation ('|' separates formations, ';' the groups of "
                    "one).",
                    f"{key}={given[1].markers}",
                    f"{self.rules.example_group} {key}=1",
                )
        groups = tuple(group for part in parts for group in part)
        several = self.rules.several_formations and len(parts) > 1
        return Formation(groups, tuple(len(part) for part in parts) if several else ())

    def parse_support(self, text: str) -> Support:
        side = self._read(text, self.support_example, "Supporting formation")
        return Support(
            tuple(Formation(tuple(self.parse_group(g, supporting=True) for g in unit.groups)) for unit in side.units)
        )

    def format_group(self, group: Group, *, supporting: bool, save_plus: bool = True) -> str:
        """``save_plus=False`` writes saves rolled under (Reikhammer's save_direction=under) as Sv3, cover=4."""
        rules = self.rules
        plus = "+" if save_plus else ""
        words = []
        if group.cc is not None or not supporting:
            words.append(f"CC{rules.value_text(group.cc)}")
        words.append(f"FF{rules.value_text(group.ff)}")
        if group.save is not None or not supporting:
            words.append("Sv-" if group.save is None else f"Sv{group.save}{plus}")
        if group.unit_type is not None:
            words.append(group.unit_type.value)
        if group.war_engine:
            words.append(f"DC={group.dc}")
        if supporting:
            words.append(f"ff={group.in_range}")
        else:
            words += [f"contact={group.contact}", f"ff={group.in_range}"]
        if group.extra_attacks:
            words.append(f"extra-attacks={group.extra_attacks}")
        if group.cover is not None:
            words.append(f"cover={group.cover}{plus}")
        if group.markers is not None:
            words.append(f"{rules.marker_key}={group.markers}")
        words += [special for special in SPECIALS if special in group.specials]
        return f"{group.count}x {group.name}: " + " ".join(words)

    def format_formation(self, formation: Formation, *, save_plus: bool = True) -> str:
        """Canonical text: every default written out, so it re-parses to the same formation ('|' between the
        formations of a side of several)."""
        return " | ".join(
            " ; ".join(self.format_group(formation.groups[i], supporting=False, save_plus=save_plus) for i in part)
            for part in formation.parts()
        )

    def format_support(self, support: Support, *, save_plus: bool = True) -> str:
        return " | ".join(
            " ; ".join(self.format_group(group, supporting=True, save_plus=save_plus) for group in formation.groups)
            for formation in support.formations
        )


def _war_engine_example(parser: FormationSpecParser) -> str:
    v = parser.rules.value_text
    high, low = (3, 4) if parser.rules.hit_op is Op.AT_LEAST else (4, 3)
    return f"1x Warhound Titan: CC{v(high)} FF{v(low)} Sv5+ WE DC=3 reinforced-armour"


def _with_setting(example: str, key: str, low: int, high: int) -> str:
    """The example with ``key=N`` in range: its own value kept if it fits, else replaced; appended if absent.

    Appending a key the example already gives would make the example itself refused ("gives contact= twice").
    """
    pattern = re.compile(rf"(?<!\S){re.escape(key)}=(\S+)", re.IGNORECASE)
    found = pattern.search(example)
    value = max(low, 1)
    if found is None:
        return f"{example} {key}={value}"
    if _NUMBER.match(found.group(1)) and low <= int(found.group(1)) <= high:
        return example
    return example[: found.start()] + f"{found.group(0).split('=')[0]}={value}" + example[found.end() :]


__all__ = [
    "INSPIRING",
    "INVULNERABLE",
    "INVULNERABLE_SAVE",
    "MACRO_WEAPON",
    "MAX_DC",
    "MAX_EXTRA_ATTACKS",
    "MAX_MARKERS",
    "NO_LINE_OF_FIRE",
    "REINFORCED_ARMOUR",
    "SETTINGS",
    "SPECIALS",
    "Formation",
    "FormationSpecParser",
    "Group",
    "Position",
    "Support",
    "UnitType",
]
