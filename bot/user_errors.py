"""The storage errors a user causes and can fix (a record, roster, league or match that does not exist, a roster
name already taken, a league rule or permission that refuses): both front ends show their message as it is, and
each catches them in one place with this tuple."""

from __future__ import annotations

from bot.leagues.errors import LeagueError, LeagueNotFound, MatchNotFound, NotAllowed
from bot.storage.records import RecordNotFound
from bot.storage.rosters import RosterExists, RosterNotFound

USER_ERRORS: tuple[type[Exception], ...] = (
    RecordNotFound,
    RosterNotFound,
    RosterExists,
    LeagueError,
    LeagueNotFound,
    MatchNotFound,
    NotAllowed,
)

__all__ = ["USER_ERRORS"]
