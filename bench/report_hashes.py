"""Fingerprints of thousands of seeded resolutions per game: the check that a restructuring changed no output.

For every game, every pair of its shipped samples is fought under several option settings and seeds; each
report's stored JSON, its Markdown, its terminal text, its embed pages and its summary words are hashed, and the
exact odds (and a small Monte Carlo) of a few pairs too. One SHA-256 per game and part is printed: run it before
and after a change and compare (`diff`); any difference names the game and the part that moved.

The stored JSON is hashed with its engine version masked, and without what each roll is for (``kind``,
``side``: the part ``kinds`` hashes those alone), so that a version bump, or rolls gaining their kinds, moves
only the parts it should: a ruling that changed moves ``json`` and the words.

Run: .venv/bin/python bench/report_hashes.py [--per-game 3000] > before.txt
"""

from __future__ import annotations

import argparse
import hashlib
import io
import itertools
import json
from collections.abc import Iterator
from typing import Any

from rich.console import Console

from bot.data import catalogue, load_samples
from bot.render.embeds import render_pages
from bot.render.markdown import report_markdown
from bot.render.odds import odds_lines
from bot.render.summary import headline, read_lines, table_lines
from bot.render.terminal import render_report
from rules_core import RefereeError, all_games, resolve
from rules_core.odds import odds
from rules_core.options import OptionType
from rules_core.registry import Game


def option_variants(game: Game) -> list[dict[str, object]]:
    """The defaults, then each option moved off its default once (a bool flipped, each other choice)."""
    variants: list[dict[str, object]] = [{}]
    for option in game.options:
        if option.type is OptionType.BOOL:
            variants.append({option.name: not option.default})
        elif option.type is OptionType.CHOICE:
            variants.extend({option.name: choice} for choice in option.choices if choice != option.default)
        elif option.type in (OptionType.INT, OptionType.FLOAT) and option.example:
            value = str(option.example.settings[-1].value)
            variants.append({option.name: float(value) if option.type is OptionType.FLOAT else int(value)})
    if game.example_options:
        variants.append(dict(game.example_options))
    return variants


def cases(game: Game, per_game: int) -> Iterator[tuple[str, str, dict[str, object], int]]:
    specs = [sample.spec for file in load_samples() if file.game == game.id for sample in file.samples]
    specs.append(game.example_attacker)
    specs.append(game.example_defender)
    pairs = list(itertools.product(specs, repeat=2))
    variants = option_variants(game)
    seeds = max(1, per_game // (len(pairs) * len(variants)))
    for (attacker, defender), options in itertools.product(pairs, variants):
        for seed in range(seeds):
            yield attacker, defender, options, seed


def masked_json(report: Any) -> tuple[str, str]:
    """The report's JSON with its engine version masked and its rolls' kinds left out, and those kinds alone."""
    data = report.to_dict()
    data["engine_version"] = "*"
    kinds = []
    for step in data["steps"]:
        for roll in step["rolls"]:
            kinds.append(f"{roll.pop('kind', '')}:{roll.pop('side', '')}")
    return json.dumps(data, sort_keys=True), " ".join(kinds)


def embed_dicts(pages: list[Any]) -> str:
    return json.dumps([page.to_dict() for page in pages], sort_keys=True)


def terminal_text(report: Any) -> str:
    console = Console(file=io.StringIO(), width=100, color_system=None, force_terminal=False)
    console.print(render_report(report))
    return console.file.getvalue()  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--per-game", type=int, default=3000)
    args = parser.parse_args()
    for game in all_games():
        bound = catalogue().game(game)
        parts = {
            name: hashlib.sha256() for name in ("json", "kinds", "markdown", "terminal", "embeds", "words", "errors")
        }
        count = 0
        for attacker, defender, options, seed in cases(bound, args.per_game):
            try:
                report = resolve(bound, attacker, defender, seed=seed, **options)
            except RefereeError as error:  # an option a pair cannot take: its message is part of the output
                parts["errors"].update(f"{type(error).__name__}: {error}\n".encode())
                continue
            count += 1
            stored, kinds = masked_json(report)
            parts["json"].update(stored.encode())
            parts["kinds"].update(kinds.encode())
            parts["markdown"].update(report_markdown(report, record_id=seed).encode())
            parts["terminal"].update(terminal_text(report).encode())
            parts["embeds"].update(embed_dicts(render_pages(report, record_id=seed)).encode())
            words = [headline(report), *table_lines(report), *read_lines(report)]
            parts["words"].update("\n".join(words).encode())
        odds_hash = hashlib.sha256()
        specs = [s.spec for f in load_samples() if f.game == game.id for s in f.samples][:3]
        for attacker, defender in itertools.product(specs, repeat=2):
            for method, trials in (("auto", 200), ("monte-carlo", 200)):
                try:
                    answer = odds(bound, attacker, defender, method=method, trials=trials, seed=7)
                except RefereeError as error:
                    odds_hash.update(f"{type(error).__name__}: {error}\n".encode())
                    continue
                odds_hash.update("\n".join(odds_lines(answer, game.title)).encode())
        print(f"{game.id}: {count} reports")
        for name, digest in parts.items():
            print(f"  {name:<9} {digest.hexdigest()}")
        print(f"  {'odds':<9} {odds_hash.hexdigest()}")


if __name__ == "__main__":
    main()
