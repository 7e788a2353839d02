"""Who may see and act on what: the one rule every command that takes an id applies, on either front end.

Server data (public combats, leagues with their matches, seasons and audit log, rosters shared with a server)
belongs to the server it was made in, and is acted on only from there. Personal data follows its owner: a private
combat is its requester's and the opponent named on it, in any server and in direct messages, and nobody else's
(not a server manager's either); a combat resolved in direct messages has no server, so it is personal too.
Whatever an actor may not see answers exactly like something that does not exist, so ids cannot be probed.

The store applies these checks (bot/storage: every read or change by id takes the ``Actor``); the offline
``referee`` command acts as the :data:`OPERATOR`, the database's owner, who sees everything.
"""

from __future__ import annotations

from dataclasses import dataclass

LOCAL_USER = "local"  # the owner and requester for everything done through the offline `referee` command


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts, and from where: a Discord user id, the server the command was used in (None: a direct message),
    whether they have Manage Server there, and whether they are the operator (the terminal), who sees all."""

    user: str
    guild: str | None = None
    manager: bool = False
    operator: bool = False


OPERATOR = Actor(LOCAL_USER, operator=True)


def sees_server_data(actor: Actor, guild_id: str | None) -> bool:
    """A league, a match or another server's own data: only from its server (or by the operator)."""
    return actor.operator or (actor.guild is not None and actor.guild == guild_id)


def sees_combat(actor: Actor, *, private: bool, guild_id: str | None, requested_by: str, opponent: str | None) -> bool:
    """A private combat (or one from direct messages): its requester and named opponent, anywhere. A public one:
    whoever uses a command in the server it was resolved in.

    bot/storage/records.py ``visible_combats`` is the same rule in SQL (tests/bot/storage/test_access.py checks that
    both agree).
    """
    if actor.operator:
        return True
    if private or guild_id is None:
        return actor.user in (requested_by, opponent)
    return actor.guild == guild_id


def may_void_combat(actor: Actor, *, private: bool, guild_id: str | None, requested_by: str) -> bool:
    """Its requester; for a public combat, also a manager of the server it was resolved in."""
    if actor.operator or actor.user == requested_by:
        return True
    return not private and actor.manager and sees_server_data(actor, guild_id)


__all__ = ["LOCAL_USER", "OPERATOR", "Actor", "may_void_combat", "sees_combat", "sees_server_data"]
