"""Every shipped data file matches its schema, and every sample is a valid spec of its game."""

from __future__ import annotations

import pytest

from bot.data import DataFileError, load_samples, parse_sample_file, sample_files
from rules_core import get_game


def test_there_are_sample_files_for_the_games_available() -> None:
    games = {get_game(f.game).id for f in load_samples()}
    assert "40k" in games


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: p.name)
def test_each_sample_file_matches_its_schema_and_parses(path) -> None:  # type: ignore[no-untyped-def]
    sample_file = parse_sample_file(path.read_text(encoding="utf-8"), name=path.name)
    game = get_game(sample_file.game)
    assert len(sample_file.samples) >= 2
    for sample in sample_file.samples:
        game.parse_side(sample.spec)


@pytest.mark.parametrize(
    "text",
    [
        "just a string",
        "schema: referee-samples/2\ngame: 40k\nunits: {a: {description: x, spec: y}}",
        "schema: referee-samples/1\nunits: {a: {description: x, spec: y}}",
        "schema: referee-samples/1\ngame: 40k\nunits: {}",
        "schema: referee-samples/1\ngame: 40k\nunits: {a: {spec: y}}",
        "schema: referee-samples/1\ngame: 40k\nunits: {a: {description: '', spec: y}}",
        "schema: referee-samples/1\ngame: 40k\nunits: {a: {description: x, spec: y}}\nextra: 1",
    ],
)
def test_the_schema_check_rejects_broken_files(text: str) -> None:
    with pytest.raises(DataFileError):
        parse_sample_file(text, name="broken.yaml")
