"""The summary at table level, shared by every renderer: who won, by unit name and (in Discord) player, then what
each side removes, the moves with their distances and what comes next. Game-agnostic: each game's outcome words are
its own (``Game.outcome_words``), and so is what its players do at the table (``Game.table_summary``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from bot.server_settings.model import house_rules_line
from rules_core.errors import RefereeError
from rules_core.registry import Game, OutcomeWords, games_named
from rules_core.report import Report, SideName
from rules_core.spec import side_summary
from rules_core.table import TableSummary, default_table_summary, join_words, reads_plural, side_name, unit_names

READ_LINE = 160  # characters of one "Read ..." line: it is read on phones


def read_lines(report: Report) -> list[str]:
    """How the referee read each side, one short line each, so a misread count is visible at once.

    ``Read attacker: 9× Tactical Marine, 1× Sergeant | 1× Librarian``: the counts and names of the groups as read
    from the canonical inputs (groups of a unit by ',', units by '|'); a long line is cut between units.
    """
    return [
        f"Read {name}: {_side_read(text)}"
        for name, text in (("attacker", report.inputs.attacker), ("defender", report.inputs.defender))
    ]


def _side_read(text: str) -> str:
    try:
        summary = side_summary(text)
    except RefereeError:
        # A record stored under an older spec grammar may not re-read: its inputs are still shown in full.
        return "as recorded (see the inputs)"
    return cut_read(summary, READ_LINE)


def cut_read(summary: str, limit: int) -> str:
    """A side's read line (``side_summary``) at most ``limit`` characters long: cut between units, never inside a
    name or a count, saying how many units are not shown."""
    if len(summary) <= limit:
        return summary
    units = summary.split(" | ")
    shown: list[str] = []
    for unit in units:
        more = f" | … (+{len(units) - len(shown)} more units)"
        if len(" | ".join([*shown, unit])) + len(more) > limit:
            break
        shown.append(unit)
    if not shown:  # one unit too long on its own: cut it at a group
        return summary[: limit - 1].rsplit(", ", 1)[0] + ", …"
    return " | ".join(shown) + f" | … (+{len(units) - len(shown)} more units)"


Players = tuple[str | None, str | None]  # the attacker's and the defender's player, as the front end writes them


def _game(game_id: str) -> Game | None:
    """The game a report names (None for a game this install does not know)."""
    found = games_named(game_id)
    return found[0] if len(found) == 1 else None


def result_title(report: Report) -> str:
    """A result's title in any front end, one line on a phone: ``40K assault: held`` (the game's short name, and
    what followed); a game this install does not know is named by its id."""
    game = _game(report.game)
    return f"{game.heading if game is not None else report.game}: {report.result.outcome.replace('_', ' ')}"


def _words(game_id: str) -> OutcomeWords:
    """The outcome words of the game a report names (none for a game this install does not know)."""
    game = _game(game_id)
    return game.outcome_words if game is not None else OutcomeWords()


def table_summary(report: Report) -> TableSummary:
    """What the players do at the table (the game's ``table_summary`` hook; the default reading for a game this
    install does not know)."""
    game = _game(report.game)
    return game.table_summary(report) if game is not None else default_table_summary(report)


def _identity(text: str) -> str:
    return text


def _mirrored(report: Report) -> bool:
    """Whether both sides go by the same name (a mirror match): each is then told apart by its role."""
    return side_name(report, "attacker") == side_name(report, "defender")


def named(report: Report, side: str, players: Players | None = None, escape: Callable[[str], str] = _identity) -> str:
    """A side by its units and, in Discord, its player: "Tactical Marine (<@1>)"; the terminal has no players (a
    mirror match adds the role: "Tactical Marine (attacker)")."""
    name = escape(side_name(report, side))
    player = None if players is None else players[0 if side == "attacker" else 1]
    if player:
        return f"{name} ({side}, {player})" if _mirrored(report) else f"{name} ({player})"
    return f"{name} ({side})" if _mirrored(report) else name


_PLURAL_VERBS = {"was": "were", "is": "are", "has": "have", "its": "their"}


def _agreeing(subject: str, words: str) -> str:
    """A game's words about a side (``was destroyed``, ``held its ground``) in agreement with the side's name:
    "Grenadiers were destroyed", "Ork Boyz are Broken and must withdraw"."""
    if not reads_plural(subject):
        return words
    return " ".join(_PLURAL_VERBS.get(word, word) for word in words.split(" "))


def _subject(report: Report, side: str) -> str:
    """A side named again after the headline named it: its units, or "the loser"/"the winner" for three or more."""
    text = report.inputs.attacker if side == "attacker" else report.inputs.defender
    if len(unit_names(text)) > 2:  # the headline shortened its name ("Marine 1 and 3 more units")
        return "the winner" if side == str(report.result.winner) else "the loser"
    return f"the {side}'s {side_name(report, side)}" if _mirrored(report) else side_name(report, side)


def _line_name(report: Report, side: str, parts: str = "") -> str:
    """A side at the head of its table line: its unit, or "Attacker (4 units)" ("(2 formations)": ``parts``)."""
    text = report.inputs.attacker if side == "attacker" else report.inputs.defender
    count = len(unit_names(text))
    if count > 1:
        return f"{side.capitalize()} ({count} {parts or 'units'})"
    return f"{side_name(report, side)} ({side})" if _mirrored(report) else side_name(report, side)


def _no_combat_headline(report: Report) -> str:
    """A game's own headline for a result with no combat fought here, given by an event's ``headline`` field (40K:
    a unit's charge into a combat going on failed, while the others fight on); empty when none says one."""
    for step in report.steps:
        for ev in step.events:
            if ev.get("headline"):
                return str(ev.get("headline"))
    return ""


def headline(report: Report, players: Players | None = None, escape: Callable[[str], str] = _identity) -> str:
    """Who won, by unit name and player: "Tactical Marine (<@1>) beats Ork Boy (<@2>) on wounds (8 to 3); Ork Boy
    fell back". ``escape`` is applied to the words, never to the players' mentions."""
    result = report.result
    outcome = str(result.outcome)
    words = _words(report.game)
    attacker, defender = named(report, "attacker", players, escape), named(report, "defender", players, escape)
    if result.winner == "none":
        failed = _no_combat_headline(report)  # a charge joining a combat going on failed: the combat goes on
        if failed:
            return f"{escape(failed)} ({attacker} against {defender})"
        return f"No combat between {attacker} and {defender}: " + escape(
            words.loser_fates.get(outcome, outcome.replace("_", " "))
        )
    if result.winner == "draw":
        drawn = words.drawn.get(outcome, "Draw: the combat continues next turn")
        head, colon, rest = drawn.partition(": ")
        if colon and head == "Draw":
            return f"Draw between {attacker} and {defender}: {escape(rest)}"
        return f"{escape(drawn)} ({attacker} against {defender})"
    winner = str(result.winner)
    loser = "defender" if winner == "attacker" else "attacker"
    verb = "beat" if reads_plural(side_name(report, winner)) else "beats"
    beats = f"{named(report, winner, players, escape)} {verb} {named(report, loser, players, escape)}"
    whole = words.decided.get((outcome, winner))
    if whole is not None:
        return f"{beats}: {escape(whole[:1].lower() + whole[1:])}"
    won, lost = (result.attacker, result.defender) if winner == "attacker" else (result.defender, result.attacker)
    fate = words.loser_fates.get(outcome, outcome.replace("_", " "))
    if outcome in words.models_lost:
        fate = f"lost {lost.lost} model{'s' if lost.lost != 1 else ''}" if lost.lost else "lost no model"
    if lost.remaining == 0 and lost.lost > 0 and (outcome in words.models_lost or outcome not in words.loser_fates):
        fate = f"is wiped out (all {lost.lost} slain)" if lost.lost > 1 else "is wiped out"
    line = beats
    inflicted, taken = won.extra.get("wounds_inflicted"), lost.extra.get("wounds_inflicted")
    if outcome in words.on_wounds and inflicted is not None:
        line += f" on wounds ({inflicted} to {taken})"
    several = len(unit_names(report.inputs.attacker if loser == "attacker" else report.inputs.defender)) > 1
    fates = table_summary(report).fates if several else ()
    if fates:  # the loser's units met different fates: each is said for its own units
        line += "; " + ", ".join(
            f"{escape(units)} {escape(_agreeing(units, words.loser_fates.get(each, each.replace('_', ' '))))}"
            for each, units in _by_fate(fates)
        )
    else:
        line += f"; {escape(_subject(report, loser))} {escape(_agreeing(_subject(report, loser), fate))}"
    if outcome in words.models_lost and not lost.lost and won.lost and won.remaining:
        # Decided on wounds: the models slain were the winner's ("Marine lost no model, though Ork lost 1").
        line += f", though {escape(_subject(report, winner))} lost {won.lost}"
    if won.remaining == 0:
        # The duel decides on wounds, so a winner can fall too: never leave the reader thinking it stands.
        subject = _subject(report, winner)
        line += f", and {escape(subject)} {_agreeing(subject, 'has')} no model left either"
    return line


def _by_fate(fates: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """The losing units grouped by fate, in the order each fate first comes: [("held", "Ork and Nob"), ...]."""
    grouped: dict[str, list[str]] = {}
    for unit, fate in fates:
        grouped.setdefault(fate, []).append(unit)
    return [(fate, join_words(units)) for fate, units in grouped.items()]


def table_lines(report: Report, escape: Callable[[str], str] = _identity) -> list[str]:
    """What to do at the table, a few short lines: each side's removals (and what it has left, with the game's own
    tallied keys), every move once with its distance, and what comes next."""
    table = table_summary(report)
    words = _words(report.game)
    game = _game(report.game)
    noun = game.losses_count if game is not None else "models"
    lines = []
    for side in ("attacker", "defender"):
        result = report.result.side(SideName(side))
        removal = table.removal(side)
        todo = removal if removal.startswith("mark ") else f"remove {removal}" if removal else "nothing to remove"
        text = f"{_line_name(report, side, table.parts)}: {todo}"
        one, many = table.left if table.left[0] else (noun.removesuffix("s"), noun)
        left = (
            "wiped out"
            if table.is_destroyed(side)
            else f"{result.remaining} {one if result.remaining == 1 else many} left"
        )
        if table.fates and side != report.result.winner:  # each losing unit's own fate, when they differ
            left += " (" + ", ".join(f"{units} {fate.replace('_', ' ')}" for fate, units in _by_fate(table.fates)) + ")"
        extras = [shown for tallied in words.tallied if (shown := tallied.text(result.extra.get(tallied.key)))]
        lines.append(escape(f"{text}; {', '.join([left, *extras])}{table.added[0 if side == 'attacker' else 1]}"))
    lines += [escape(note) for note in table.notes]
    if table.moves:
        lines.append(escape("Move: " + "; ".join(table.moves) + "."))
    if table.next_step:
        lines.append(escape("Next: " + table.next_step))
    return lines


def summary_lines(report: Report, players: Players | None = None) -> list[str]:
    """The whole plain-text summary (the terminal's panel): who won, then what to do at the table."""
    return [headline(report, players), *table_lines(report)]


def house_rules_text(options: Mapping[str, Any], names: Iterable[str]) -> str:
    """The summary's line naming the house rules a result used, with the values it used (the report's options, so
    a replay says what applied then, whatever the server's settings are now): ``House rules: result dice: sum``;
    empty when none were used."""
    line = house_rules_line(options, names)
    return line[:1].upper() + line[1:]
