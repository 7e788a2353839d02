"""Everything stored about one user or one guild, across records, rosters, dice rolls, challenges and leagues:
exported, or deleted, in one go.
Long because export, deletion and the pseudonym that rewrites an id must list every table alike: kept together, a
table added to one and not the others shows in one reading.

Deleting a user deletes what is theirs and replaces their id everywhere else it is left (columns, typed text,
JSON) by one pseudonym of their own (:class:`Pseudonym`); the tables and columns where it can be are listed in
``_TEXT``, and tests/bot/storage/test_erasure.py scans every column of every table to prove nothing is missed.
"""

from __future__ import annotations

import json
import re
import secrets
from typing import Any, cast

from sqlalchemy import Table, and_, delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import selectinload

from bot.leagues.model import match_dict, pair_key
from bot.server_settings.model import USER
from bot.storage.db import aware, now, rowcount
from bot.storage.league_rows import match_info
from bot.storage.models import (
    Base,
    Challenge,
    CombatRecord,
    DiceRoll,
    DisplayName,
    League,
    LeagueEvent,
    LeagueMatch,
    LeagueOrganiser,
    LeaguePlayer,
    LeagueSeason,
    LeagueSnapshot,
    RecordEvent,
    Roster,
    SettingChange,
    SettingValue,
)
from bot.storage.settings import erased_marker, settings_export


async def _change(session: AsyncSession, statement: Any) -> int:
    """Run a bulk DELETE or UPDATE; the number of rows it touched."""
    return rowcount(await session.execute(statement))


def _record_dict(row: CombatRecord) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game,
        "created_at": aware(row.created_at).isoformat(),
        "requested_by": row.requested_by,
        "opponent": row.opponent,
        "guild_id": row.guild_id,
        "channel_id": row.channel_id,
        "report": json.loads(row.report_json),
        "house_rules": json.loads(row.house_rules) if row.house_rules else [],  # which options came from house rules
        "slug": row.slug,  # its web page: only the subject's own or its server's public combats are exported
        "commitment": row.commitment,  # dice committed in advance (docs/challenges.md): its reveal is the seed
        "salt": row.salt,
        "agreed": json.loads(row.agreed_json) if row.agreed_json else None,
        "history": [
            {"kind": e.kind, "actor": e.actor, "reason": e.reason, "at": aware(e.created_at).isoformat()}
            for e in row.events
        ],
    }


def _challenge_dict(row: Challenge) -> dict[str, Any]:
    """A challenge as its players may see it: an open one's seed and salt stay secret (an export is no way around
    the commitment); once it is resolved they are in its record anyway."""
    revealed = row.status == "resolved"
    return {
        "id": row.id, "game": row.game, "kind": row.kind, "status": row.status, "challenger_id": row.challenger_id,
        "opponent_id": row.opponent_id, "guild_id": row.guild_id, "channel_id": row.channel_id,
        "inputs": json.loads(row.inputs_json), "inputs_version": row.inputs_version, "commitment": row.commitment,
        "seed": row.seed if revealed else None, "salt": row.salt if revealed else None,
        "created_at": aware(row.created_at).isoformat(), "expires_at": aware(row.expires_at).isoformat(),
        "record_id": row.record_id,
    }  # fmt: skip


def _roster_dict(row: Roster) -> dict[str, Any]:
    return {
        "owner": row.owner,
        "game": row.game,
        "name": row.name,
        "description": row.description,
        "spec": row.spec,
        "shared_with_guild": row.guild_id,
        "created_at": aware(row.created_at).isoformat(),
        "updated_at": aware(row.updated_at).isoformat(),
    }


def _scope(user: str | None, guild: str | None) -> tuple[Any, Any]:
    if (user is None) == (guild is None):
        raise ValueError("give exactly one of a user or a guild")
    if user is not None:
        records = or_(CombatRecord.requested_by == user, CombatRecord.opponent == user)
        return records, Roster.owner == user
    # A server's combats are its public ones: a private combat is its two players' (bot/access.py), not the server's.
    return and_(CombatRecord.guild_id == guild, CombatRecord.private.is_(False)), Roster.guild_id == guild


