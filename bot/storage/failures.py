"""A storage failure as one sentence: what failed and what to do, worded for whoever reads it.

Whatever the database layers raise (the project's :class:`StorageError`, SQLAlchemy's errors, the driver's, the
operating system's: a missing folder, a read-only or full disk, a server refusing connections) becomes one
:class:`StorageError` through :func:`storage_error`. It carries two wordings of the same failure:

- ``str(error)``, for the person who runs the referee (the terminal: they can fix the database, so the sentence
  says where it is and what to change: ``DATABASE_URL``, the folder, the disk, ``referee db upgrade``);
- :meth:`StorageError.for_player`, for a Discord user, who cannot: what failed in plain words, that nothing was
  changed, to try again later and to give the operator the error id (the bot logs the traceback under it).

This module imports nothing heavy (no SQLAlchemy, no driver): it recognises their errors by the modules already
loaded, so a front end can import it without slowing its start.
"""

from __future__ import annotations

import errno
import os
import socket
import sys
from enum import Enum
from pathlib import Path
from urllib.parse import unquote, urlsplit

from rules_core.errors import RefereeError

DEFAULT_URL = "sqlite+aiosqlite:///referee.db"


class Fault(Enum):
    """What kind of failure it is; the value is how a player is told."""

    UNREACHABLE = "the referee's database cannot be reached"
    CANNOT_OPEN = "the referee's database cannot be opened"
    READ_ONLY = "the referee's database is read-only"
    FULL = "the referee's disk is full"
    BUSY = "the referee's database is busy"
    SCHEMA = "the referee's database needs an upgrade by its operator"
    CONFIG = "the referee's database is not configured correctly"
    OTHER = "the referee's database failed"


class StorageError(Exception):
    """The store cannot be used as configured (a bad URL, a schema that needs upgrading, a server down, a full
    disk...). ``str()`` is the operator's one sentence; :meth:`for_player` is a Discord user's."""

    def __init__(self, message: str, fault: Fault = Fault.OTHER) -> None:
        super().__init__(" ".join(message.split()))  # one line, whatever a driver's message held
        self.fault = fault

    @property
    def transient(self) -> bool:
        """Whether it may pass if tried again in a few seconds (see :func:`is_transient`): for callers that cannot
        import this module (the settings cache, which storage itself imports)."""
        return is_transient(self)

    @property
    def reason(self) -> str:
        """A short phrase for a player ("the referee's disk is full"), e.g. after "Not recorded"."""
        return self.fault.value

    def for_player(self, error_id: str) -> str:
        """The same failure for someone who cannot fix the database: what failed, what to do, the error id."""
        return (
            f"The referee cannot use its database right now ({self.reason}), so nothing was read or changed. "
            f"Try again in a few minutes; if it keeps failing, give the bot's operator this error id: {error_id}."
        )


def where(url: str) -> str:
    """The database a URL names, without its password: ``the SQLite file /srv/referee.db``, ``the PostgreSQL
    database referee at db:5432``."""
    if url.startswith("sqlite"):
        path = sqlite_path(url)
        return f"the SQLite file {path}" if path is not None else "the in-memory SQLite database"
    parts = urlsplit(url)
    name = parts.path.lstrip("/") or "(no name)"
    host = parts.hostname or "localhost"
    return f"the PostgreSQL database {name} at {host}:{parts.port or 5432}"


