"""A 40K step in one line, in the game's words (``Game.step_line``): "Initiative 4: Tactical Marine ×10 → Ork Boy:
11 hits, 7 wounds, 3 saved: 4 Ork Boy slain". What a line leaves out (every die, who strikes with what, which
models die and why) is one tap away on Discord and in the full log."""

from __future__ import annotations

from rules_core import compact
from rules_core.report import Roll, Step

# Steps made only of these, with no dice, are left out of the list: the summary above it says them (who won and on
# how many wounds; a charge that reached, over the distance the player gave, its +1 attack shown in each strike).
SAID_ABOVE = frozenset({"result", "charge", "charged"})
GRENADES = {"frag": "frag grenades: simultaneous", "plasma": "plasma grenades: Initiative order"}


def _counted(roll: Roll) -> str | None:
    """A strike's roll in the game's words: "11 hits", "7 wounds", "3 saved"; None for any other roll."""
    purpose = roll.purpose.lower()
    if purpose.startswith("to hit"):
        return compact.plural(roll.successes, "hit")
    if purpose.startswith("to wound"):
        return compact.plural(roll.successes, "wound")
    if purpose.endswith("save"):
        return f"{roll.successes} saved"
    return None


def _strike(step: Step) -> str:
    parts = []
    for roll in step.rolls:
        parts.append(_counted(roll) or compact.roll_brief(roll))
    for ev in step.events:
        if ev.kind == "no_save":
            parts.append("no save")
    slain = compact.casualties(step, "slain")
    target = step.title.rsplit(" → ", 1)[-1]
    if len(slain) == 1 and slain[0].endswith(f" {target} slain"):  # the title names whom they strike
        slain = [slain[0].replace(f" {target} slain", " slain")]
    body = ", ".join(parts)
    if slain:
        return f"{body}: {', '.join(slain)}"
    unsaved = sum(int(ev.get("unsaved") or 0) for ev in step.events if ev.kind == "wounds")
    return f"{body}: {compact.plural(unsaved, 'unsaved wound')}" if unsaved else body


def _order(step: Step) -> str:
    order = next((ev for ev in step.events if ev.kind == "strike_order"), None)
    if order is None or not order.get("order"):
        noted = compact.first_note(step, compact.LEADING | {"fighting"})
        return compact.clause(str(noted.get("note"))) if noted is not None else ""
    covers = []
    for ev in step.events:
        if ev.kind == "cover":
            used = GRENADES.get(str(ev.get("grenades")))
            covers.append(f"{ev.get('unit')} in cover" + (f", {used}" if used else ""))
    return f"{order.get('order')}" + (f" ({'; '.join(covers)})" if covers else "")


def _aftermath(step: Step) -> str | None:
    """A fall back or a sweeping advance in a few words, or None for any other step."""
    for ev in step.events:
        if ev.kind == "fall_back" and ev.get("distance") is not None:
            return ""  # the summary's Move line gives the distance (and the sweeping advance's line the roll)
        if ev.kind == "sweeping_advance" and ev.get("roll") is not None and ev.get("fall_back") is not None:
            caught = "caught" if ev.get("success") else "they get away"
            return f"{ev.get('roll')} against {ev.get('fall_back')}: {caught}"
    return None


def step_line(step: Step) -> str:
    if not step.rolls and step.events and all(ev.kind in SAID_ABOVE for ev in step.events):
        return ""  # the summary says it: who won and on how many wounds; a charge that reached as given
    if any(roll.purpose.lower().startswith(("to hit", "to wound")) for roll in step.rolls):
        return compact.join(step.title, _strike(step))
    aftermath = _aftermath(step)
    if aftermath is not None:
        return compact.join(step.title, aftermath) if aftermath else ""
    if any(ev.kind == "strike_order" for ev in step.events):
        return compact.join("Strike order", _order(step))  # who fights whom: the summary and the rolls say it
    return compact.step_line(step)
