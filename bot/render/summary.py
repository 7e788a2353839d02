"""Game-agnostic words for a report's result, shared by every renderer (each game's outcome words are its own:
``Game.outcome_words``)."""

from __future__ import annotations

from rules_core.errors import RefereeError
from rules_core.registry import OutcomeWords, games_named
from rules_core.report import Report
from rules_core.spec import side_summary

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
    if len(summary) <= READ_LINE:
        return summary
    # Cut between units, never inside a name or a count, and say how many units are not shown.
    units = summary.split(" | ")
    shown: list[str] = []
    for unit in units:
        more = f" | … (+{len(units) - len(shown)} more units)"
        if len(" | ".join([*shown, unit])) + len(more) > READ_LINE:
            break
        shown.append(unit)
    if not shown:  # one unit too long on its own: cut it at a group
        return summary[: READ_LINE - 1].rsplit(", ", 1)[0] + ", …"
    return " | ".join(shown) + f" | … (+{len(units) - len(shown)} more units)"


def _words(game_id: str) -> OutcomeWords:
    """The outcome words of the game a report names (none for a game this install does not know)."""
    found = games_named(game_id)
    return found[0].outcome_words if len(found) == 1 else OutcomeWords()


def headline(report: Report) -> str:
    result = report.result
    outcome = str(result.outcome)
    words = _words(report.game)
    if result.winner == "none":
        return "No combat: " + outcome.replace("_", " ")
    if result.winner == "draw":
        return words.drawn.get(outcome, "Draw: the combat continues next turn")
    whole = words.decided.get((outcome, str(result.winner)))
    if whole is not None:
        return whole
    loser = "defender" if result.winner == "attacker" else "attacker"
    won, lost = (
        (result.attacker, result.defender) if result.winner == "attacker" else (result.defender, result.attacker)
    )
    fate = words.loser_fates.get(outcome, outcome.replace("_", " "))
    if outcome in words.models_lost:
        fate = f"lost {lost.lost} model{'s' if lost.lost != 1 else ''}"
    line = f"The {result.winner} wins"
    inflicted, taken = won.extra.get("wounds_inflicted"), lost.extra.get("wounds_inflicted")
    if outcome in words.on_wounds and inflicted is not None:
        line += f" on wounds ({inflicted} to {taken})"
    line += f"; the {loser} {fate}"
    if won.remaining == 0:
        # The duel decides on wounds, so a winner can fall too: never leave the reader thinking it stands.
        line += f", and the {result.winner} has no model left either"
    return line


def tally(report: Report) -> str:
    words = _words(report.game)
    parts = []
    for name in ("attacker", "defender"):
        side = report.result.attacker if name == "attacker" else report.result.defender
        part = f"{name}: lost {side.lost}, {side.remaining} remaining"
        for tallied in words.tallied:  # the game's own result keys (wounds inflicted, Blast markers...)
            shown = tallied.text(side.extra.get(tallied.key))
            if shown:
                part += f", {shown}"
        parts.append(part)
    return "; ".join(parts)
