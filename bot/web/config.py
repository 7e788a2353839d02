"""The web server's settings, from the environment or a `.env` file: where it listens and the address it is reached
at (WEB_BASE_URL, for links in Discord), the database, the rate limit, and whether a reverse proxy's
X-Forwarded-For is trusted."""

from __future__ import annotations

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.storage.db import DEFAULT_URL


class WebConfig(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str = DEFAULT_URL
    web_base_url: str | None = Field(default=None, description="The public address of the pages, e.g. "
                                     "https://referee.example.org: links in Discord point there.")  # fmt: skip
    web_host: str = "127.0.0.1"
    web_port: int = Field(default=8080, ge=1, le=65535)
    web_rate: int = Field(default=120, ge=1, description="Requests a minute one address may make.")
    web_trust_proxy: bool = Field(default=False, description="Take the client's address from X-Forwarded-For "
                                  "(only behind a reverse proxy that sets it).")  # fmt: skip

    @field_validator("web_base_url")
    @classmethod
    def _base(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        if not value.strip().startswith(("https://", "http://")):
            raise ValueError("WEB_BASE_URL is the address the pages are reached at, starting with https://")
        return value.strip().rstrip("/")


__all__ = ["WebConfig"]
