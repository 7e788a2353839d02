"""`referee docs [TOPIC]`: the shipped pages, offline (tests/test_packaging.py checks them from a plain install)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parents[2]


def referee(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    out, err = capsys.readouterr()
    return int(exited.value.code or 0), out, err


def test_without_a_topic_every_page_is_listed_with_its_title(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("docs", capsys=capsys)
    assert code == 0
    assert "readme" in out and "Tabletop referee" in out
    for page in (ROOT / "docs").rglob("*.md"):
        assert f"  {page.stem.lower().replace('_', '-')} " in out, page


def test_a_game_page_opens_by_any_name_of_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    page = (ROOT / "docs" / "games" / "boltaction.md").read_text(encoding="utf-8")
    for name in ("boltaction", "BoltAction", "closequarters"):
        code, out, _ = referee("docs", name, capsys=capsys)
        assert (code, out) == (0, page), name


def test_the_settings_to_copy_are_env_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("docs", "env", capsys=capsys)
    assert (code, out) == (0, (ROOT / ".env.example").read_text(encoding="utf-8"))


def test_an_unknown_topic_names_the_known_ones_and_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = referee("docs", "installing", capsys=capsys)
    assert code == 2 and not out
    assert "There is no page 'installing'" in err
    assert "readme, " in err and "web" in err and "deploy" in err
    assert "Example: referee docs 40k" in err
