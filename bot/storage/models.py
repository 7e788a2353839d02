"""The tables: typed SQLAlchemy 2 models. Nothing outside bot/storage sees these; the store returns plain records."""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from bot.storage.id_column import Id

NAME = 100  # names and ids people type or Discord gives (snowflakes are 20 digits)
PENDING_ONLY = "status = 'pending'"  # the partial unique index on league matches: one pending match per pair


class Base(DeclarativeBase):
    pass


def new_slug() -> str:
    """A combat's web address (``/c/{slug}``): 128 random bits, URL-safe, so pages cannot be guessed or listed."""
    return secrets.token_urlsafe(16)


class CombatRecord(Base):
    """One resolution, exactly as it was shown: never edited in place (voids and notes are RecordEvents)."""

    __tablename__ = "combat_records"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32))
    attacker_spec: Mapped[str] = mapped_column(Text)
    defender_spec: Mapped[str] = mapped_column(Text)
    options_json: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    engine_version: Mapped[str] = mapped_column(String(32))
    report_json: Mapped[str] = mapped_column(Text)  # the compact JSON, byte for byte as rendered
    outcome: Mapped[str] = mapped_column(String(32))
    winner: Mapped[str] = mapped_column(String(16))
    requested_by: Mapped[str] = mapped_column(String(NAME))
    opponent: Mapped[str | None] = mapped_column(String(NAME))
    guild_id: Mapped[str | None] = mapped_column(String(NAME))
    channel_id: Mapped[str | None] = mapped_column(String(NAME))
    # Resolved privately: only its requester and named opponent see it (bot/access.py). Unsaid means private.
    private: Mapped[bool] = mapped_column(Boolean, server_default=true())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The record whose combat this one continues (a drawn 40K assault, or one whose loser held): at most one each.
    continues_id: Mapped[int | None] = mapped_column(
        ForeignKey("combat_records.id", ondelete="SET NULL", name="fk_combat_records_continues_id")
    )
    # Which of the report's options came from the server's house rules (a JSON list of option names; None or "[]":
    # none). The report keeps the effective options; this only says where they came from (shown by /replay).
    house_rules: Mapped[str | None] = mapped_column(Text)
    # Its web page's unguessable address (``/c/{slug}``, bot/web/combats.py): made before the insert, never the id.
    slug: Mapped[str] = mapped_column(String(32), default=new_slug)
    # The result's own key, made before its first write (``new_slug``'s kind of random): a retry after a write whose
    # acknowledgement was lost finds the row by it instead of storing the result twice (bot/discord/record_writer.py).
    # NULL on records stored before migration 0012.
    write_key: Mapped[str | None] = mapped_column(String(32))
    # Resolved from a challenge (bot/challenges): the commitment shown before the inputs were agreed, the salt
    # revealed with the seed, and what was agreed (JSON: who, when each accepted, the inputs, the challenge id).
    commitment: Mapped[str | None] = mapped_column(String(64))
    salt: Mapped[str | None] = mapped_column(String(64))
    agreed_json: Mapped[str | None] = mapped_column(Text)

    events: Mapped[list[RecordEvent]] = relationship(
        back_populates="record", order_by="RecordEvent.id", cascade="all, delete-orphan", passive_deletes=True
    )

    __table_args__ = (
        Index("ix_combat_records_requested_by_id", "requested_by", "id"),
        Index("ix_combat_records_guild_id_id", "guild_id", "id"),
        Index("ix_combat_records_game_id", "game", "id"),
        UniqueConstraint("continues_id", name="uq_combat_records_continues_id"),
        UniqueConstraint("slug", name="uq_combat_records_slug"),
        UniqueConstraint("write_key", name="uq_combat_records_write_key"),
    )


class Challenge(Base):
    """A combat proposed by one player to another: resolved only once both accepted the same inputs, with the seed
    drawn (and committed to) at its creation. The seed stays secret until it is resolved (bot/challenges)."""

    __tablename__ = "challenges"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    guild_id: Mapped[str | None] = mapped_column(String(NAME))  # None: the terminal's, or direct messages
    channel_id: Mapped[str | None] = mapped_column(String(NAME))
    message_id: Mapped[str | None] = mapped_column(String(NAME))
    challenger_id: Mapped[str] = mapped_column(String(NAME))
    opponent_id: Mapped[str | None] = mapped_column(String(NAME))  # None: whoever holds the terminal's file
    game: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(32))  # the game's command: assault, duel...
    inputs_json: Mapped[str] = mapped_column(Text)  # attacker, defender, options, house rules: exactly as read
    inputs_version: Mapped[int] = mapped_column(Integer)  # +1 on every change of the inputs
    seed: Mapped[int] = mapped_column(BigInteger)
    salt: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))  # open, resolved, declined, cancelled, expired, replaced
    challenger_ok_version: Mapped[int | None] = mapped_column(Integer)
    challenger_ok_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    opponent_ok_version: Mapped[int | None] = mapped_column(Integer)
    opponent_ok_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    record_id: Mapped[int | None] = mapped_column(
        ForeignKey("combat_records.id", ondelete="SET NULL", name="fk_challenges_record_id")
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_challenges_status_expires_at", "status", "expires_at"),
        Index("ix_challenges_challenger_id", "challenger_id"),
        Index("ix_challenges_opponent_id", "opponent_id"),
        Index("ix_challenges_record_id", "record_id"),  # a record's challenge (bot/storage/seals.py)
    )


