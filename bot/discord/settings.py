"""The bot's settings, from the environment or a `.env` file (pydantic-settings); the token is never logged."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_core import PydanticCustomError
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.storage.db import DEFAULT_URL

TOKEN_HELP = (
    "Create an application at https://discord.com/developers/applications, open Bot, press Reset Token, and put the "
    "token in a .env file as DISCORD_TOKEN=... (or in the environment). 'Running the Discord bot' "
    "(referee docs readme) walks through it."
)


# A held result's answer is edited when it is written: well inside the 15 minutes an interaction's token lives.
MAX_RECORD_RETRY_SECONDS = 300.0
RETRY_HELP = (
    "how long a result is held and tried again while the database restarts, in seconds from 0 to 300 (a Discord "
    "answer stays editable 15 minutes), not '{value}'. Example: RECORD_RETRY_SECONDS=60"
)


class SettingsError(Exception):
    """Settings that cannot start the bot, with what to do about it."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr
    database_url: str = DEFAULT_URL
    dev_guild_id: int | None = Field(default=None, description="Commands are synced to this guild on start (instant).")
    shard_count: int | None = Field(default=None, ge=1, le=1000, description="Total shards; default: Discord's advice.")
    shard_ids: str | None = Field(default=None, description="The shards this process runs, e.g. '0,1'.")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    docs_url: str | None = Field(
        default=None, description="Where docs/ is published, e.g. https://github.com/OWNER/REPO/blob/main/docs: /help "
        "links each game's page under it. Unset: /help links nothing (never a path in the repository)."
    )  # fmt: skip

    web_base_url: str | None = Field(
        default=None, description="Where the web pages are reached (referee web, docs/web.md): a result of a server "
        "that publishes its pages links to its page there. Unset: no links."
    )  # fmt: skip
    record_retry_seconds: float = Field(
        default=60.0, ge=0, le=MAX_RECORD_RETRY_SECONDS, description="How long a result whose write failed for a "
        "reason that passes (the database restarting) is held and tried again before its answer says it is not "
        "recorded. At most 300: the answer must still be editable (Discord's interaction token lives 15 minutes)."
    )  # fmt: skip
    serve_web: bool = Field(default=False, description="Serve the web pages from this process (referee bot --web).")

    @field_validator("record_retry_seconds", mode="before")
    @classmethod
    def _record_retry_seconds(cls, value: object) -> float:
        try:
            seconds = float(str(value).strip())
        except ValueError:
            seconds = math.nan
        if not 0 <= seconds <= MAX_RECORD_RETRY_SECONDS:  # NaN fails this too
            raise PydanticCustomError("record_retry_seconds", RETRY_HELP.format(value=str(value)[:40]))
        return seconds

    @field_validator("web_base_url")
    @classmethod
    def _web_base_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        if not value.strip().startswith(("https://", "http://")):
            raise ValueError("WEB_BASE_URL is the address the web pages are reached at, starting with https://")
        return value.strip().rstrip("/")

    @field_validator("docs_url")
    @classmethod
    def _docs_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        if not value.strip().startswith(("https://", "http://")):
            raise ValueError("DOCS_URL is the web address docs/ is published at, starting with https://")
        return value.strip().rstrip("/")

    def docs_link(self, page: str) -> str | None:
        """The web address of a page of docs/ (``docs/games/duel.md``), or None without DOCS_URL."""
        return None if self.docs_url is None else f"{self.docs_url}/{page.removeprefix('docs/')}"

    @field_validator("shard_ids")
    @classmethod
    def _shard_ids(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        parts = [part.strip() for part in value.split(",")]
        if not all(part.isdigit() for part in parts):
            raise ValueError("SHARD_IDS is a comma-separated list of shard numbers, e.g. 0,1")
        return ",".join(parts)

    @property
    def shards(self) -> list[int] | None:
        return None if self.shard_ids is None else [int(part) for part in self.shard_ids.split(",")]


def load_settings(env_file: str | None = ".env", **given: object) -> Settings:
    """The settings, or a :class:`SettingsError` that says exactly what is missing or wrong; ``given`` (from the
    command line) over the environment's."""
    try:
        settings = Settings(_env_file=env_file, **given)  # type: ignore[call-arg, arg-type]
    except ValidationError as error:
        problems = []
        for item in error.errors():
            name = str(item["loc"][0]).upper() if item["loc"] else "settings"
            if name == "DISCORD_TOKEN" and item["type"] == "missing":
                raise SettingsError(f"DISCORD_TOKEN is not set. {TOKEN_HELP}") from None
            problems.append(f"{name}: {item['msg']}")
        raise SettingsError("Bad settings: " + "; ".join(problems)) from None
    if not settings.discord_token.get_secret_value().strip():
        raise SettingsError(f"DISCORD_TOKEN is empty. {TOKEN_HELP}")
    if settings.shards is not None and settings.shard_count is None:
        raise SettingsError("SHARD_IDS needs SHARD_COUNT too (the total number of shards across every process).")
    if (
        settings.shards is not None
        and settings.shard_count is not None
        and max(settings.shards) >= settings.shard_count
    ):
        raise SettingsError(f"SHARD_IDS must be below SHARD_COUNT ({settings.shard_count}).")
    return settings