class Privacy:
    """Exports and deletions of one store (``store.privacy``), each across every aggregate in one go."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def export(self, *, user: str | None = None, guild: str | None = None) -> dict[str, Any]:
        """Every record and roster of the user (records they asked for or were named in) or of the guild."""
        records_filter, rosters_filter = _scope(user, guild)
        async with self.sessions() as session:
            records = (
                await session.scalars(
                    select(CombatRecord)
                    .where(records_filter)
                    .options(selectinload(CombatRecord.events))
                    .order_by(CombatRecord.id)
                )
            ).all()
            rosters = (await session.scalars(select(Roster).where(rosters_filter).order_by(Roster.id))).all()
            rolls_filter = DiceRoll.requested_by == user if user is not None else DiceRoll.guild_id == guild
            rolls = (await session.scalars(select(DiceRoll).where(rolls_filter).order_by(DiceRoll.id))).all()
            challenges_filter = (
                or_(Challenge.challenger_id == user, Challenge.opponent_id == user)
                if user is not None
                else Challenge.guild_id == guild
            )
            challenges = (
                await session.scalars(select(Challenge).where(challenges_filter).order_by(Challenge.id))
            ).all()
            leagues = await _league_export(session, user=user, guild=guild)
            settings = await settings_export(session, user=user, guild=guild)
            written: list[RecordEvent] = []
            if user is not None:  # their voids and notes on other people's combats (their own come with them)
                written = list(
                    (
                        await session.scalars(
                            select(RecordEvent)
                            .where(
                                RecordEvent.actor == user,
                                ~RecordEvent.record_id.in_(select(CombatRecord.id).where(records_filter)),
                            )
                            .order_by(RecordEvent.id)
                        )
                    ).all()
                )
        return {
            "schema": "referee-data-export/1",
            "subject": {"user": user} if user is not None else {"guild": guild},
            "exported_at": now().isoformat(),
            "combat_records": [_record_dict(row) for row in records],
            "rosters": [_roster_dict(row) for row in rosters],
            "dice_rolls": [
                {
                    "id": r.id,
                    "expression": r.expression,
                    "result": r.result,
                    "total": r.total,
                    "guild_id": r.guild_id,
                    "created_at": aware(r.created_at).isoformat(),
                }
                for r in rolls
            ],
            "challenges": [_challenge_dict(row) for row in challenges],
            "notes_written": [
                {"record_id": e.record_id, "kind": e.kind, "reason": e.reason, "at": aware(e.created_at).isoformat()}
                for e in written
            ],
            **leagues,
            **settings,
        }

    async def delete(self, *, user: str | None = None, guild: str | None = None) -> dict[str, int]:
        """Delete a user's or a guild's data in one transaction; returns what was deleted or anonymised.

        A user: the records they asked for (with their history), their rosters, their dice rolls and their
        organiser roles are deleted. Everywhere else their id is replaced by one pseudonym of their own (see
        :class:`Pseudonym`): as a value (an opponent, an actor, a player) and inside text (``<@id>``, ``<@!id>``,
        the bare id), so that nothing stored names them; cached standings that held them are dropped. A guild:
        its public records, rolls and leagues are deleted, and rosters shared with it become private again (the
        rosters belong to their owners); private combats resolved there stay their players', no longer tied to it.
        """
        _scope(user, guild)
        async with self.sessions.begin() as session:
            if user is not None:
                return await _forget_user(session, Pseudonym(user))
            public, _ = _scope(None, guild)
            events = await _change(
                session, delete(RecordEvent).where(RecordEvent.record_id.in_(select(CombatRecord.id).where(public)))
            )
            records = await _change(session, delete(CombatRecord).where(public))
            # Private combats are their players' data: they stay theirs, no longer tied to the server.
            detached = await _change(
                session,
                update(CombatRecord).where(CombatRecord.guild_id == guild).values(guild_id=None, channel_id=None),
            )
            unshared = await _change(session, update(Roster).where(Roster.guild_id == guild).values(guild_id=None))
            rolls = await _change(session, delete(DiceRoll).where(DiceRoll.guild_id == guild))
            challenges = await _change(session, delete(Challenge).where(Challenge.guild_id == guild))
            leagues = await _change(session, delete(League).where(League.guild_id == guild))
            names = await _change(session, delete(DisplayName).where(DisplayName.guild_id == guild))
            settings = await _change(session, delete(SettingValue).where(SettingValue.guild_id == guild))
            changes = await _change(session, delete(SettingChange).where(SettingChange.guild_id == guild))
            session.add(erased_marker())  # every bot process reloads its settings (their audit no longer says why)
            return {
                "combat_records": records,
                "record_notes": events,
                "private_combats_detached": detached,
                "rosters_unshared": unshared,
                "dice_rolls": rolls,
                "challenges": challenges,
                "leagues": leagues,
                "display_names": names,
                "settings": settings,
                "settings_changes": changes,
            }


async def _league_export(session: AsyncSession, *, user: str | None, guild: str | None) -> dict[str, Any]:
    """A user's memberships, matches and audit events, or a guild's leagues with all of theirs."""
    if user is not None:
        match_filter: Any = (LeagueMatch.reporter_id == user) | (LeagueMatch.opponent_id == user)
        event_filter: Any = LeagueEvent.actor == user
        league_filter: Any = (
            League.id.in_(select(LeaguePlayer.league_id).where(LeaguePlayer.user_id == user))
            | League.id.in_(select(LeagueOrganiser.league_id).where(LeagueOrganiser.user_id == user))
            | (League.created_by == user)
        )  # played in, organised, or created
    else:
        league_filter = League.guild_id == guild
        ids = select(League.id).where(League.guild_id == guild)
        match_filter = LeagueMatch.league_id.in_(ids)
        event_filter = LeagueEvent.league_id.in_(ids)
    names: list[DisplayName] = []
    if user is not None:  # the names the referee cached for the user, server by server (never another's)
        names = list(
            (
                await session.scalars(
                    select(DisplayName).where(DisplayName.user_id == user).order_by(DisplayName.guild_id)
                )
            ).all()
        )
    leagues = (await session.scalars(select(League).where(league_filter).order_by(League.id))).all()
    matches = (await session.scalars(select(LeagueMatch).where(match_filter).order_by(LeagueMatch.id))).all()
    events = (await session.scalars(select(LeagueEvent).where(event_filter).order_by(LeagueEvent.id))).all()
    return {
        "leagues": [
            {
                "id": row.id,
                "guild_id": row.guild_id,
                "name": row.name,
                "game": row.game,
                "season": row.season,
                "require_agreed": row.require_agreed,
            }
            for row in leagues
        ],
        "league_matches": [match_dict(match_info(row)) for row in matches],
        "display_names": [
            {"guild_id": row.guild_id, "name": row.name, "fetched_at": aware(row.fetched_at).isoformat()}
            for row in names
        ],
        "league_events": [
            {
                "id": row.id,
                "league_id": row.league_id,
                "match_id": row.match_id,
                "kind": row.kind,
                "actor": row.actor,
                "reason": row.reason,
                "before": row.before_json,
                "after": row.after_json,
                "at": aware(row.created_at).isoformat(),
            }
            for row in events
        ],
    }


class Pseudonym:
    """What a deleted user's id becomes: ``deleted-`` and 8 random hex digits, one per deletion, used everywhere.

    One pseudonym for every trace of the user keeps their league games in one standings row of their own (two
    deleted players never merge), keeps a mention and the column it names reading alike, and can never collide
    with another name under a unique constraint. In stored text, ``<@id>`` and ``<@!id>`` become the pseudonym,
    and so does a value that is the id; a numeric (Discord) id typed bare is replaced too, where it is not part of
    a longer number. A non-numeric id (the offline user, ``local``) is never replaced as a word of the text.
    """

    def __init__(self, user: str) -> None:
        self.user = user
        self.alias = f"deleted-{secrets.token_hex(4)}"
        forms = [rf"<@!?{re.escape(user)}>"] + ([rf"(?<!\d){user}(?!\d)"] if user.isdigit() else [])
        self._mentions = re.compile("|".join(forms))

    def text(self, value: str) -> str:
        return self.alias if value == self.user else self._mentions.sub(self.alias, value)

    def json(self, value: str, *, ensure_ascii: bool) -> str:
        """JSON with every string in it (keys too) rewritten; numbers are left alone (a seed is not a mention).

        Unchanged JSON is returned as it was; changed JSON is written as it was first written (``json.dumps``
        without indent, keys in their stored order, ``ensure_ascii`` as the column's writer used it), so a stored
        report still re-runs to the identical bytes when the inputs it holds were rewritten alike.
        """
        tree = json.loads(value)
        rewritten = self._walk(tree)
        return value if rewritten == tree else json.dumps(rewritten, ensure_ascii=ensure_ascii)

    def _walk(self, node: Any) -> Any:
        if isinstance(node, str):
            return self.text(node)
        if isinstance(node, list):
            return [self._walk(item) for item in node]
        if isinstance(node, dict):
            return {self.text(key): self._walk(item) for key, item in node.items()}
        return node


# Where a user's id can be, table by table, other than in the rows deleted with them: values and typed text, then
# JSON (with the ``ensure_ascii`` its writer used). tests/bot/storage/test_erasure.py scans every column of every
# table after a deletion, so a column added without being listed here fails it.
_TEXT: tuple[tuple[type[Base], tuple[str, ...], dict[str, bool]], ...] = (
    (
        CombatRecord,
        ("opponent", "attacker_spec", "defender_spec"),
        {"report_json": False, "options_json": True, "agreed_json": True},
    ),
    (Challenge, ("opponent_id",), {"inputs_json": True}),  # challenges others made them: kept, theirs no more
    (RecordEvent, ("actor", "reason"), {}),
    (Roster, ("name", "spec", "description"), {}),
    (DiceRoll, ("expression", "result"), {}),
    (League, ("created_by", "name", "name_key"), {}),
    (LeagueOrganiser, ("added_by",), {}),
    (LeaguePlayer, ("user_id",), {}),
    (LeagueSeason, ("started_by", "ended_by"), {}),
    (LeagueMatch, ("reporter_id", "opponent_id", "created_by", "decided_by", "score", "notes"), {}),
    (LeagueEvent, ("actor", "reason"), {"before_json": True, "after_json": True}),
    (DisplayName, ("name",), {}),  # another player's name that holds the id
    (SettingValue, ("updated_by",), {}),  # a server setting they made: kept, theirs no more
    (SettingChange, ("actor",), {}),  # their changes of server settings: kept in the server's audit, anonymised
)


async def _rewrite(
    session: AsyncSession, model: type[Base], name: Pseudonym, text: tuple[str, ...], as_json: dict[str, bool]
) -> int:
    """Rewrite the user's id in these columns of every row of the table that holds it; the rows changed."""
    table = cast(Table, model.__table__)
    keys = list(table.primary_key.columns)
    columns = [table.c[column] for column in (*text, *as_json)]
    holding = or_(*(column.contains(name.user, autoescape=True) for column in columns))
    rows = (await session.execute(select(*keys, *columns).where(holding))).all()
    changed = 0
    for row in rows:
        where, values = row[: len(keys)], row[len(keys) :]
        new: dict[str, str] = {}
        for column, value in zip(columns, values, strict=True):
            if value is None:
                continue
            ensure_ascii = as_json.get(column.name)
            rewritten = name.text(value) if ensure_ascii is None else name.json(value, ensure_ascii=ensure_ascii)
            if rewritten != value:
                new[column.name] = rewritten
        if new:
            condition = [key == value for key, value in zip(keys, where, strict=True)]
            changed += await _change(session, update(table).where(*condition).values(new))
    return changed


async def _forget_user(session: AsyncSession, name: Pseudonym) -> dict[str, int]:
    """Delete what is the user's own; rewrite their id everywhere else (see :meth:`Privacy.delete`)."""
    user = name.user
    mine = select(CombatRecord.id).where(CombatRecord.requested_by == user)
    deleted = {
        "record_notes": await _change(session, delete(RecordEvent).where(RecordEvent.record_id.in_(mine))),
        "combat_records": await _change(session, delete(CombatRecord).where(CombatRecord.requested_by == user)),
        "rosters": await _change(session, delete(Roster).where(Roster.owner == user)),
        "dice_rolls": await _change(session, delete(DiceRoll).where(DiceRoll.requested_by == user)),
        "challenges": await _change(session, delete(Challenge).where(Challenge.challenger_id == user)),
        "organiser_roles": await _change(session, delete(LeagueOrganiser).where(LeagueOrganiser.user_id == user)),
        "display_names": await _change(session, delete(DisplayName).where(DisplayName.user_id == user)),
        "preferences": await _change(
            session, delete(SettingValue).where(SettingValue.scope == USER, SettingValue.scope_id == user)
        ),
        "preference_changes": await _change(
            session, delete(SettingChange).where(SettingChange.scope == USER, SettingChange.scope_id == user)
        ),
    }
    session.add(erased_marker())  # every bot process forgets their preferences (no audit row says whose)
    rewritten = {model: await _rewrite(session, model, name, text, as_json) for model, text, as_json in _TEXT}
    # A match's pair key is its two players sorted: computed again, never rewritten in place.
    renamed = await session.execute(
        select(LeagueMatch.id, LeagueMatch.reporter_id, LeagueMatch.opponent_id).where(
            (LeagueMatch.reporter_id == name.alias) | (LeagueMatch.opponent_id == name.alias)
        )
    )
    for match_id, reporter, opponent in renamed.all():
        await session.execute(
            update(LeagueMatch).where(LeagueMatch.id == match_id).values(pair_key=pair_key(reporter, opponent))
        )
    # Cached tables name their players: every league's cache is made stale, then those that name the user dropped.
    await session.execute(update(League).values(version=League.version + 1))
    caches = await _change(
        session, delete(LeagueSnapshot).where(LeagueSnapshot.data_json.contains(user, autoescape=True))
    )
    others = (Roster, DiceRoll, League, LeagueOrganiser, LeagueSeason, DisplayName, SettingValue, SettingChange,
              Challenge)  # fmt: skip
    return {
        **deleted,
        "records_anonymised": rewritten[CombatRecord],
        "notes_anonymised": rewritten[RecordEvent],
        "league_matches_anonymised": rewritten[LeagueMatch],
        "league_events_anonymised": rewritten[LeagueEvent],
        "league_memberships": rewritten[LeaguePlayer],
        "other_rows_anonymised": sum(rewritten[model] for model in others),
        "standings_caches": caches,
    }


__all__ = ["Privacy", "Pseudonym"]