class RecordEvent(Base):
    """Something said of a record after the fact: a void or a note, with who, when and why."""

    __tablename__ = "record_events"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    record_id: Mapped[int] = mapped_column(ForeignKey("combat_records.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # "void" or "note"
    actor: Mapped[str] = mapped_column(String(NAME))
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    record: Mapped[CombatRecord] = relationship(back_populates="events")


class Roster(Base):
    """A named set of units for one game, stored as the spec text the commands accept."""

    __tablename__ = "rosters"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    owner: Mapped[str] = mapped_column(String(NAME))
    game: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(NAME))
    spec: Mapped[str] = mapped_column(Text)
    description: Mapped[str] = mapped_column(Text, default="")
    # The units' own names (an imported army list's), space-separated in the spec's order; '' for none.
    unit_names: Mapped[str] = mapped_column(Text, default="", server_default="")
    guild_id: Mapped[str | None] = mapped_column(String(NAME))  # shared with this guild; None: private
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        UniqueConstraint("owner", "game", "name", name="uq_rosters_owner_game_name"),
        Index("ix_rosters_guild_id_game", "guild_id", "game"),
    )


class DiceRoll(Base):
    """A generic /roll: its expression and every die, kept for the record (not replayable: d20 rolls its own dice)."""

    __tablename__ = "dice_rolls"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    expression: Mapped[str] = mapped_column(String(200))
    result: Mapped[str] = mapped_column(Text)  # d20's rendering: every die, and the total
    total: Mapped[int] = mapped_column(BigInteger)
    requested_by: Mapped[str] = mapped_column(String(NAME))
    guild_id: Mapped[str | None] = mapped_column(String(NAME))
    channel_id: Mapped[str | None] = mapped_column(String(NAME))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_dice_rolls_requested_by_id", "requested_by", "id"),)


# --- leagues ------------------------------------------------------------------------------------------------------


class League(Base):
    """A guild's league for one game: its scoring, its confirmation window and its current season."""

    __tablename__ = "leagues"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    guild_id: Mapped[str] = mapped_column(String(NAME))
    name: Mapped[str] = mapped_column(String(NAME))
    name_key: Mapped[str] = mapped_column(String(NAME))  # the name folded for comparison: one per guild
    game: Mapped[str] = mapped_column(String(32))
    points_win: Mapped[int] = mapped_column(Integer)
    points_draw: Mapped[int] = mapped_column(Integer)
    points_loss: Mapped[int] = mapped_column(Integer)
    confirm_hours: Mapped[int] = mapped_column(Integer)
    # Reports may list only combats both players agreed to (issue 24; migration 0010): existing leagues false.
    require_agreed: Mapped[bool] = mapped_column(Boolean, server_default=false())
    season: Mapped[int] = mapped_column(Integer)  # the current (latest) season's number
    version: Mapped[int] = mapped_column(Integer)  # +1 with every change that can move the standings
    created_by: Mapped[str] = mapped_column(String(NAME))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (UniqueConstraint("guild_id", "name_key", name="uq_leagues_guild_id_name_key"),)


class LeagueOrganiser(Base):
    __tablename__ = "league_organisers"

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(NAME), primary_key=True)
    added_by: Mapped[str] = mapped_column(String(NAME))
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LeaguePlayer(Base):
    __tablename__ = "league_players"

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(NAME), primary_key=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    left_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class LeagueSeason(Base):
    __tablename__ = "league_seasons"

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=False)
    started_by: Mapped[str] = mapped_column(String(NAME))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_by: Mapped[str | None] = mapped_column(String(NAME))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class LeagueMatch(Base):
    """One game between two players, as reported and as decided since (every change is a LeagueEvent)."""

    __tablename__ = "league_matches"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    season: Mapped[int] = mapped_column(Id)
    reporter_id: Mapped[str] = mapped_column(String(NAME))
    opponent_id: Mapped[str] = mapped_column(String(NAME))
    result: Mapped[str] = mapped_column(String(8))  # the reporter's: win, draw or loss
    score: Mapped[str | None] = mapped_column(String(NAME))
    combats: Mapped[str] = mapped_column(String(200))  # combat record ids, comma separated ("" for none)
    notes: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))  # pending, confirmed, disputed or void
    source: Mapped[str] = mapped_column(String(16))  # "report" (by a player) or "organiser" (entered directly)
    pair_key: Mapped[str] = mapped_column(String(2 * NAME + 1))  # the two players, sorted: one pending game each
    created_by: Mapped[str] = mapped_column(String(NAME))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    confirm_by: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))  # auto-confirmed then
    decided_by: Mapped[str | None] = mapped_column(String(NAME))  # the confirmer, "auto", or an organiser
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Where the report was posted (its buttons), so the auto-confirmation can edit it; and when the opponent was
    # reminded that it will confirm itself (once: set before the reminder is sent, so never twice).
    channel_id: Mapped[str | None] = mapped_column(String(NAME))
    message_id: Mapped[str | None] = mapped_column(String(NAME))
    reminded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_league_matches_league_id_season_status", "league_id", "season", "status"),
        Index("ix_league_matches_status_confirm_by", "status", "confirm_by"),
        Index(
            "uq_league_matches_one_pending_per_pair",
            "league_id",
            "pair_key",
            unique=True,
            sqlite_where=text(PENDING_ONLY),  # and postgresql_where: see add_postgresql_options
        ),
    )


