"""Bot settings: a missing or bad setting is one clear message and exit status 2, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord.settings import SettingsError, load_settings
from tests.bot.test_cli import referee


@pytest.fixture(autouse=True)
def clean_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no stray .env
    for name in ("DISCORD_TOKEN", "DEV_GUILD_ID", "SHARD_COUNT", "SHARD_IDS", "LOG_LEVEL", "DOCS_URL"):
        monkeypatch.delenv(name, raising=False)


def test_without_a_token_the_bot_explains_how_to_get_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee("bot", capsys=capsys)
    assert code == 2
    assert err.startswith("error: DISCORD_TOKEN is not set.")
    assert "discord.com/developers/applications" in err
    assert "Traceback" not in err
    code, _, err = referee("sync", capsys=capsys)
    assert code == 2 and "DISCORD_TOKEN is not set" in err


def test_settings_come_from_a_dotenv_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nDEV_GUILD_ID=42\nSHARD_COUNT=4\nSHARD_IDS=2, 3\n")
    settings = load_settings()
    assert settings.discord_token.get_secret_value() == "abc"
    assert "abc" not in repr(settings)  # the token is a secret: never printed
    assert (settings.dev_guild_id, settings.shard_count, settings.shards) == (42, 4, [2, 3])


@pytest.mark.parametrize(
    ("env", "fragment"),
    [
        ("DISCORD_TOKEN=   \n", "DISCORD_TOKEN is empty"),
        ("DISCORD_TOKEN=a\nSHARD_IDS=0,x\nSHARD_COUNT=2\n", "SHARD_IDS"),
        ("DISCORD_TOKEN=a\nSHARD_IDS=0,1\n", "needs SHARD_COUNT"),
        ("DISCORD_TOKEN=a\nSHARD_IDS=0,5\nSHARD_COUNT=2\n", "below SHARD_COUNT"),
        ("DISCORD_TOKEN=a\nLOG_LEVEL=LOUD\n", "LOG_LEVEL"),
        ("DISCORD_TOKEN=a\nDEV_GUILD_ID=guild\n", "DEV_GUILD_ID"),
    ],
)
def test_bad_settings_name_the_setting(tmp_path: Path, env: str, fragment: str) -> None:
    (tmp_path / ".env").write_text(env)
    with pytest.raises(SettingsError, match=fragment):
        load_settings()


def test_the_example_env_file_lists_every_setting() -> None:
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text(encoding="utf-8")
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "DEV_GUILD_ID", "SHARD_COUNT", "SHARD_IDS", "LOG_LEVEL"):
        assert name in example


def test_docs_url_is_optional_and_a_web_address(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\n")
    assert load_settings().docs_link("docs/games/duel.md") is None  # unset: /help links nothing
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nDOCS_URL=https://example.org/ref/docs/\n")
    assert load_settings().docs_link("docs/games/duel.md") == "https://example.org/ref/docs/games/duel.md"
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nDOCS_URL=docs/\n")
    with pytest.raises(SettingsError, match=r"DOCS_URL: .*web address"):
        load_settings()


@pytest.mark.parametrize("value", ["1000", "-1", "a minute", "nan", "inf"])
def test_record_retry_seconds_is_a_bounded_number_and_a_bad_one_shows_an_example(tmp_path: Path, value: str) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\n")
    assert load_settings().record_retry_seconds == 60  # held up to a minute through a database restart by default
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nRECORD_RETRY_SECONDS=2.5\n")
    assert load_settings().record_retry_seconds == 2.5
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN=abc\nRECORD_RETRY_SECONDS={value}\n")
    with pytest.raises(SettingsError) as refused:
        load_settings()
    assert str(refused.value) == (
        "Bad settings: RECORD_RETRY_SECONDS: how long a result is held and tried again while the database "
        f"restarts, in seconds from 0 to 300 (a Discord answer stays editable 15 minutes), not '{value}'. "
        "Example: RECORD_RETRY_SECONDS=60"
    )
