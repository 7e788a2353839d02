"""The league's limits and input checks: names, results, free text, combat ids, points and the confirmation window.

Each check returns the cleaned value or raises :class:`LeagueError` naming what is wrong and showing an example
(options set to values, which each front end writes its own way).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from bot.ids import id_value, looks_like_a_number, why_not_an_id
from bot.leagues.errors import LeagueError
from bot.leagues.model import Agreement
from bot.leagues.standings import RESULTS, Points
from rules_core.errors import Do, Example, Hint, Mention, Part, RefereeError, example
from rules_core.registry import all_games, get_game

NAME_MAX = 50
NOTES_MAX = 500
SCORE_MAX = 30
REASON_MAX = 300
COMBATS_MAX = 10
CONFIRM_HOURS = (1, 720)  # an hour to 30 days
POINTS_MAX = 100
_NAME = re.compile(r"^[\w][\w '\-.&]*$")


def create_example() -> Example:
    """A league created with a name and the first game."""
    return example(name="Autumn Crusade", game=all_games()[0].id, do=Do.CREATE_LEAGUE)


def check_name(name: str) -> str:
    cleaned = " ".join(name.split())
    if not 1 <= len(cleaned) <= NAME_MAX or not _NAME.match(cleaned) or cleaned.isdigit():
        raise LeagueError(
            f"A league name has 1 to {NAME_MAX} letters, digits, spaces and - ' . & (not only digits): "
            f"{name[:60]!r} is not one.",
            example=create_example(),
        )
    return cleaned


def check_result(result: str) -> str:
    if result not in RESULTS:
        raise LeagueError(f"The result is win, draw or loss (yours), not {result!r}.", example=example(result="win"))
    return result


def check_text(value: str | None, limit: int, what: str, correct: Example) -> str | None:
    """``value`` stripped, or ``None`` when not given; at most ``limit`` characters."""
    if value is None:
        return None
    cleaned = value.strip()
    if len(cleaned) > limit:
        raise LeagueError(f"The {what} is {len(cleaned)} characters; at most {limit}.", example=correct)
    return cleaned


def check_reason(reason: str, correct: Example, *, required: str | None = None) -> str:
    """A reason for a change, stripped (empty when none was given, unless ``required`` says why one is needed)."""
    why = check_text(reason, REASON_MAX, "reason", correct) or ""
    if required is not None and not why:
        raise LeagueError(required, example=correct)
    return why


def check_score(score: str | None) -> str | None:
    return check_text(score, SCORE_MAX, "score", example(score="3-1"))


def check_notes(notes: str, correct: Example) -> str:
    return check_text(notes, NOTES_MAX, "note", correct) or ""


def league_id(reference: str) -> int | None:
    """The id a league reference gives ("7" of "#7"), None for a name; a number that is no id (Unicode digits, a
    sign, 0) is refused with what to type (league names are never digits alone: ``check_name``). One too large for
    any id is not found, as any id no league has."""
    if not looks_like_a_number(reference):
        return None
    if (problem := why_not_an_id(reference)) is not None:
        raise LeagueError(  # the option is a flag in Discord and an argument in the terminal: no example of either
            f"A league is given by its id, such as 1 or #1, or by its name, such as Autumn Crusade: {problem}.",
            hint=Hint(Do.LIST_LEAGUES),
        )
    return id_value(reference)


def parse_combats(text: str | Sequence[int] | None) -> tuple[int, ...]:
    """Combat record ids from "12, 15" (or #12 #15), distinct, at most COMBATS_MAX."""
    if text is None:
        return ()
    if isinstance(text, str):
        parts = [part for part in re.split(r"[\s,;]+", text.strip()) if part]
        ids: list[int] = []
        for part in parts:
            digits = part.lstrip("#")
            if (problem := why_not_an_id(digits)) is not None:
                raise LeagueError(
                    f"Combats are record ids (in each result's footer): {problem}.", example=example(combats="12, 15")
                )
            ids.append(id_value(digits))
    else:
        ids = [int(value) for value in text]
    unique = tuple(dict.fromkeys(ids))
    if len(unique) > COMBATS_MAX:
        raise LeagueError(
            f"At most {COMBATS_MAX} combats per match, not {len(unique)}.", example=example(combats="12, 15")
        )
    return unique


def check_points(points: Points) -> Points:
    values = (points.win, points.draw, points.loss)
    if not all(0 <= value <= POINTS_MAX for value in values) or not points.win >= points.draw >= points.loss:
        raise LeagueError(
            f"Points are whole numbers from 0 to {POINTS_MAX}, win >= draw >= loss; not {values}.",
            example=example(win=3, draw=1, loss=0),
        )
    return points


def check_confirm_hours(hours: int) -> int:
    low, high = CONFIRM_HOURS
    if not low <= hours <= high:
        raise LeagueError(
            f"Auto-confirmation comes after {low} to {high} hours, not {hours}.", example=example(confirm_hours=72)
        )
    return hours


def check_combats_free(combats: tuple[int, ...], found: set[int], used: Sequence[tuple[int, str]]) -> None:
    """Every combat is a stored record (``found``) and counts for no other live match (``used``: id, "12,15")."""
    missing = [c for c in combats if c not in found]
    if missing:
        raise LeagueError(
            f"There is no combat record #{missing[0]}. The record id is in each result's footer.",
            example=example(combats="12, 15"),
        )
    for match_id, listed in used:
        taken = set(combats) & {int(c) for c in listed.split(",")}
        if taken:
            raise LeagueError(
                f"Combat #{min(taken)} already counts for match #{match_id}: a combat belongs to one match."
            )


def _ids(combats: Sequence[int]) -> str:
    return ", ".join(f"#{c}" for c in combats)


def check_agreed(
    combats: Sequence[int], agreements: Mapping[int, Agreement], players: tuple[str, str], *, game: str,
    required: bool,
) -> None:  # fmt: skip
    """In a league that requires agreed combats, every combat a match lists was agreed (``agreements``: the
    listed records that carry an agreement), its dice still hold to the commitment made before they were rolled,
    it was accepted on Discord, and it was agreed between the match's two ``players``, either way round.

    Only Discord's acceptances count (:attr:`Agreement.counts`): there the opponent presses Accept themself, while
    ``referee accept`` in the terminal is run by whoever holds the challenge file and the database, so a terminal
    agreement proves the seed was fixed in advance but not that the opponent agreed, which is what such a league
    asks for.

    A match that lists no combats passes: the requirement is about the dice a report cites, not a demand that every
    game be fought through the referee. A game played at a table with physical dice has no combat to list, and the
    opponent's confirmation (or dispute) is already their agreement to its result; what an agreed combat adds is
    that neither player chose the dice or the sides cited as evidence alone. So a league cannot be fooled by a
    combat one player rolled by themself, and nobody is barred from reporting a game fought without the bot.
    """
    if not required or not combats:
        return
    hint = Hint(Do.FIGHT_AGREED, game)
    missing = [c for c in combats if c not in agreements]
    if missing:
        verb = "was" if len(missing) == 1 else "were"
        raise LeagueError(
            f"This league counts only combats both players agreed to: {_ids(missing)} {verb} not agreed, so "
            "the match was not recorded.",
            hint=hint,
        )
    broken = [c for c in combats if not agreements[c].holds]
    if broken:
        raise LeagueError(
            f"This league counts only combats both players agreed to: the dice of {_ids(broken)} no longer match "
            "the commitment made before they were rolled (the record was altered), so they do not count as agreed "
            "and the match was not recorded.",
            hint=hint,
        )
    elsewhere = [c for c in combats if not agreements[c].counts]
    if elsewhere:
        raise LeagueError(
            f"This league counts only combats both players agreed to on Discord: {_ids(elsewhere)} "
            f"{'was' if len(elsewhere) == 1 else 'were'} accepted in the terminal, where whoever holds the challenge "
            "file accepts it, which does not show that the opponent agreed, so the match was not recorded.",
            hint=hint,
        )
    one, other = players
    for combat in combats:
        agreement = agreements[combat]
        if not agreement.between(one, other):
            parts: list[Part] = [f"This league counts only combats agreed between the match's two players: #{combat} "
                                 "was agreed between "]  # fmt: skip
            parts += [_who(agreement.challenger), " and ", _who(agreement.opponent), ", so the match was not recorded."]
            raise LeagueError(parts, hint=hint)


def _who(user: str | None) -> Part:
    return "nobody named" if user is None else Mention(user)


def check_game(game: str) -> str:
    """The registered id of a league's game."""
    try:
        return get_game(game).id
    except RefereeError as error:
        raise LeagueError(error.message, example=create_example()) from error


def check_opponent(reporter: str, opponent: str) -> None:
    if opponent == reporter:
        raise LeagueError(
            "You cannot report a game against yourself.", example=example(opponent="@Ann", do=Do.REPORT_MATCH)
        )


def check_two_players(player: str, opponent: str) -> None:
    if player == opponent:
        raise LeagueError(
            "A match needs two different players.", example=example(player="@Ann", opponent="@Bob", result="win")
        )


def check_open_season(league_name: str, season: int, *, is_open: bool) -> None:
    """Games are reported in an open season only."""
    if not is_open:
        raise LeagueError(f"Season {season} of {league_name} has ended.", hint=Hint(Do.START_SEASON))


def check_season(season: int, league_seasons: int, league_name: str) -> int:
    """A season number the league has had (1 to its current one)."""
    if not 1 <= season <= league_seasons:
        raise LeagueError(f"{league_name} has seasons 1 to {league_seasons}, not {season}.")
    return season


__all__ = [
    "COMBATS_MAX",
    "CONFIRM_HOURS",
    "NAME_MAX",
    "NOTES_MAX",
    "POINTS_MAX",
    "REASON_MAX",
    "SCORE_MAX",
    "check_agreed",
    "check_combats_free",
    "check_confirm_hours",
    "check_game",
    "check_name",
    "check_notes",
    "check_open_season",
    "check_opponent",
    "check_points",
    "check_reason",
    "check_result",
    "check_score",
    "check_season",
    "check_text",
    "check_two_players",
    "parse_combats",
]