class LeagueEvent(Base):
    """The audit log: append-only, one row per change, with who, when, and the state before and after."""

    __tablename__ = "league_events"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    match_id: Mapped[int | None] = mapped_column(Id)
    kind: Mapped[str] = mapped_column(String(32))
    actor: Mapped[str] = mapped_column(String(NAME))
    reason: Mapped[str] = mapped_column(Text)
    before_json: Mapped[str | None] = mapped_column(Text)
    after_json: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_league_events_league_id_id", "league_id", "id"),
        Index("ix_league_events_match_id", "match_id"),
    )


class LeagueSnapshot(Base):
    """Standings computed from the match log at one league version: reused until the version moves."""

    __tablename__ = "league_snapshots"

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True)
    season: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=False)
    version: Mapped[int] = mapped_column(Integer)
    data_json: Mapped[str] = mapped_column(Text)
    computed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DisplayName(Base):
    """A player's name in a server, as Discord showed it when last seen or fetched: the league's chart and CSV
    show it beside the id. Personal data: in the user's export, deleted with them (bot/storage/privacy.py)."""

    __tablename__ = "display_names"

    guild_id: Mapped[str] = mapped_column(String(NAME), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(NAME), primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME))
    fetched_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_display_names_user_id", "user_id"),)


# --- server settings and preferences -------------------------------------------------------------------------------


class SettingValue(Base):
    """One setting (bot/server_settings/model.py): a server's, one of its channels', or a user's preference."""

    __tablename__ = "settings"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    scope: Mapped[str] = mapped_column(String(16))  # server, channel or user
    scope_id: Mapped[str] = mapped_column(String(NAME))  # the server's, the channel's or the user's id
    guild_id: Mapped[str | None] = mapped_column(String(NAME))  # the server it belongs to; None for a user's
    key: Mapped[str] = mapped_column(String(200))
    value_json: Mapped[str] = mapped_column(Text)
    updated_by: Mapped[str] = mapped_column(String(NAME))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        UniqueConstraint("scope", "scope_id", "key", name="uq_settings_scope_scope_id_key"),
        Index("ix_settings_guild_id", "guild_id"),
    )


class SettingChange(Base):
    """The audit of settings: append-only, one row per change (who, when, before, after). Its highest id is the
    settings' version: a bot process that sees it move reloads what changed (bot/server_settings/cache.py)."""

    __tablename__ = "settings_changes"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    scope: Mapped[str] = mapped_column(String(16))
    scope_id: Mapped[str] = mapped_column(String(NAME))
    guild_id: Mapped[str | None] = mapped_column(String(NAME))
    key: Mapped[str] = mapped_column(String(200))
    before_json: Mapped[str | None] = mapped_column(Text)  # None: unset before
    after_json: Mapped[str | None] = mapped_column(Text)  # None: cleared
    actor: Mapped[str] = mapped_column(String(NAME))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_settings_changes_guild_id_id", "guild_id", "id"),
        Index("ix_settings_changes_scope_id", "scope_id"),
        Index("ix_settings_changes_actor", "actor"),
        # Ids never given twice (SQLite otherwise reuses the highest after a deletion): a privacy deletion removes
        # the newest rows, and the caches' version must stay below every later change (cache.py).
        {"sqlite_autoincrement": True},
    )


def add_postgresql_options() -> None:
    """Give the models their PostgreSQL-only options, once a PostgreSQL engine is made (``db.create_engine``).

    Naming ``postgresql_where`` in the ``Index`` itself would load SQLAlchemy's whole PostgreSQL dialect (about
    20 ms) on every start on SQLite too; a quick ruling recorded on SQLite never needs it. The option means the
    same as the migration's (0004) and ``sqlite_where``; setting it twice is harmless.
    """
    index = next(
        i for i in Base.metadata.tables["league_matches"].indexes if i.name == "uq_league_matches_one_pending_per_pair"
    )
    index.dialect_kwargs["postgresql_where"] = text(PENDING_ONLY)
