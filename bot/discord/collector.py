"""Python's cyclic garbage collector kept out of the way while first answers are being worked out and sent.

Discord gives a command 3 seconds for its first answer and 15 minutes for the rest. The collector runs whenever
enough objects have piled up, often in the middle of a resolution (a 20-vs-20 assault builds thousands), and a
pass over a burst's live objects takes milliseconds. So while any first answer is in the making the collector
waits; it catches up as soon as none is (the recording and the edit that follow are not in a hurry). A backlog
beyond ``backlog`` objects is collected at once even so, so memory stays bounded under unbroken load.
"""

from __future__ import annotations

import gc
from types import TracebackType


class CollectorHold:
    def __init__(self, keeper: Collector) -> None:
        self.keeper = keeper
        self.held = True

    def release(self) -> None:
        if self.held:
            self.held = False
            self.keeper.release()

    def __enter__(self) -> CollectorHold:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.release()


class Collector:
    def __init__(self, backlog: int = 200_000) -> None:
        self.backlog = backlog
        self.holders = 0
        self.disabled_here = False
        self.forced = 0  # collections run while held, because the backlog grew too big

    def hold(self) -> CollectorHold:
        if self.holders == 0 and gc.isenabled():
            gc.disable()
            self.disabled_here = True
        self.holders += 1
        if self.disabled_here and gc.get_count()[0] > self.backlog:
            gc.collect(0)
            self.forced += 1
        return CollectorHold(self)

    def release(self) -> None:
        self.holders -= 1
        if self.holders == 0 and self.disabled_here:
            self.disabled_here = False
            gc.enable()


__all__ = ["Collector", "CollectorHold"]
