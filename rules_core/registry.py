"""The games the referee knows, registered by id and aliases (like python-chess's variants).

A game is one package under ``rules_core/games/`` that subclasses :class:`Game`
and registers an instance. Adding a game changes nothing in ``bot/`` or ``cogs/``:
the CLI and the slash commands are generated from the registry, and whatever else
is the game's own (its odds solvers, its outcome words, its charts, whether a combat
goes on) the game declares through the optional hooks of :class:`Game`.
"""

from __future__ import annotations

import difflib
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules_core import compact
from rules_core.dice import DiceSource
from rules_core.errors import GameCommand, Part, UnknownGameError, UnsupportedError
from rules_core.options import OptionSpec, OptionValue
from rules_core.report import Report, Step
from rules_core.table import TableSummary, default_table_summary

if TYPE_CHECKING:
    from rules_core.odds.model import Odds


@dataclass(frozen=True, slots=True)
class TokenDoc:
    """One spec token as `referee help GAME` lists it."""

    token: str
    kind: str  # "stat", "keyword" or "setting"
    help: str
    example: str = ""


@dataclass(frozen=True, slots=True)
class Tallied:
    """One of a game's own result keys, as the summary's tally shows it beside what each side lost.

    A count reads ``one`` when it is 1 and ``many`` otherwise (``many`` empty: ``one`` always), with ``{n}`` the
    count: ``Tallied("wounds_inflicted", "inflicted {n} wound", "inflicted {n} wounds")``. A ``flag`` shows ``one``
    when the key is true (``Tallied("broken", "Broken", flag=True)``). A key a side's result lacks shows nothing.
    """

    key: str
    one: str
    many: str = ""
    flag: bool = False

    def text(self, value: object) -> str | None:
        if self.flag:
            return self.one if value else None
        if value is None:
            return None
        return (self.one if value == 1 or not self.many else self.many).format(n=value)


@dataclass(frozen=True, slots=True)
class OutcomeWords:
    """How the summary words a game's results (``bot/render/summary.py`` reads them; none: the outcome's own name).

    ``loser_fates``: outcome -> what befell the loser ("fell back"); ``drawn``: a drawn outcome -> the whole
    headline ("Draw: both sides were wiped out"); ``on_wounds``: outcomes decided by the wounds inflicted over the
    fight, where the loser may still stand ("on wounds (3 to 1)"); ``models_lost``: outcomes whose fate is how many
    models the loser lost ("lost 2 models"); ``decided``: (outcome, winner) -> the whole headline of a won result
    the other words cannot say ("Both formations were wiped out; the attack stalled, so the defender wins");
    ``tallied``: the game's own result keys the tally shows, in order; ``loser_breaks``: what the odds' "loser
    breaks" (``Odds.p_loser_breaks``) counts, in the game's own words.
    """

    loser_fates: Mapping[str, str] = field(default_factory=dict)
    drawn: Mapping[str, str] = field(default_factory=dict)
    on_wounds: frozenset[str] = frozenset()
    models_lost: frozenset[str] = frozenset()
    decided: Mapping[tuple[str, str], str] = field(default_factory=dict)
    tallied: tuple[Tallied, ...] = ()
    loser_breaks: str = "The loser breaks or is destroyed"


@dataclass(frozen=True, slots=True)
class Chart:
    """A quick ruling a game's players look up: the number needed for one or two values, or a fixed text.

    ``answer`` takes the values given (each 1 to 10, checked before) and returns the ruling in a few lines of
    Markdown, the number needed in bold; ``needs`` names the values, in order ("the attacker's WS", "the
    defender's WS"), none for a fixed text. Games that share a chart declare the same object (``rules_core.charts``).
    """

    name: str  # as typed: "to-hit"
    title: str  # one line: "40K close combat to hit: attacker's WS against defender's WS"
    needs: tuple[str, ...]
    answer: Callable[..., str]
    order: int = 100  # where it stands in the list of charts: lower first, ties in the games' order


