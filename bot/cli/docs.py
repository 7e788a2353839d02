"""``referee docs [TOPIC]``: the project's documentation, offline. The pages ship inside the install
(bot/shipped_docs: README.md and docs/), so every pointer the terminal gives (``referee docs 40k``,
``referee docs web``) works after a plain ``pip install .``, with no checkout and no network.

A topic is a page's name: ``readme`` for the README, ``env`` for .env.example (the bot's settings, to copy), a
file of docs/ by its name (``web``, ``adding-a-game``), a game's rules page by its name (``40k``) or by any name of
the game (``wh40k``, ``bolt-action``)."""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

import click

from rules_core import RefereeError, all_games
from rules_core.registry import games_like, games_named

README = "README.md"
ENV_EXAMPLE = "env.example"  # .env.example, the bot's settings to copy: `referee docs env > .env`


def pages() -> dict[str, Traversable]:
    """Every shipped page by its topic, in the order ``referee docs`` lists them."""
    root = resources.files("bot.shipped_docs")
    found = {"readme": root / README, "env": root / ENV_EXAMPLE}
    folders = (root / "docs", root / "docs" / "games")
    for folder in folders:
        for page in sorted(folder.iterdir(), key=lambda page: page.name.lower()):
            if page.name.endswith(".md"):
                found.setdefault(page_topic(page.name), page)
    return found


def page_topic(page: str) -> str:
    """The topic of a page given as its path in the repository (``docs/games/40k.md`` -> ``40k``,
    ``README.md`` -> ``readme``, ``docs/ADDING_A_GAME.md`` -> ``adding-a-game``)."""
    name = page.rsplit("/", 1)[-1].removesuffix(".md")
    return name.lower().replace("_", "-")


def pointer(page: str) -> str:
    """How the terminal points at a page of the repository: ``referee docs 40k``."""
    return f"referee docs {page_topic(page)}"


def find_page(topic: str) -> Traversable:
    """The page of ``topic`` (any case; a game by any of its names), or an error naming the known topics."""
    known = pages()
    wanted = topic.strip().lower().replace("_", "-")
    if wanted in known:
        return known[wanted]
    games = games_named(topic) or games_like(topic)
    if len(games) == 1 and page_topic(games[0].docs_page) in known:
        return known[page_topic(games[0].docs_page)]
    first = all_games()[0]
    raise RefereeError(
        f"There is no page '{topic}'. The pages are: {', '.join(known)}. Example: referee docs "
        f"{page_topic(first.docs_page)} ({first.title}); referee docs alone lists them."
    )


@click.command("docs")
@click.argument("topic", required=False)
def docs_command(topic: str | None) -> None:
    """The documentation, offline: TOPIC's page (a game's rules, web, deploy, settings...); no TOPIC lists them."""
    if topic is None:
        click.echo("Pages (referee docs TOPIC shows one):")
        for name, page in pages().items():
            click.echo(f"  {name:<14} {title(page)}")
        return
    click.echo_via_pager(find_page(topic).read_text(encoding="utf-8").rstrip("\n"))  # the pager ends the line


def title(page: Traversable) -> str:
    """A page's first heading, without its #s."""
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            return line.lstrip("#").strip()
    return page.name


__all__ = ["docs_command", "find_page", "page_topic", "pages", "pointer"]
