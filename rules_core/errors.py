"""Errors the referee raises for input it cannot resolve, in words no front end owns.

What the rules resolve is never an error (a charge from 9" is a report whose
outcome is ``no_charge``). Errors are for input that is malformed, over a limit,
or a declaration the rules forbid. Every error names the offending token and
carries a correct example, so the CLI and the bot can answer in one line.

:class:`RefereeError` is the one base of every error a user causes and can fix: the engine's (below) and the
bot's (a record, roster or league that does not exist, a league rule or permission that refuses: they subclass
it in ``bot/``). Each front end catches it in one place. Nothing here names a front end's command or flag:

- the ``example`` is either spec text (the same on every front end) or an :class:`Example`, options set to values
  (:class:`Setting`, named by their keyword, ``charge_distance``), which the CLI writes ``--charge-distance 4.5``
  and Discord ``charge_distance:4.5``;
- the ``hint`` (a :class:`Hint`: what to do next, such as "list your rosters", and what about) becomes a sentence
  naming the front end's own command (``referee roster list``, ``/roster list``), or words where it has none;
- a user named in the message is a :class:`Mention`: Discord mentions them, the terminal shows their id; an option
  named in it is an :class:`OptionName`: ``--charge-distance`` on the CLI, ``charge_distance`` on Discord; a game's
  command is a :class:`GameCommand`: ``referee assault 40k`` in the terminal, ``/assault 40k`` on Discord.

:class:`Words` is how a front end writes these parts; :data:`PLAIN` writes them neutrally (``charge_distance=4.5``,
the user's id, a hint in plain words) for ``str(error)``, logs and the engine's own tests.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


class Do(StrEnum):
    """What a user can do next; each front end says it with its own command."""

    GAME_HELP = "game_help"  # the help for one game (its tokens and options): the subject is the game id
    LIST_RECORDS = "list_records"  # the recent combat records
    LIST_ROSTERS = "list_rosters"  # the user's saved rosters of one game: the subject is the game id
    LIST_LEAGUES = "list_leagues"
    CREATE_LEAGUE = "create_league"
    JOIN_LEAGUE = "join_league"
    START_SEASON = "start_season"  # an organiser ends a league's season and starts the next
    LEAGUE_HISTORY = "league_history"  # a league's matches
    REPORT_MATCH = "report_match"  # a player reports a league game
    VOID_MATCH = "void_match"  # an organiser voids a league match
    FIGHT_AGREED = "fight_agreed"  # fight a combat both players agree to (a challenge): the subject is the game id
    # An example that is a whole command of the game its subject names: the sides and options are its settings
    # (``attacker``, ``defender``, ``charge_distance``...), which each front end writes as its own command.
    RESOLVE = "resolve"  # resolve one combat of the game
    ODDS = "odds"  # the odds of one combat of the game


@dataclass(frozen=True, slots=True)
class Hint:
    """What to do next, and what about (a game id, where the action needs one)."""

    do: Do
    subject: str = ""


@dataclass(frozen=True, slots=True)
class Setting:
    """One option set to one value in an example, named by its keyword (``charge_distance``)."""

    name: str
    value: bool | int | float | str


@dataclass(frozen=True, slots=True)
class Example:
    """Options set to values: of the command that failed, or of the command that does ``do`` (about ``subject``,
    the game id for a whole command: ``Do.RESOLVE``, ``Do.ODDS``)."""

    settings: tuple[Setting, ...]
    do: Do | None = None
    subject: str = ""


@dataclass(frozen=True, slots=True)
class Commands:
    """Several whole commands to copy, one a line, under a heading ("One command per combat, in the order you
    choose"): what an error offers when the input holds several things that are each fought alone."""

    heading: str
    examples: tuple[Example, ...]


def example(*settings: Setting, do: Do | None = None, **values: bool | int | float | str) -> Example:
    """``example(charge_distance=4, difficult_terrain=True)``: an :class:`Example` in declaration order."""
    return Example((*settings, *(Setting(name, value) for name, value in values.items())), do)


@dataclass(frozen=True, slots=True)
class Mention:
    """A user named in a message, by id."""

    user: str


@dataclass(frozen=True, slots=True)
class OptionName:
    """An option named in a message, by its keyword (``charge_distance``): a flag on the CLI, an option on Discord."""

    name: str


@dataclass(frozen=True, slots=True)
class GameCommand:
    """A game's command named in a message, by the game's id and its command path (``assault 40k``, ``duel``): the
    terminal writes ``referee assault 40k``, Discord ``/assault 40k``."""

    game: str
    path: str


Part = str | Mention | OptionName | GameCommand


class Words(Protocol):
    """How one front end writes an error's structured parts (``literal``: the message's own text, escaped where
    the front end needs it)."""

    def literal(self, text: str) -> str: ...

    def mention(self, user: str) -> str: ...

    def option(self, name: str) -> str: ...

    def command(self, path: str) -> str: ...

    def example(self, example: Example) -> str: ...

    def hint(self, hint: Hint) -> str: ...


_PLAIN_HINTS = {
    Do.GAME_HELP: "The help for {subject} lists its tokens and options.",
    Do.LIST_RECORDS: "The history lists the recent ones.",
    Do.LIST_ROSTERS: "The roster list shows your {subject} rosters.",
    Do.LIST_LEAGUES: "The league list shows the leagues; an organiser creates one.",
    Do.CREATE_LEAGUE: "An organiser creates a league.",
    Do.JOIN_LEAGUE: "A player joins a league to report games in it.",
    Do.START_SEASON: "An organiser starts the next season.",
    Do.LEAGUE_HISTORY: "The league's history lists its matches.",
    Do.REPORT_MATCH: "A player of the league reports the games they played.",
    Do.VOID_MATCH: "An organiser voids a match, saying why.",
    Do.FIGHT_AGREED: "Fight a {subject} combat as a challenge to your opponent, which both of you accept.",
    Do.RESOLVE: "Resolve a {subject} combat with these sides and options.",
    Do.ODDS: "Ask the odds of a {subject} combat with these sides and options.",
}


def plain_value(value: bool | int | float | str) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _quoted(value: str) -> str:
    """A value as one word: in double quotes when it holds white space (a side's units)."""
    return f'"{value}"' if any(c.isspace() for c in value) else value


class PlainWords:
    """The neutral writing: options as ``name=value``, users by id, hints in words."""

    def literal(self, text: str) -> str:
        return text

    def mention(self, user: str) -> str:
        return user

    def option(self, name: str) -> str:
        return name

    def command(self, path: str) -> str:
        return path

    def example(self, example: Example) -> str:
        if example.do in (Do.RESOLVE, Do.ODDS):  # a whole command: each side one word
            return " ".join(f"{s.name}={_quoted(plain_value(s.value))}" for s in example.settings)
        return " ".join(f"{s.name}={plain_value(s.value)}" for s in example.settings)

    def hint(self, hint: Hint) -> str:
        return _PLAIN_HINTS[hint.do].format(subject=hint.subject)


PLAIN = PlainWords()


def shown(value: object, limit: int = 40) -> str:
    """A value as a message quotes it: its repr, cut to ``limit`` characters (a huge number by its digits), so
    that whatever a caller passes, the message stays one short line."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limit:
        sign = "negative " if value < 0 else ""
        return f"a {sign}number of about {int(value.bit_length() * 0.30103) + 1} digits"  # str() refuses the longest
    try:
        text = repr(value)
    except Exception:
        text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _fold(text: str) -> str:
    return " ".join(text.split())


def _fold_parts(parts: tuple[Part, ...]) -> tuple[Part, ...]:
    """Runs of white space as one space, none at either end: the message is one line however it is written."""
    folded = [re.sub(r"\s+", " ", part) if isinstance(part, str) else part for part in parts]
    if folded and isinstance(folded[0], str):
        folded[0] = folded[0].lstrip()
    if folded and isinstance(folded[-1], str):
        folded[-1] = folded[-1].rstrip()
    return tuple(part for part in folded if part != "")


def _write(part: Part, words: Words) -> str:
    if isinstance(part, Mention):
        return words.mention(part.user)
    if isinstance(part, OptionName):
        return words.option(part.name)
    if isinstance(part, GameCommand):
        return words.command(part.path)
    return words.literal(part)


class RefereeError(Exception):
    """Base class of every error a user causes and can fix: a message, the offending token, a correct example,
    and what to do next."""

    def __init__(
        self,
        message: str | Sequence[Part],
        *,
        token: str | None = None,
        example: str | Example | Commands | None = None,
        hint: Hint | None = None,
        fix: str | None = None,
    ) -> None:
        # Messages quote what the user typed, which may hold newlines: fold all white space so that an
        # error is always one line.
        self.parts = _fold_parts((message,) if isinstance(message, str) else tuple(message))
        self.token = None if token is None else _fold(token)
        self.example: str | Example | Commands | None = _fold(example) if isinstance(example, str) else example
        self.hint = hint
        # What replaces ``token`` when the fix is certain (a single near-miss keyword, "WS 4" for "WS4", a save's
        # missing '+'): the front ends offer the player's own spec with it in place, once that spec parses.
        self.fix = None if fix is None else _fold(fix)
        self.given: Given | None = None  # the player's spec the error was found in (see given_in)
        self.message = self.text_of(PLAIN, with_hint=False)
        super().__init__(self.one_line())

    def text_of(self, words: Words, *, with_hint: bool = True) -> str:
        """The message (users as ``words`` name them) and, with ``with_hint``, what to do next."""
        text = "".join(_write(part, words) for part in self.parts)
        if with_hint and self.hint is not None:
            text += " " + words.literal(words.hint(self.hint))
        return text

    def example_of(self, words: Words) -> str | None:
        """The correct example as ``words`` write it (spec text as it is; several commands one a line)."""
        if self.example is None or isinstance(self.example, str):
            return self.example or None
        if isinstance(self.example, Commands):
            return "\n".join(words.example(each) for each in self.example.examples)
        return words.example(self.example)

    def one_line(self, words: Words = PLAIN) -> str:
        """The message, what to do next and a correct example, on one line (several commands to copy follow it,
        one a line)."""
        text = self.text_of(words)
        example_text = self.example_of(words)
        if example_text and isinstance(self.example, Commands):
            text += f" {self.example.heading}:" + "".join(f"\n  {line}" for line in example_text.split("\n"))
        elif example_text:
            text += f" Example: {example_text}"
        return text

    def best_example(self, words: Words) -> str | None:
        """The player's own spec corrected when there is one, else the correct example."""
        if self.given is not None and self.given.corrected is not None:
            return self.given.corrected
        return self.example_of(words)


@dataclass(frozen=True, slots=True)
class Given:
    """The spec a player gave (white space folded) where an error was found: the option that held it
    (``attacker``), the faulty token's place in it (``start``, ``end``; None where the token is not in it) and the
    spec corrected, where the error's fix is certain and the corrected spec parses."""

    option: str
    text: str
    span: tuple[int, int] | None
    corrected: str | None = None

    def excerpt(self, limit: int) -> tuple[str, tuple[int, int] | None]:
        """At most ``limit`` characters of the spec around the faulty token ('…' where it is cut), and the token's
        place in them (None where it is not in them)."""
        text, span = self.text, self.span
        if len(text) <= limit:
            return text, span
        room = limit - 2  # for a '…' at each end
        begin = 0 if span is None else max(0, min(span[0] - room // 3, len(text) - room))
        end = min(len(text), begin + room)
        head, tail = ("…" if begin > 0 else ""), ("…" if end < len(text) else "")
        inside = span is not None and span[1] <= end
        place = (span[0] - begin + len(head), span[1] - begin + len(head)) if span is not None and inside else None
        return head + text[begin:end] + tail, place

    def marked(self, left: str = "⟦", right: str = "⟧", *, limit: int | None = None) -> str:
        """The spec (at most ``limit`` characters of it around the token, marks aside) with the faulty token
        between ``left`` and ``right``: marks that survive plain text and need no colour."""
        text, span = (self.text, self.span) if limit is None else self.excerpt(limit)
        if span is None:
            return text
        start, end = span
        return f"{text[:start]}{left}{text[start:end]}{right}{text[end:]}"


def locate(text: str, token: str | None) -> tuple[int, int] | None:
    """Where ``token`` first stands in ``text`` as a whole token (white space inside it matching any run of it)."""
    if not token or not token.strip():
        return None
    pattern = r"\s+".join(re.escape(word) for word in token.split())
    # A whole token: white space or a separator (| ; :) or either end of the spec on both sides.
    found = re.search(rf"(?<![^\s|;:]){pattern}(?![^\s|;:])", text)
    return None if found is None else (found.start(), found.end())


MAX_FIXES = 8  # certain fixes applied one after another to one spec, each found by parsing again


def given_in(error: RefereeError, option: str, text: str, parse: Callable[[str], object]) -> RefereeError:
    """``error``, found parsing the spec ``text`` given as ``option``, with that spec shown back (``error.given``):
    the faulty token located, and the spec corrected where every error met on the way has a certain fix and the
    corrected spec parses (``parse`` is the game's own)."""
    folded = _fold(text)
    corrected: str | None = None
    current: RefereeError = error
    candidate = folded
    for _ in range(MAX_FIXES):
        span = locate(candidate, current.token)
        if current.fix is None or span is None or current.fix == candidate[span[0] : span[1]]:
            break
        candidate = candidate[: span[0]] + current.fix + candidate[span[1] :]
        try:
            parse(candidate)
        except RefereeError as again:
            current = again
        else:
            corrected = candidate
            break
    error.given = Given(option, folded, locate(folded, error.token), corrected)
    return error


class SpecError(RefereeError):
    """A unit spec that does not parse: unknown token, missing stat, impossible value."""


class OptionError(RefereeError):
    """An option with a wrong type, a value out of range or an unknown name."""


class LimitError(RefereeError):
    """Input over one of the engine's limits (models, units, characters)."""


class IllegalDeclarationError(RefereeError):
    """A declaration the rules forbid, such as a charge by a unit that shot this turn."""


class UnsupportedError(RefereeError):
    """Something the rules cover that this referee does not resolve yet."""


class UnknownGameError(RefereeError):
    """A game id or alias that is not registered."""


class DiceError(RefereeError):
    """A dice source asked for more or fewer dice than it holds (scripted dice in tests)."""