@dataclass(frozen=True, slots=True)
class NextRound:
    """The inputs of a combat's next round, and which positions applied, in words for either front end."""

    attacker: str
    defender: str
    options: dict[str, Any]
    positions: str


class Game(ABC):
    """What every game module declares and implements.

    Required: the class attributes up to ``example_defender`` and the three abstract methods. Optional hooks,
    whose defaults mean "this game has none":

    - ``data_files`` / :meth:`with_data`: YAML tables the game reads (``bot`` loads and binds them);
    - :meth:`exact_odds`, :meth:`exact_refusal`, :meth:`sampled_odds`: its odds solvers (``rules_core.odds``
      asks them, then falls back on Monte Carlo through the referee); each loads its solver on first use, so
      that ``import rules_core`` loads no NumPy;
    - ``losses_count``: what a side's losses count, "models" or "units" (the odds chart's axis);
    - ``outcome_words``: the summary's words for its outcomes (:class:`OutcomeWords`);
    - :meth:`table_summary`: what the players do at the table after a result (what each side removes, the moves
      with their distances, what to roll next: :class:`~rules_core.table.TableSummary`); the default reads the
      casualty events and the "What happens next" step;
    - ``charts``: its quick rulings (:class:`Chart`, the ``chart`` command);
    - ``continues`` / ``positions_help`` / :meth:`next_round`: whether a result can go on into another round;
    - ``standing_choices``: the choices it always makes the same way for the players (``/help`` shows them);
    - ``short_title``: the few words a result's heading names it by on a phone ("40K assault"; none: ``title``);
    - :meth:`step_line`: a step of its report in one short line (the result message's step list);
    - ``roll_kinds``: what its rolls are for, a closed list (``Roll.kind``).
    """

    id: str
    aliases: tuple[str, ...] = ()
    title: str
    short_title: str = ""  # a result's heading on a phone: "40K assault" (empty: the title)
    # How the referee always makes a choice the rules leave to the players (40K: which models die), in a few plain
    # sentences each: /help shows them, so a result need not repeat them (its "Why?" button does, privately).
    standing_choices: tuple[str, ...] = ()
    command: str  # the CLI / slash command it lives under: "assault", "duel", "closequarters"
    summary: str
    docs_page: str
    options: tuple[OptionSpec, ...] = ()
    tokens: tuple[TokenDoc, ...] = ()
    example_attacker: str
    example_defender: str
    example_options: Mapping[str, OptionValue] = {}
    spec_shape: str = "units separated by '|', groups of a unit by ';', each group '[N x] name: tokens'."
    # Game data this game reads from YAML files under data/ (name -> path), e.g. a weapon table. rules_core
    # does no I/O: bot/ loads each file and hands the parsed data to with_data().
    data_files: Mapping[str, str] = {}

    # What a side's losses count: "models", or "units" where a unit is the casualty (stands, war engines).
    losses_count: str = "models"
    outcome_words: OutcomeWords = OutcomeWords()
    charts: tuple[Chart, ...] = ()
    # The closed list of what its rolls are for (``Roll.kind``): names from rules_core.roll_kinds where one fits,
    # its own where none does. Every roll of its reports has one of these and the side it was rolled for.
    roll_kinds: tuple[str, ...] = ()
    # A game whose combats can go on into another round says what they are called ("40K assaults"), and how a
    # player gives the positions of a unit's models for the next round; it then implements next_round().
    continues: str = ""
    positions_help: str = ""

    @property
    def heading(self) -> str:
        """What a result's title names the game by: its short title, or its title when it has none."""
        return self.short_title or self.title

    def step_line(self, step: Step) -> str:
        """One step of this game's report as one short line of plain text (at most ``compact.LINE`` characters):
        the result message lists the steps so, the full dice being one tap away. The default is built from the
        step's title, rolls and events (:func:`rules_core.compact.step_line`); a game says it in its own words. An
        empty line leaves the step out of the list, for a step the summary above it already says whole (who won and
        on what); a step titled "What happens next" is never listed (the summary's Move and Next lines say it)."""
        return compact.step_line(step)

    def with_data(self, data: Mapping[str, Any]) -> Game:  # noqa: ARG002 (a game with no data files ignores it)
        """This game bound to its data files' parsed contents (``data`` has one entry per ``data_files`` key)."""
        return self

    def exact_odds(self, attacker: Any, defender: Any, options: Mapping[str, Any]) -> Odds | None:  # noqa: ARG002
        """The exact odds of parsed sides with validated options, or None when this game has no exact solver.

        A solver that cannot take these sides raises ``rules_core.odds.model.NotExact`` with the reason."""
        return None

    def exact_refusal(self, attacker: Any, defender: Any) -> str | None:  # noqa: ARG002
        """Why an exact answer for these parsed sides cannot be had, found before any computing, or None."""
        return f"there is no exact calculation for {self.title} yet"

    def sampled_odds(
        self, attacker: Any, defender: Any, options: Mapping[str, Any], *, trials: int, seed: int
    ) -> Odds | None:
        """Monte Carlo odds that sample a model of the procedure (vectorised: far faster than resolving through
        the referee), or None when this game has none. Raises ``NotExact`` for what the model does not cover."""
        del attacker, defender, options, trials, seed  # the default: this game has none
        return None

    def next_round(
        self, report: Report, *, attacker_positions: str | None, defender_positions: str | None
    ) -> NextRound:
        """The next round of a combat that goes on (its report holds a ``continues`` event), the positions
        given per side or None for the default; a RefereeError when they do not fit."""
        del report, attacker_positions, defender_positions  # the default: no combat of this game goes on
        raise UnsupportedError(f"{self.title}: a combat does not go on into another round.")

    def table_summary(self, report: Report) -> TableSummary:
        """What the players do at the table after ``report`` (one of this game's), read from its events and result,
        never changing it. The default: each side's casualty events by unit ("3 Ork Boys", counted in
        ``losses_count``), the sides wiped out, and the notes of a step titled "What happens next" as the next step,
        with no separate moves; a game overrides it to name groups and models and to give each move its distance."""
        return default_table_summary(report, self.losses_count)

    @abstractmethod
    def parse_side(self, text: str) -> Any:
        """Parse a side spec into this game's typed side, or raise SpecError/LimitError."""

    @abstractmethod
    def format_side(self, side: Any) -> str:
        """The canonical spec text of a parsed side (parse(format(s)) == s)."""

    @abstractmethod
    def resolve_sides(
        self, attacker: Any, defender: Any, options: Mapping[str, OptionValue], dice: DiceSource
    ) -> Report:
        """Resolve the procedure on parsed sides with validated options."""


