"""Arm-wrestling teams: one team a side, written as one group: ``[N x] name: S<n> [southpaw]``.

``S`` (strength, 1 to 6) is required; ``southpaw`` gives +1 on every bout against a team that is not.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.errors import LimitError, SpecError
from rules_core.spec import TokenKind, did_you_mean, parse_side_spec, suggest_stat

EXAMPLE = "3x Dockers: S4 southpaw"
STATS = {"S": "4"}  # each stat key with an example value (suggest_stat ranks near misses by it)
SOUTHPAW = "southpaw"
KEYWORDS = (SOUTHPAW,)
MAX_WRESTLERS = 6


@dataclass(frozen=True, slots=True)
class Team:
    count: int
    name: str
    strength: int
    southpaw: bool


def parse_team(text: str) -> Team:
    side = parse_side_spec(text, example=EXAMPLE, stats=STATS, keywords=KEYWORDS)
    groups = [group for unit in side.units for group in unit.groups]
    if len(groups) != 1:
        raise SpecError(f"An arm-wrestling side is one team written as one group, not {len(groups)}.",
                        token="|" if len(side.units) > 1 else ";", example=EXAMPLE)  # fmt: skip
    group = groups[0]
    if group.count > MAX_WRESTLERS:
        raise LimitError(f"'{group.name}' has {group.count} wrestlers; the limit is {MAX_WRESTLERS}.",
                         token=f"{group.count}x", example=EXAMPLE)  # fmt: skip
    strength: int | None = None
    southpaw = False
    for token in group.tokens:
        if token.kind is TokenKind.STAT and token.key.upper() == "S":
            if not token.value.isdigit() or not 1 <= int(token.value) <= 6:
                raise SpecError(f"'{token.text}': strength is 1 to 6.", token=token.text, example=EXAMPLE)
            strength = int(token.value)
        elif token.kind is TokenKind.STAT:
            hint = suggest_stat(token.key, token.value, STATS)
            raise SpecError(f"Unknown stat '{token.text}' on '{group.name}'.{hint}", token=token.text, example=EXAMPLE)
        elif token.kind is TokenKind.KEYWORD and token.key == SOUTHPAW:
            southpaw = True
        else:
            hint = did_you_mean(token.key, KEYWORDS)
            raise SpecError(f"Unknown token '{token.text}' on '{group.name}'.{hint} Tokens: S<n>, southpaw.",
                            token=token.text, example=EXAMPLE)  # fmt: skip
    if strength is None:
        raise SpecError(f"'{group.name}' has no strength: add S1 to S6.", token=group.name, example=EXAMPLE)
    return Team(group.count, group.name, strength, southpaw)


def format_team(team: Team) -> str:
    """Canonical text: parse_team(format_team(t)) == t."""
    return f"{team.count}x {team.name}: S{team.strength}" + (f" {SOUTHPAW}" if team.southpaw else "")
