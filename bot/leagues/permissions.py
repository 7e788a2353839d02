"""Who may do what in a league, as checks over plain facts the store has looked up; each raises a domain error.

Anyone in a guild may create a league there; players join and leave themselves; only the reported opponent
confirms or disputes a report; organisers (the creator, the co-organisers they add, and members with Manage
Server, which the bot passes as ``Actor.manager``) change settings, run seasons, resolve disputes and void,
correct or enter results, except in a match they played, which needs another organiser or a server manager.
"""

from __future__ import annotations

from bot.access import Actor
from bot.leagues.errors import LeagueError, NotAllowed
from bot.leagues.model import MatchInfo
from rules_core.errors import Do, Hint, Mention


def require_organiser(actor: Actor, *, organiser: bool, league_name: str, doing: str) -> None:
    """``organiser``: the actor is on the league's list of organisers."""
    if actor.manager or organiser:
        return
    raise NotAllowed(
        f"Only the organisers of {league_name} can {doing}: its creator, the co-organisers they add, and "
        "members with Manage Server."
    )


def require_neutral(actor: Actor, match: MatchInfo, *, organiser: bool, league_name: str, doing: str) -> None:
    """An organiser who did not play the match (a server manager may act on their own match)."""
    require_organiser(actor, organiser=organiser, league_name=league_name, doing=doing)
    if actor.user in (match.reporter, match.opponent) and not actor.manager:
        raise NotAllowed(
            f"You played match #{match.id}: another organiser (or a member with Manage Server) must {doing}."
        )


def require_opponent(match: MatchInfo, actor: Actor, doing: str) -> None:
    """Only the reported opponent confirms or disputes a report."""
    if actor.user == match.opponent:
        return
    if actor.user == match.reporter:
        raise NotAllowed([f"You reported match #{match.id}: only ", Mention(match.opponent), f" can {doing} it."])
    raise NotAllowed(["Only ", Mention(match.opponent), f", the reported opponent, can {doing} match #{match.id}."])


def require_not_playing(actor: Actor, player: str, opponent: str) -> None:
    """An organiser enters other people's games (a server manager may enter their own)."""
    if actor.user in (player, opponent) and not actor.manager:
        raise NotAllowed("You played this game: another organiser (or a member with Manage Server) enters it.")


def require_reporter_plays(league_name: str, *, playing: bool) -> None:
    """Only a player of the league reports games in it."""
    if not playing:
        raise NotAllowed(f"Join {league_name} first to report games in it.", hint=Hint(Do.JOIN_LEAGUE))


def require_member(user: str, league_name: str, *, playing: bool) -> None:
    """The other side of a game must be in the league too."""
    if not playing:
        raise LeagueError([Mention(user), f" is not in {league_name}."], hint=Hint(Do.JOIN_LEAGUE))


__all__ = [
    "require_member",
    "require_neutral",
    "require_not_playing",
    "require_opponent",
    "require_organiser",
    "require_reporter_plays",
]
