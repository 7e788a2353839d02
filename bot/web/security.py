"""What every answer of the web pages carries: security headers (a CSP without inline scripts or styles, nosniff,
no framing, no referrer), and a per-address rate limit (a token bucket an address refills at the configured rate
a minute)."""

from __future__ import annotations

import time
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
    """``per_minute`` requests an address may make a minute, in bursts of up to that many."""

    def __init__(self, per_minute: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)

    def take(self, address: str, cost: float = 1.0) -> float:
        """0 when the request may go; else the seconds to wait."""
        now = self.clock()
        tokens, when = self.buckets.get(address, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - when) * self.rate)
        if tokens >= cost:
            self.buckets[address] = (tokens - cost, now)
            if len(self.buckets) > 100_000:  # forget full buckets: memory stays bounded under a scan
                self.buckets = {a: b for a, b in self.buckets.items() if b[0] < self.capacity - 1}
            return 0.0
        self.buckets[address] = (tokens, now)
        return (cost - tokens) / self.rate


def client_address(request: web.Request, *, trust_proxy: bool) -> str:
    """The client's address: the socket's, or (behind a trusted reverse proxy) the last address it added."""
    if trust_proxy:
        forwarded = request.headers.get("X-Forwarded-For", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return request.remote or "unknown"


__all__ = ["CSP", "HEADERS", "RateLimit", "client_address", "security_headers"]
