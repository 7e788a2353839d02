"""The tables: typed SQLAlchemy 2 models. Nothing outside bot/storage sees these; the store returns plain records."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAME = 100  # names and ids people type or Discord gives (snowflakes are 20 digits)


class Base(DeclarativeBase):
    pass


class CombatRecord(Base):
    """One resolution, exactly as it was shown: never edited in place (voids and notes are RecordEvents)."""

    __tablename__ = "combat_records"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
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
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The record whose combat this one continues (a drawn 40K assault, or one whose loser held): at most one each.
    continues_id: Mapped[int | None] = mapped_column(
        ForeignKey("combat_records.id", ondelete="SET NULL", name="fk_combat_records_continues_id")
    )

    events: Mapped[list[RecordEvent]] = relationship(
        back_populates="record", order_by="RecordEvent.id", cascade="all, delete-orphan", passive_deletes=True
    )

    __table_args__ = (
        Index("ix_combat_records_requested_by_id", "requested_by", "id"),
        Index("ix_combat_records_guild_id_id", "guild_id", "id"),
        Index("ix_combat_records_game_id", "game", "id"),
        UniqueConstraint("continues_id", name="uq_combat_records_continues_id"),
    )


class RecordEvent(Base):
    """Something said of a record after the fact: a void or a note, with who, when and why."""

    __tablename__ = "record_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    record_id: Mapped[int] = mapped_column(ForeignKey("combat_records.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # "void" or "note"
    actor: Mapped[str] = mapped_column(String(NAME))
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    record: Mapped[CombatRecord] = relationship(back_populates="events")


class Roster(Base):
    """A named set of units for one game, stored as the spec text the commands accept."""

    __tablename__ = "rosters"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    owner: Mapped[str] = mapped_column(String(NAME))
    game: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(NAME))
    spec: Mapped[str] = mapped_column(Text)
    description: Mapped[str] = mapped_column(Text, default="")
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

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    expression: Mapped[str] = mapped_column(String(200))
    result: Mapped[str] = mapped_column(Text)  # d20's rendering: every die, and the total
    total: Mapped[int] = mapped_column(BigInteger)
    requested_by: Mapped[str] = mapped_column(String(NAME))
    guild_id: Mapped[str | None] = mapped_column(String(NAME))
    channel_id: Mapped[str | None] = mapped_column(String(NAME))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_dice_rolls_requested_by_id", "requested_by", "id"),)
