"""Errors the referee raises for input it cannot resolve.

What the rules resolve is never an error (a charge from 9" is a report whose
outcome is ``no_charge``). Errors are for input that is malformed, over a limit,
or a declaration the rules forbid. Every error names the offending token and
carries a correct example, so the CLI and the bot can answer in one line.
"""

from __future__ import annotations


class RefereeError(Exception):
    """Base class of every error the referee raises on bad input."""

    def __init__(self, message: str, *, token: str | None = None, example: str | None = None) -> None:
        # Messages quote what the user typed, which may hold newlines: fold all white space so that an
        # error is always one line.
        self.message = " ".join(message.split())
        self.token = None if token is None else " ".join(token.split())
        self.example = None if example is None else " ".join(example.split())
        super().__init__(self.one_line())

    def one_line(self) -> str:
        """The message, the offending token and a correct example, on one line."""
        text = self.message
        if self.example:
            text += f" Example: {self.example}"
        return text


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
