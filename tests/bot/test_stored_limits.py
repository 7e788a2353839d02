"""Stored means verifiable: a side given within the input limit (after @roster references are expanded) is resolved,
recorded and verified, whatever the length of the canonical form the report stores (it writes every default, so it
can be twice the input); the limit is the player's, never the stored form's."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.access import OPERATOR
from bot.data import catalogue
from bot.render.embeds import EMBED_TOTAL, HISTORY, history_lines, render_pages
from bot.rosters import check_roster, expand_all
from bot.storage import Store
from bot.storage.records import MAX_NOTE_CHARS, MAX_VOID_REASON_CHARS, RecordNote, StoredCombat
from bot.verification import Verdict, verify
from rules_core import LimitError, RefereeError, resolve
from rules_core.options import OptionType
from rules_core.registry import Game
from rules_core.spec import MAX_NAME_CHARS, MAX_SPEC_CHARS, group_head, split_groups, split_units
from tests.bot.test_cli import referee
from tests.bot.test_render_embeds import assert_within_limits

GAMES = [game.id for game in catalogue().games()]


def _groups(sides: tuple[str, ...]) -> Iterator[tuple[int, str]]:
    """The tokens of every group of these sides (what follows each group's colon), with one model and with the
    group's own count."""
    for side in sides:
        for unit in split_units(side):
            for group in split_groups(unit):
                tokens = " ".join(group.partition(":")[2].split())
                yield 1, tokens
                yield group_head(group)[0], tokens


def _parses(game: Game, text: str) -> bool:
    try:
        game.parse_side(text)
    except RefereeError:
        return False
    return True


def longest_side(game: Game, *, pad: bool, most_groups: int = 1_000, role: str = "") -> str:
    """A side of ``game`` as long as the limit lets a player write it, read as the most groups the limits allow,
    each with a one-letter name (the canonical form writes the defaults of each group), names then lengthened;
    with ``pad``, spaces then fill it to exactly the limit. ``role``: the groups of that side's example only."""
    examples = {"attacker": (game.example_attacker,), "defender": (game.example_defender,)}
    best, best_length = "", 0
    for count, tokens in dict.fromkeys(_groups(examples.get(role, (game.example_attacker, game.example_defender)))):
        for separator in (" | ", " ; "):
            # Groups named by numbers after an explicit count ("1x 7: ..."), as many as the limits allow.
            groups: list[str] = []
            while True:
                candidate = separator.join([*groups, f"{count}x {len(groups)}: {tokens}"])
                if len(groups) == most_groups or len(candidate) > MAX_SPEC_CHARS or not _parses(game, candidate):
                    break
                groups.append(f"{count}x {len(groups)}: {tokens}")
            side = separator.join(groups)
            length = len(game.format_side(game.parse_side(side))) if groups else 0
            if length > best_length:
                best, best_length = side, length
    assert best, f"no side of {game.id} parses"
    # Lengthen the names (each up to the name limit) until the side is at the limit.
    while len(best) < MAX_SPEC_CHARS:
        heads = [group.partition(":")[0] for unit in split_units(best) for group in split_groups(unit)]
        room = MAX_SPEC_CHARS - len(best)
        grown = next((head for head in heads if len(group_head(head + ":")[1]) < MAX_NAME_CHARS), None)
        if grown is None:
            break
        extra = min(room, MAX_NAME_CHARS - len(group_head(grown + ":")[1]))
        lengthened = best.replace(grown + ":", grown + "n" * extra + ":", 1)
        if not _parses(game, lengthened):
            break
        best = lengthened
    if pad:
        head, colon, rest = best.partition(":")
        best = head + colon + " " * (MAX_SPEC_CHARS - len(best)) + rest
        assert len(best) == MAX_SPEC_CHARS
    return best


def sides(game: Game, *, pad: bool) -> tuple[str, str]:
    """Two sides at the limit that can meet (in a duel, one of them is a lone model)."""
    attacker = longest_side(game, pad=pad, role="attacker")
    defender = longest_side(game, pad=pad, role="defender")
    try:
        resolve(game, attacker, defender, seed=1, **_options(game, attacker))
    except RefereeError:
        return attacker, longest_side(game, pad=pad, most_groups=1, role="defender")
    return attacker, defender


def _options(game: Game, side: str) -> dict[str, Any]:
    """The game's example options, and every text option (a supporting formation) at the limit too."""
    options: dict[str, Any] = dict(game.example_options)
    for spec in game.options:
        if spec.type is OptionType.TEXT:
            options[spec.name] = side
    return options


def _stored(report: Any, record_id: int = 1) -> StoredCombat:
    return StoredCombat(id=record_id, game=report.game, report=report, report_json=report.to_json(indent=None),
                        requested_by="local", opponent=None, guild_id=None, channel_id=None,
                        created_at=datetime(2026, 1, 1, tzinfo=UTC), history=())  # fmt: skip


@pytest.mark.parametrize("game_id", GAMES)
def test_a_side_at_the_input_limit_resolves_and_verifies(game_id: str) -> None:
    game = catalogue().game(game_id)
    attacker, defender = sides(game, pad=True)
    report = resolve(game, attacker, defender, seed=7, **_options(game, attacker))
    assert verify(_stored(report)).verdict is Verdict.IDENTICAL


def test_the_canonical_form_of_an_accepted_side_can_pass_the_input_limit() -> None:
    """What the tests above guard: in some games the stored form of a side within the limit is over it."""
    longer = {}
    for game in catalogue().games():
        side = longest_side(game, pad=False)
        longer[game.id] = len(game.format_side(game.parse_side(side)))
    assert longer["40k"] > MAX_SPEC_CHARS and longer["epic"] > MAX_SPEC_CHARS, longer


def test_the_limit_still_applies_to_what_the_player_gives() -> None:
    for game in catalogue().games():
        side = longest_side(game, pad=True) + " "
        with pytest.raises(LimitError, match=f"the limit is {MAX_SPEC_CHARS:,}|the limit is {MAX_SPEC_CHARS}"):
            resolve(game, side, game.example_defender, seed=1)


@pytest.mark.parametrize("game_id", GAMES)
async def test_rosters_expanded_to_the_limit_resolve_record_and_verify(game_id: str, tmp_path: Path) -> None:
    game = catalogue().game(game_id)
    attacker, defender = sides(game, pad=False)
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'rosters.db'}")
    try:
        await store.rosters.save("me", check_roster(game.id, "first", attacker))
        await store.rosters.save("me", check_roster(game.id, "second", defender))

        async def lookup(game_id: str, name: str) -> Any:
            return await store.rosters.get("me", game_id, name)

        references = {spec.name: "@second/1" for spec in game.options if spec.type is OptionType.TEXT}
        expanded = await expand_all(game, "@first", "@second", references, lookup)
        assert expanded[:2] == (attacker, defender)
        report = resolve(game, expanded[0], expanded[1], seed=11, **{**dict(game.example_options), **expanded[2]})
        record_id = await store.records.add(report, requested_by="me")
        stored = await store.records.get(record_id, actor=OPERATOR)
    finally:
        await store.close()
    assert verify(stored).verdict is Verdict.IDENTICAL