_GAMES: dict[str, Game] = {}
_ALIASES: dict[str, str] = {}


def register(game: Game) -> Game:
    # A game's command is one of its names too (games_named): no id or alias may be another game's command.
    commands = {other.command.lower(): other.id for other in _GAMES.values() if other.id != game.id}
    names = (game.id, *game.aliases)
    for name in names:
        owner = _ALIASES.get(name.lower()) or commands.get(name.lower())
        if owner is not None and owner != game.id:
            raise ValueError(f"the name {name!r} is already taken by the game {owner!r}")
    owner = _ALIASES.get(game.command.lower())
    if owner is not None and owner != game.id:
        raise ValueError(f"the command {game.command!r} is already the name of the game {owner!r}")
    for name in names:  # checked first, kept after: a refused game leaves nothing behind
        _ALIASES[name.lower()] = game.id
    _GAMES[game.id] = game
    return game


def _key(name: object) -> str:
    """A name as compared: case and surrounding space ignored, a slash command's leading '/' too."""
    return " ".join(str(name).strip().lstrip("/").lower().split())


def command_path(game: Game) -> str:
    """The command a game is fought with, the same words everywhere: ``closequarters``, ``duel``, ``assault 40k``
    (a command several games share takes the game's id after it)."""
    shared = sum(other.command == game.command for other in _GAMES.values()) > 1
    return f"{game.command} {game.id}" if shared else game.command


