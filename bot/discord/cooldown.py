"""A per-user rate limit shared by all the combat commands, constant time per check.

discord.py's ``app_commands.checks.cooldown`` keeps one mapping per command and, on every use, walks the whole
mapping to drop expired users: the cost of a check grows with the number of players active in the window (a
thousand players in 30 seconds is a thousand entries walked for every command). Here the users are kept in the
order they were last seen, so the expired ones are always at the front and each check removes at most what has
expired since the last. One limiter serves every combat command: six combats per user per 30 seconds in all,
not six per game.

Only uses that got a result count: a command refused for its input (a spec that does not parse, an option out of
range, a roster that does not exist) gives its use back (:func:`refund`), so a player who mistyped six times in a
row is answered on the seventh, correct, attempt. The use is taken when the command starts and given back on a
refusal, rather than counted once it succeeds, so that a burst of commands sent together is still held to the limit.

Per process, on purpose (issue 23; docs/deploy.md, "Rate limits across processes"). With the shards split over
several processes, each keeps its own limits, so a user whose servers sit on shards of two processes can get six
combats per 30 seconds from each: at most as many times the rate as processes their servers are spread over. The
limit's job is to keep one user from taking the CPU of the process that does the work, and it does that. Sharing
it through PostgreSQL (one ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING`` per command) was measured by
bench/bench_rate_limit.py (the real bot recording on PostgreSQL, same machine, loopback): one command at a time it
adds a round trip, +1.2 to +1.8 ms to a 1.3 to 1.7 ms median first answer (p99 +5 to +9 ms); in bursts of 50 it
adds +94 to +167 ms to a 44 to 55 ms median (p99 +132 to +314 ms), as fifty checks at once want fifty connections
and the store's pool opens up to twenty for a burst; on a warm pool of fifty of its own, still +20 ms. And the
first answer, which today needs no database (shown, marked not recorded, when the database is down; never delayed
by a slow store), would wait on it and fail with it.
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from typing import Any

import discord
from discord import app_commands


class RateLimit:
    """At most ``rate`` uses per key in any ``per`` seconds (a sliding window)."""

    def __init__(self, rate: int, per: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        if rate < 1 or per <= 0:
            raise ValueError("a rate limit needs rate >= 1 and per > 0")
        self.rate = rate
        self.per = per
        self.clock = clock
        self.uses: OrderedDict[Hashable, deque[float]] = OrderedDict()  # last used first to last

    def __len__(self) -> int:
        return len(self.uses)

    def hit(self, key: Hashable) -> float | None:
        """Count one use; None if allowed, else the seconds until the next use would be."""
        now = self.clock()
        self._forget_expired(now)
        uses = self.uses.get(key)
        if uses is None:
            uses = self.uses[key] = deque(maxlen=self.rate)
        else:
            while uses and uses[0] <= now - self.per:
                uses.popleft()
            if len(uses) >= self.rate:
                return uses[0] + self.per - now  # refused uses do not count, or a flood would lock itself out
            self.uses.move_to_end(key)
        uses.append(now)
        return None

    def refund(self, key: Hashable) -> None:
        """Give back the latest use of ``key`` (its command was refused for its input: it got no result)."""
        uses = self.uses.get(key)
        if uses:
            uses.pop()

    def _forget_expired(self, now: float) -> None:
        # Keys are ordered by their latest use, so the first whose latest use is recent ends the sweep.
        while self.uses:
            key, uses = next(iter(self.uses.items()))
            if uses and uses[-1] > now - self.per:
                return
            del self.uses[key]


def per_user_check(limit: RateLimit) -> Callable[[Any], Any]:
    """A discord.py check (decorator) that refuses with CommandOnCooldown once the user is over the limit."""

    def predicate(interaction: discord.Interaction[Any]) -> bool:
        retry_after = limit.hit(interaction.user.id)
        if retry_after is None:
            interaction.extras[_TAKEN] = limit  # given back by refund() if the command is refused for its input
            return True
        raise app_commands.CommandOnCooldown(app_commands.Cooldown(limit.rate, limit.per), retry_after)

    return app_commands.check(predicate)


_TAKEN = "rate_limit_taken"


def refund(interaction: discord.Interaction[Any]) -> None:
    """Give back the use this interaction's command took of its rate limit, if it took one: called for a command
    refused for its input, which got no result."""
    limit = interaction.extras.pop(_TAKEN, None)
    if isinstance(limit, RateLimit):
        limit.refund(interaction.user.id)


__all__ = ["RateLimit", "per_user_check", "refund"]
