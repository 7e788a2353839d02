"""What every answer of the web pages carries: security headers (a CSP without inline scripts or styles, nosniff,
no framing, no referrer), and a per-address rate limit (a token bucket an address refills at the configured rate
a minute)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from aiohttp import web

CSP = ("default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")  # fmt: skip
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "interest-cohort=()",
}
ADDRESSES_KEPT = 100_000  # the addresses the rate limit remembers
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def security_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as error:  # error pages carry the headers too
        error.headers.update(HEADERS)
        raise
    response.headers.update(HEADERS)
    response.headers.setdefault("Cache-Control", "no-cache")  # an opted-out server is not served from a cache
    return response


class RateLimit:
    """``per_minute`` requests an address may make a minute, in bursts of up to that many. The addresses are a
    bounded table, the least recently seen forgotten first (a forgotten address starts again with a full bucket):
    a scan of many addresses costs at most ``kept`` entries, and an address that keeps coming back stays limited."""

    def __init__(
        self, per_minute: int, *, clock: Callable[[], float] = time.monotonic, kept: int = ADDRESSES_KEPT
    ) -> None:
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.clock = clock
        self.kept = kept
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # address -> (tokens, when)

    def take(self, address: str, cost: float = 1.0) -> float:
        """0 when the request may go; else the seconds to wait."""
        now = self.clock()
        tokens, when = self.buckets.get(address, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - when) * self.rate)  # refilled by the time since it was seen
        wait = 0.0 if tokens >= cost else (cost - tokens) / self.rate
        self.buckets[address] = (tokens - cost if wait == 0 else tokens, now)
        self.buckets.move_to_end(address)
        while len(self.buckets) > self.kept:
            self.buckets.popitem(last=False)
        return wait


def client_address(request: web.Request, *, trust_proxy: bool) -> str:
    """The client's address: the socket's, or (behind a trusted reverse proxy) the last address it added."""
    if trust_proxy:
        forwarded = request.headers.get("X-Forwarded-For", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return request.remote or "unknown"


__all__ = ["ADDRESSES_KEPT", "CSP", "HEADERS", "RateLimit", "client_address", "security_headers"]