def names_of(game: Game) -> tuple[str, ...]:
    """Every name that finds ``game``: its id, its aliases and its command path."""
    return tuple(dict.fromkeys((game.id, *game.aliases, command_path(game))))


def games_named(name: str) -> tuple[Game, ...]:
    """The games a name means: one for an id, an alias or a command path (``closequarters``, ``assault 40k``,
    ``/duel``), several for a command they share (``assault``), none for an unknown name."""
    key = _key(name)
    game_id = _ALIASES.get(key)
    if game_id is not None:
        return (_GAMES[game_id],)
    command, _, rest = key.partition(" ")
    if rest:  # "assault 40k": the command, then any name of one of its games
        inner = _ALIASES.get(rest)
        found = _GAMES.get(inner or "")
        return (found,) if found is not None and found.command.lower() == command else ()
    return tuple(game for game in all_games() if game.command.lower() == key)


def games_like(name: str) -> tuple[Game, ...]:
    """The games an unknown name may mean: a word of their title (``warhammer``: 40k and duel), part of one of their
    names (``warhammer40k``) or a near spelling of one (``reikhammer``). A name of several words fits every game one
    of its words fits (``warhammer 2nd``: duel, 40k and reikhammer), those fitting more of its words first, then a
    game the whole name fits, then in the games' order."""
    key = _key(name)
    if len(key) < 2:
        return ()
    words = [word for word in key.split() if len(word) >= 2]
    ranked = []
    for position, game in enumerate(all_games()):
        fitted = sum(_fits(word, game) for word in words)
        whole = _fits(key, game)
        if fitted or whole:
            ranked.append((-fitted, -whole, position, game))
    return tuple(game for *_, game in sorted(ranked, key=lambda row: row[:3]))


def _fits(key: str, game: Game) -> bool:
    """Whether one word (or a whole name) may mean ``game`` (see games_like)."""
    names = [other.lower() for other in (game.id, *game.aliases, game.command)]
    words = re.split(r"[^a-z0-9]+", game.title.lower())
    return bool(
        key in words
        or any(key in other for other in names if len(key) >= 3)
        or difflib.get_close_matches(key, names, n=1, cutoff=0.7)
    )


def _listed(games: tuple[Game, ...]) -> list[Part]:
    """``40k (assault 40k), duel (duel)``: each game's id and its command, which each front end writes its way."""
    parts: list[Part] = []
    for position, game in enumerate(games):
        if position:
            parts.append(" or " if position == len(games) - 1 else ", ")
        parts += [f"{game.id} (", GameCommand(game.id, command_path(game)), ")"]
    return parts


def get_game(name: str) -> Game:
    found = games_named(name)
    if len(found) == 1:
        return found[0]
    if found:
        raise UnknownGameError(
            [f"'{name}' is the command of {len(found)} games: ", *_listed(found), ". Name one of them."],
            token=str(name),
            example=found[0].id,
        )
    known = sorted(_GAMES)
    like = games_like(name)
    if like:
        several = f"It fits {len(like)} games: " if len(like) > 1 else "Did you mean "
        raise UnknownGameError(
            [f"Unknown game '{name}'. {several}", *_listed(like), "." if len(like) > 1 else "?"],
            token=str(name),
            example=like[0].id,
        )
    raise UnknownGameError(
        f"Unknown game '{name}'. Known games: {', '.join(known)} (each also goes by its aliases and its command name).",
        token=str(name),
        example=known[0] if known else None,  # the first known game, as the list names them
    )


def all_games() -> tuple[Game, ...]:
    return tuple(_GAMES[game_id] for game_id in sorted(_GAMES))


def all_charts() -> tuple[Chart, ...]:
    """Every game's quick-ruling charts by their ``order``, a chart several games share once."""
    found: dict[str, Chart] = {}
    for game in all_games():
        for chart in game.charts:
            found.setdefault(chart.name, chart)
    return tuple(sorted(found.values(), key=lambda chart: chart.order))