def test_referee_verify_passes_a_combat_recorded_at_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    game = catalogue().game("epic")
    side = longest_side(game, pad=True)
    code, _, err = referee("assault", "epic", "--attacker", side, "--defender", side, "--seed", "3", capsys=capsys)
    assert code == 0 and "Recorded as #1" in err
    code, out, err = referee("verify", "1", capsys=capsys)
    assert (code, err) == (0, "")
    assert "verified" in out


def test_a_combat_recorded_at_the_limit_goes_on_into_its_next_round(capsys: pytest.CaptureFixture[str]) -> None:
    """The next round is built from the stored canonical form (the survivors), which may be over the input limit."""
    game = catalogue().game("40k")
    attacker, defender = sides(game, pad=True)
    code, _, _ = referee("assault", "40k", "--attacker", attacker, "--defender", defender, "--charge-distance", "4",
                         "--seed", "0", "--json", capsys=capsys)  # fmt: skip
    assert code == 0
    code, _, err = referee("assault", "continue", "1", "--seed", "1", capsys=capsys)
    assert code == 0, err
    assert "Recorded as #2" in err
    assert referee("verify", "2", capsys=capsys)[0] == 0


def test_referee_void_is_once_and_a_long_note_is_refused_whole(capsys: pytest.CaptureFixture[str]) -> None:
    referee("duel", "--attacker", "A: WS4 S4 T4 W1 I4 A1 Sv3+", "--defender", "B: WS3 S3 T3 W1 I3 A1 Sv-", "--seed",
            "1", capsys=capsys)  # fmt: skip
    assert referee("void", "1", "--reason", "Wrong weapon entered.", capsys=capsys)[0] == 0
    code, out, err = referee("void", "1", "--reason", "Again.", capsys=capsys)
    assert (code, out) == (2, "")
    assert err.strip() == "error: Record #1 is already void (voided by local: 'Wrong weapon entered.')."
    code, out, err = referee("annotate", "1", "--note", "n" * (MAX_NOTE_CHARS + 1), capsys=capsys)
    assert (code, out) == (2, "")
    assert err.strip() == f"error: A note is {MAX_NOTE_CHARS + 1:,} characters long; the limit is {MAX_NOTE_CHARS:,}."
    assert referee("annotate", "1", "--note", "n" * MAX_NOTE_CHARS, capsys=capsys)[0] == 0
    _, out, _ = referee("replay", "1", capsys=capsys)
    flat = " ".join(out.split())
    assert flat.count("VOIDED by local") == 1 and "Again." not in flat
    assert "n" * MAX_NOTE_CHARS in out.replace("\n", "")


def test_page_one_is_sized_with_the_records_void_and_notes() -> None:
    game = catalogue().game("40k")
    attacker, defender = sides(game, pad=True)
    report = resolve(game, attacker, defender, seed=0, charge_distance=4)
    at = datetime(2026, 1, 1, tzinfo=UTC)
    history = [RecordNote("note", "local", "n" * MAX_NOTE_CHARS, at) for _ in range(5)]
    history.insert(2, RecordNote("void", "123456789012345678", "v_" * (MAX_VOID_REASON_CHARS // 2), at))
    bare = render_pages(report, record_id=1)
    pages = render_pages(report, record_id=1, history=history_lines(history))
    # Page 1 is nearly full: its history (capped at HISTORY characters) would overflow it if nothing moved.
    assert len(bare[0]) + min(len(history_lines(history)), HISTORY) > EMBED_TOTAL
    assert_within_limits(pages)
    opening = (pages[0].description or "").split("\n")
    assert opening[0].startswith("**VOID** by <@123456789012345678> <t:1767225600:R>: v\\_v\\_")
    assert opening[1].startswith("Note by local")
