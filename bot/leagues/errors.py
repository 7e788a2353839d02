"""What the league domain refuses: bad input, a missing league or match, a forbidden action, a stale match state.

Each is a :class:`rules_core.errors.RefereeError` (the one base of what a user can fix, which each front end
catches in one place), and keeps its builtin kind (``ValueError``, ``LookupError``, ``PermissionError``). Their
words name no front end: what to do next is a ``Hint``, a user a ``Mention``.
"""

from __future__ import annotations

from rules_core.errors import Do, Hint, RefereeError


class LeagueError(RefereeError, ValueError):
    """Input or a request the league cannot take, with what to do instead."""


class LeagueNotFound(RefereeError, LookupError):
    pass


class MatchNotFound(RefereeError, LookupError):
    def __init__(self, match_id: int) -> None:
        super().__init__(f"There is no league match #{match_id}.", hint=Hint(Do.LEAGUE_HISTORY))


class NotAllowed(RefereeError, PermissionError):
    pass


class MatchStateError(LeagueError):
    """The match is no longer in the state the action needs (already confirmed, disputed, voided...)."""


__all__ = ["LeagueError", "LeagueNotFound", "MatchNotFound", "MatchStateError", "NotAllowed"]
