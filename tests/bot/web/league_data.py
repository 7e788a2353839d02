"""A small league for the league pages' tests, made through the store as the bot makes one: an organiser (a
server manager) creates it, four players join, results are entered and reported; the server opts in to the web."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

from bot.access import Actor
from bot.server_settings.model import SERVER, WEB
from bot.storage import Store

GUILD, OTHER_GUILD = "700000000000000001", "700000000000000002"
ORGANISER = "800000000000000009"
ANN, BOB, CID, DEE = "800000000000000001", "800000000000000002", "800000000000000003", "800000000000000004"
START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Seeded:
    league: int
    guild: str


def actor(user: str, guild: str = GUILD, *, manager: bool = False) -> Actor:
    return Actor(user, guild=guild, manager=manager)


async def opt_in(store: Store, guild: str = GUILD, value: str = "public") -> None:
    await store.settings.set(SERVER, guild, guild, WEB, value, ORGANISER)


async def seed_league(store: Store, *, guild: str = GUILD, public: bool = True, name: str = "Autumn Crusade") -> Seeded:
    """Ann beats Bob, Cid draws with Dee, Ann beats Cid (entered: confirmed); Bob reports a win over Dee (pending);
    names cached for Ann and Bob only (Cid and Dee are shown as "a player")."""
    boss = actor(ORGANISER, guild, manager=True)
    league = await store.leagues.create(guild, name, "40k", actor=boss, at=START)
    for index, player in enumerate((ANN, BOB, CID, DEE)):
        await store.leagues.join(league.id, actor=actor(player, guild), at=START + timedelta(minutes=index))
    games = [(ANN, BOB, "win", "3-1"), (CID, DEE, "draw", None), (ANN, CID, "win", None)]
    for hours, (player, opponent, result, score) in enumerate(games, start=1):
        await store.matches.enter(league.id, actor=boss, player=player, opponent=opponent, result=result,
                                  score=score, at=START + timedelta(hours=hours))  # fmt: skip
    await store.matches.report(league.id, actor=actor(BOB, guild), opponent=DEE, result="win",
                               at=START + timedelta(hours=5))  # fmt: skip
    await store.leagues.remember_names(guild, {ANN: "Ann the Bold", BOB: "Bob"}, at=START)
    if public:
        await opt_in(store, guild)
    return Seeded(league.id, guild)


class _Cells(HTMLParser):
    """The body rows of the tables with one class: each row's cells' text."""

    def __init__(self, table_class: str) -> None:
        super().__init__()
        self.table_class = table_class
        self.inside = self.in_body = False
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.inside = self.table_class in (dict(attrs).get("class") or "").split()
        elif self.inside and tag == "tbody":
            self.in_body = True
        elif self.inside and self.in_body and tag == "tr":
            self.rows.append([])
        elif self.inside and self.in_body and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = self.in_body = False
        elif tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def table_rows(page: str, table_class: str) -> list[list[str]]:
    """The text of each body row of the page's ``table.<table_class>``."""
    parser = _Cells(table_class)
    parser.feed(page)
    return parser.rows


__all__ = ["ANN", "BOB", "CID", "DEE", "GUILD", "ORGANISER", "OTHER_GUILD", "START", "Seeded", "actor", "opt_in",
           "seed_league", "table_rows"]  # fmt: skip
