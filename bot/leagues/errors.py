"""What the league domain refuses: bad input, a missing league or match, a forbidden action, a stale match state."""

from __future__ import annotations


class LeagueError(ValueError):
    """Input or a request the league cannot take, with what to do instead."""


class LeagueNotFound(LookupError):
    pass


class MatchNotFound(LookupError):
    def __init__(self, match_id: int) -> None:
        super().__init__(f"There is no league match #{match_id}. '/league history' lists the league's matches.")


class NotAllowed(PermissionError):
    pass


class MatchStateError(LeagueError):
    """The match is no longer in the state the action needs (already confirmed, disputed, voided...)."""


__all__ = ["LeagueError", "LeagueNotFound", "MatchNotFound", "MatchStateError", "NotAllowed"]
