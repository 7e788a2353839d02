"""A tavern arm-wrestle between two teams: the example game of docs/ADDING_A_GAME.md, added by
tests/test_adding_a_game.py to a copy of the project exactly as the guide says (it is not registered here).

User documentation: docs/games/armwrestle.md. Decisions on unclear points (each also in that page):

1. Wrestlers meet one at a time, in turn; each bout both roll a D6 and add their strength (and bonuses).
2. Equal totals: ``ties=replay`` (default) puts nobody out, ``both_out`` puts both wrestlers out.
3. A southpaw team gets +1 against a team that is not; the defender's home bench (``home_bench``) gives it +1.
4. After ``bouts`` bouts (6 by default) the team that lost fewer wrestlers wins on points; equal losses: a draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules_core.dice import DiceSource
from rules_core.errors import example
from rules_core.games.armwrestle import spec
from rules_core.games.armwrestle.engine import resolve
from rules_core.options import OptionSpec, OptionType, OptionValue
from rules_core.registry import Game, OutcomeWords, Tallied, TokenDoc, register
from rules_core.report import Report

if TYPE_CHECKING:
    from rules_core.odds.model import Odds

OPTIONS = (
    OptionSpec(
        "bouts",
        OptionType.INT,
        6,
        "Bouts before the landlord calls time.",
        minimum=1,
        maximum=20,
        example=example(bouts=3),
    ),
    OptionSpec(
        "home_bench",
        OptionType.BOOL,
        False,
        "The defenders wrestle at their own bench: +1 to their pulls.",
        example=example(home_bench=True),
    ),
    OptionSpec(
        "ties",
        OptionType.CHOICE,
        "replay",
        "Equal totals: replay the bout, or put both wrestlers out.",
        choices=("replay", "both_out"),
        example=example(ties="both_out"),
    ),
)

TOKENS = (
    TokenDoc("S<n>", "stat", "Strength, 1 to 6, added to every pull (required).", "3x Dockers: S4"),
    TokenDoc("southpaw", "keyword", "+1 on every bout against a team that is not southpaw.", "2x Twins: S3 southpaw"),
)

WORDS = OutcomeWords(
    loser_fates={"pinned": "was pinned to the table"},
    drawn={"both_out": "Draw: both teams are out", "time_called": "Draw: time was called with the score level"},
    models_lost=frozenset({"on_points"}),
    tallied=(Tallied("bouts", "{n} bout wrestled", "{n} bouts wrestled"),),  # its own result key, in the tally
)


class ArmWrestle(Game):
    id = "armwrestle"
    aliases = ("arm-wrestle", "aw")
    title = "Tavern arm-wrestle"
    command = "armwrestle"
    summary = "Two teams of arm-wrestlers, one bout at a time: D6 plus strength, the loser out, until time is called."
    docs_page = "docs/games/armwrestle.md"
    options = OPTIONS
    tokens = TOKENS
    example_attacker = "3x Dockers: S4 southpaw"
    example_defender = "3x Smiths: S4"
    example_options: Mapping[str, OptionValue] = {"bouts": 5}
    spec_shape = "one team: '[N x] name: S<n> [southpaw]' (one group, at most 6 wrestlers)."
    outcome_words = WORDS

    def parse_side(self, text: str) -> spec.Team:
        return spec.parse_team(text)

    def format_side(self, side: Any) -> str:
        return spec.format_team(side)

    def resolve_sides(
        self, attacker: Any, defender: Any, options: Mapping[str, OptionValue], dice: DiceSource
    ) -> Report:
        return resolve(attacker, defender, options, dice)

    def exact_odds(self, attacker: Any, defender: Any, options: Mapping[str, Any]) -> Odds:
        from rules_core.games.armwrestle import odds  # noqa: PLC0415 (the solver loads on first use)

        return odds.exact(attacker, defender, options)

    def exact_refusal(self, attacker: Any, defender: Any) -> str | None:  # noqa: ARG002
        return None  # the solver takes every match


GAME = register(ArmWrestle())