def upper_first(text: str) -> str:
    """A phrase made the start of a sentence (``str.capitalize`` would lower "PostgreSQL" and "SQLite")."""
    return text[:1].upper() + text[1:]


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (``sqlite+aiosqlite:///x.db``, ``...///file:x.db?mode=ro&uri=true``), or None for
    an in-memory database."""
    rest = url.split(":///", 1)[1] if ":///" in url else ""
    rest = unquote(rest.split("?", 1)[0])
    if rest.startswith("file:"):
        rest = rest[len("file:") :]
    if rest in ("", ":memory:"):
        return None
    return Path(rest).absolute()


def is_storage_failure(error: BaseException) -> bool:
    """Whether ``error`` came from the database layers (or the operating system under them); never one of the
    project's own errors (a refusal such as ``VoidNotAllowed`` is a ``PermissionError``, an ``OSError``)."""
    if isinstance(error, RefereeError):
        return False
    if isinstance(error, (StorageError, OSError)):
        return True
    for module, name in (("sqlalchemy.exc", "SQLAlchemyError"), ("sqlite3", "Error"), ("asyncpg", "PostgresError")):
        loaded = sys.modules.get(module)
        kind = getattr(loaded, name, None) if loaded is not None else None
        if isinstance(kind, type) and isinstance(error, kind):
            return True
    return False


def storage_error(error: BaseException, url: str) -> StorageError:
    """``error`` (raised while using the database at ``url``) as one sentence: what failed, what to do."""
    if isinstance(error, StorageError):
        return error
    place = where(url)
    causes = _chain(error)
    detail = _detail(causes)
    for cause in causes:
        if isinstance(cause, OSError) and cause.errno is not None:
            found = _from_errno(cause, place, url, detail)
            if found is not None:
                return found
        if isinstance(cause, (ConnectionError, TimeoutError)) or type(cause).__name__ in _UNREACHABLE_NAMES:
            return _unreachable(place, detail)
    text = detail.lower()
    if "readonly" in text or "read-only" in text or "read only" in text:
        return _read_only(place, detail)
    if "disk is full" in text or "disk i/o error" in text or "no space" in text or "file too large" in text:
        return _full(place, detail)
    if "unable to open database file" in text:
        return StorageError(f"Cannot open {place}: {_why_unopenable(url) or detail}. Set DATABASE_URL to a file "
                            f"in a folder that exists and can be written to (example: {DEFAULT_URL}).",
                            Fault.CANNOT_OPEN)  # fmt: skip
    if "database is locked" in text:
        return StorageError(f"{upper_first(place)} is locked by another process ({detail}). Wait for it to "
                            "finish, then try again.", Fault.BUSY)  # fmt: skip
    if "password authentication failed" in text or ("does not exist" in text and "database" in text):
        return StorageError(f"{upper_first(place)} refused the login ({detail}). Check the user, password and "
                            "database name in DATABASE_URL.", Fault.CONFIG)  # fmt: skip
    if "no such table" in text or ("relation" in text and "does not exist" in text):
        return StorageError(f"{upper_first(place)} lacks the referee's tables ({detail}). Run 'referee db "
                            "upgrade' once.", Fault.SCHEMA)  # fmt: skip
    return StorageError(f"The referee could not use {place} ({detail}). Check DATABASE_URL and the "
                        "database.")  # fmt: skip


_UNREACHABLE_NAMES = {"CannotConnectNowError", "ConnectionDoesNotExistError", "ConnectionFailureError", "gaierror"}

# Failures that pass by themselves (a server restarting, a connection dropped, a transaction that lost a race): a
# write that met one may be tried again. SQLSTATE classes 08 (connection), 57P0x (shutting down, cannot connect
# now), 40001 (serialization failure), 40P01 (deadlock detected), 53300 (too many connections). A host that cannot
# be found or routed to counts too: the bot checked its database at start, so later it is a container or host
# restarting (its name gone from DNS for a moment), and the cost of a wrong guess is a wait, not a lost result.
_TRANSIENT_NAMES = _UNREACHABLE_NAMES | {
    "AdminShutdownError", "CrashShutdownError", "SerializationError", "DeadlockDetectedError",
    "ConnectionRejectionError", "TooManyConnectionsError",
}  # fmt: skip
_TRANSIENT_ERRNOS = {errno.ECONNREFUSED, errno.ECONNRESET, errno.ECONNABORTED, errno.EPIPE, errno.ETIMEDOUT,
                     errno.EHOSTUNREACH, errno.ENETUNREACH}  # fmt: skip
_TRANSIENT_STATES = ("08", "57P01", "57P02", "57P03", "40001", "40P01", "53300")


def is_transient(error: BaseException) -> bool:
    """Whether a storage failure may pass if tried again in a few seconds: the connection refused or dropped, the
    server shutting down or starting up, a serialization failure or deadlock. The one place that decides it (the
    bot's record writer and the terminal both ask here); a full disk, a read-only file, a bad URL or schema never
    pass by themselves, nor does SQLite's "database is locked" (its own busy timeout has already waited)."""
    if isinstance(error, RefereeError):
        return False
    for cause in _chain(error):
        if getattr(cause, "connection_invalidated", False):  # SQLAlchemy saw the connection die under it
            return True
        if type(cause).__name__ in _TRANSIENT_NAMES:
            return True
        state = getattr(cause, "sqlstate", None)
        if isinstance(state, str) and state.startswith(_TRANSIENT_STATES):
            return True
        if isinstance(cause, (ConnectionError, TimeoutError)):
            return True
        if isinstance(cause, OSError) and cause.errno in _TRANSIENT_ERRNOS:
            return True
        if type(cause).__name__ == "InterfaceError" and "connection is closed" in str(cause):
            return True
    return False


_UNSENT_ERRNOS = {errno.ECONNREFUSED, errno.EHOSTUNREACH, errno.ENETUNREACH}
_UNSENT_STATES = ("57P03", "53300", "08001", "08004")  # starting up or shutting down, too many clients, refused


def never_sent(error: BaseException) -> bool:
    """Whether a failed write certainly never reached the server (no connection was made: refused, host unknown or
    unroutable, the server refusing new sessions), so it cannot have committed. Anything else that fails after a
    statement may have been sent (a connection dropped, a timeout) leaves it unknown whether it committed."""
    for cause in _chain(error):
        if isinstance(cause, socket.gaierror):
            return True
        if isinstance(cause, OSError) and cause.errno in _UNSENT_ERRNOS:
            return True
        state = getattr(cause, "sqlstate", None)
        if isinstance(state, str) and state.startswith(_UNSENT_STATES):
            return True
    return False


def _chain(error: BaseException) -> list[BaseException]:
    """The error, the driver's error SQLAlchemy wraps (``.orig``) and their causes, outermost first."""
    seen: list[BaseException] = []
    todo: list[BaseException | None] = [error]
    while todo:
        current = todo.pop(0)
        if current is None or any(current is known for known in seen) or len(seen) > 20:
            continue
        seen.append(current)
        orig = getattr(current, "orig", None)
        todo += [orig if isinstance(orig, BaseException) else None, current.__cause__, current.__context__]
    return seen


def _detail(causes: list[BaseException]) -> str:
    """The innermost driver's or system's own words, on one line, without SQLAlchemy's SQL and links."""
    for cause in reversed(causes):
        text = str(cause).split("\n[SQL:", 1)[0].split("\n(Background", 1)[0]
        if isinstance(cause, OSError) and cause.strerror:
            text = cause.strerror + (f": {cause.filename}" if cause.filename else "")
        text = " ".join(text.split())
        if text:
            return text[:200]
    return type(causes[0]).__name__


def _from_errno(cause: OSError, place: str, url: str, detail: str) -> StorageError | None:
    number = cause.errno
    if number in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
        return _full(place, detail)
    if number in (errno.EROFS,):
        return _read_only(place, detail)
    if number in (errno.ECONNREFUSED, errno.EHOSTUNREACH, errno.ENETUNREACH, errno.ETIMEDOUT, errno.ECONNRESET):
        return _unreachable(place, detail)
    if number in (errno.ENOTDIR, errno.ENOENT, errno.EACCES, errno.EPERM, errno.EISDIR):
        why = _why_unopenable(url) or detail
        return StorageError(f"Cannot open {place}: {why}. Set DATABASE_URL to a file in a folder that exists and "
                            f"can be written to (example: {DEFAULT_URL}).", Fault.CANNOT_OPEN)  # fmt: skip
    return None


def _unreachable(place: str, detail: str) -> StorageError:
    return StorageError(f"Cannot reach {place} ({detail}). Start the database server, or correct the host and port "
                        "in DATABASE_URL.", Fault.UNREACHABLE)  # fmt: skip


def _read_only(place: str, detail: str) -> StorageError:
    return StorageError(f"Cannot write to {place}: it is read-only ({detail}). Make the file and its folder writable, "
                        "or set DATABASE_URL to a database the referee can write to.", Fault.READ_ONLY)  # fmt: skip


def _full(place: str, detail: str) -> StorageError:
    return StorageError(f"Cannot write to {place}: the disk is full or failing, or the file reached its size limit "
                        f"({detail}). Nothing already stored was lost: free some space, or check the disk.",
                        Fault.FULL)  # fmt: skip


def _why_unopenable(url: str) -> str | None:
    """Why a SQLite file cannot be opened, found on the disk: a missing folder, a file where a folder should be."""
    path = sqlite_path(url) if url.startswith("sqlite") else None
    if path is None:
        return None
    for parent in reversed(path.parents):
        if parent.exists() and not parent.is_dir():
            return f"{parent} is a file, not a folder"
        if not parent.exists():
            return f"the folder {parent} does not exist"
    if not path.exists() and "mode=ro" in url:
        return f"{path} does not exist, and the URL opens it read-only (mode=ro)"
    if path.is_dir():
        return f"{path} is a folder, not a file"
    if not os.access(path.parent, os.W_OK):
        return f"the folder {path.parent} cannot be written to"
    return None


__all__ = [
    "Fault",
    "StorageError",
    "is_storage_failure",
    "is_transient",
    "never_sent",
    "sqlite_path",
    "storage_error",
    "upper_first",
    "where",
]
