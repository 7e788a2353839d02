"""After the rounds: a model breaking off escapes, and who follows up or fights on next phase."""

from __future__ import annotations

from rules_core.games.duel.state import BREAK_OFF_DISTANCE, Fighter, Phase
from rules_core.report import Event, Step, event
from rules_core.rolling import roll_unchecked
from rules_core.table import join_words


def escapes_step(phase: Phase) -> None:
    for fighter in (*phase.attackers, *phase.defenders):
        if not (fighter.breaking_off and fighter.alive and fighter.opponents):
            continue
        killed_all = killed_all_its_opponents(fighter)
        if killed_all and phase.options.get("breaking_off_kill") == "follow_up":
            continue  # nothing left to escape from (decision 10's other reading): it follows up instead
        roll = roll_unchecked(phase.dice, 'break-off move (2D6")', 2, kind=BREAK_OFF_DISTANCE, side=fighter.side)
        fighter.escaped_inches = inches = sum(roll.dice)
        if killed_all:
            fallen = join_words(o.label for o in fighter.opponents)
            away = f"where {fallen} fell"
            how = (
                f"{fighter.label} survives, and it has slain {fallen}: the escape it declared stands, so it makes "
                f'no Follow-Up Move and moves {inches}" directly away from {away}.'
            )
        else:
            away = "its attacker"
            how = f'{fighter.label} survives and breaks off: it moves {inches}" directly away from {away}.'
        note = f"{how} It and its squad are automatically Broken and may not try to Rally until the following turn."
        phase.steps.append(
            Step(
                f"{fighter.label} breaks off",
                (roll,),
                (
                    event(
                        "broke_off",
                        side=fighter.side_name,
                        model=fighter.label,
                        inches=fighter.escaped_inches,
                        away_from=away,
                        note=note,
                    ),
                ),
            )
        )


def killed_all_its_opponents(fighter: Fighter) -> bool:
    """The text's "has killed all of its Hand-to-Hand Combat opponents": it fought, and its hits slew every one."""
    return bool(fighter.opponents) and all(o.slain_by is fighter for o in fighter.opponents)


def what_next_step(phase: Phase, lone: Fighter) -> None:
    notes: list[Event] = []
    for fighter in (*phase.attackers, *phase.defenders):
        if not fighter.alive or fighter.escaped_inches is not None:
            continue
        if not fighter.opponents:
            if not lone.alive:
                notes.append(
                    event(
                        "instruction",
                        model=fighter.label,
                        note=f"{fighter.label} did not fight: {lone.label} was slain before its round. It has "
                        "no opponent left and is no longer in hand-to-hand combat; it killed no one, so it makes no "
                        "Follow-Up Move.",
                    )
                )
            continue
        standing = [o for o in fighter.opponents if o.alive and o.escaped_inches is None]
        if standing:
            if fighter is not lone and lone in standing:
                continue  # said once, from the lone model's side
            others = ", ".join(o.label for o in standing)
            notes.append(
                event(
                    "instruction",
                    model=fighter.label,
                    note=f"{fighter.label} and {others} are still locked in combat: they fight again in the "
                    "next Hand-to-Hand phase.",
                )
            )
        elif killed_all_its_opponents(fighter):
            stays = (
                " It declared breaking off, but with no opponent left it has nothing left to escape from: it does "
                "not move away and is not Broken."
                if fighter.breaking_off
                else ""
            )
            notes.append(
                event(
                    "follow_up",
                    model=fighter.label,
                    note=f"{fighter.label} has killed all its opponents: it may make a Follow-Up Move of up to "
                    '2" in any direction, with no movement penalties. It may engage another model, without the '
                    f"charge bonus; if it ends unengaged it may move and shoot normally next turn.{stays}",
                )
            )
        elif all(not o.alive for o in fighter.opponents):
            notes.append(
                event(
                    "instruction",
                    model=fighter.label,
                    note=f"{fighter.label}'s {_slain_by_others(fighter)}: it is no longer in hand-to-hand combat. "
                    "It makes no Follow-Up Move: only a model that has killed all its opponents does.",
                )
            )
        else:
            notes.append(
                event(
                    "instruction",
                    model=fighter.label,
                    note=f"{fighter.label}'s opponent broke off: it is no longer in hand-to-hand combat.",
                )
            )
    if notes:
        phase.steps.append(Step("What happens next", (), tuple(notes)))


def _slain_by_others(fighter: Fighter) -> str:
    """ "opponent, Lone, was slain by Foe 2": whom a model fought, and who slew them (a friend, not it)."""
    fallen = [o for o in fighter.opponents if o.slain_by is not fighter]
    killers = ", ".join(dict.fromkeys(o.slain_by.label for o in fallen if o.slain_by is not None))
    names = ", ".join(o.label for o in fallen)
    if len(fighter.opponents) == 1:
        return f"opponent, {names}, was slain by {killers}"
    return f"opponents were slain, {names} by {killers}"
