"""The type of every id column (and season number): the one bound on ids (bot/ids.py) applied where the store
binds a number, so a lookup by any number is answered, never refused by the driver."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Integer
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from bot.ids import ID_MAX


class Id(TypeDecorator[int]):
    """An id or a season number: an integer column that a lookup by any number may use. A number beyond what the
    column holds (over ``bot.ids.ID_MAX``, or below 1) is bound as 0, which no row has: it is not found, on
    PostgreSQL exactly as on SQLite, instead of the driver's out-of-range error. Every id a player, a button or an
    address gives (``/replay record:``, ``league:#N``, ``combats:``, ``referee:page:N``) meets this one bound."""

    impl = Integer
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:  # noqa: ARG002
        if not isinstance(value, int):  # None, or what the driver itself should judge
            return value
        return value if 1 <= value <= ID_MAX else 0


__all__ = ["Id"]
