"""Who charged this turn and who is in cover, per unit (decision 21): the ``charged``, ``not-charged`` and
``in-cover`` tokens, the command-wide options they refine, and the declarations they make impossible.

"+1 Charged: models ... who launched the close assault that turn"; "cover advantage applies only to models in
cover that are being charged". By default every attacking unit charges in round 1 and none in a later round, and
``defender_in_cover`` puts every defending unit in cover; a unit's own token says otherwise for that unit, so a
later round can say which units join the combat going on (``charged``) and which defenders they find in cover.
"""

from __future__ import annotations

from rules_core.errors import IllegalDeclarationError, OptionName, example
from rules_core.games.wh40k.spec import CHARGED, IN_COVER, NOT_CHARGED
from rules_core.games.wh40k.state import Fight, UnitState
from rules_core.report import Event, SideName, Step, event

JOIN_EXAMPLE = "5x Assault Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+ charged"


def check_turn_facts(fight: Fight) -> None:
    """Refuse the tokens the text gives no meaning on their side, and a charge turn in which nobody charges."""
    for state in fight.units[SideName.DEFENDER]:
        if state.unit.charged:
            raise IllegalDeclarationError(
                f"{state.label} is a defending unit marked charged: only the side whose turn it is charges in its "
                "assault phase, so a defender never gets the +1 attack for charging. Leave charged out, or make "
                f"{state.label} the attacker.",
                token=CHARGED,
                example=JOIN_EXAMPLE + " (a unit joining the combat is an attacking unit)",
            )
    for state in fight.units[SideName.ATTACKER]:
        if state.unit.carries(IN_COVER):
            raise IllegalDeclarationError(
                f"{state.label} is an attacking unit marked in-cover: cover helps only models that are being "
                'charged ("of no benefit if the unit charges"), so an attacker never strikes first for it. Leave '
                "in-cover out, or put it on the defending unit in cover.",
                token=IN_COVER,
                example="12x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ in-cover",
            )
    attackers = fight.units[SideName.ATTACKER]
    if fight.round == 1 and all(state.unit.charged is False for state in attackers) and attackers:
        raise IllegalDeclarationError(
            [
                "Every attacking unit is marked not-charged, but round 1 is the charge turn: some unit launches "
                "the assault. A combat already going on is a later round (",
                OptionName("round"),
                " 2 or more); there, mark a unit joining it charged.",
            ],
            token=NOT_CHARGED,
            example=example(round=2),
        )


def settle(fight: Fight) -> None:
    """Once the charge is decided, before the fight: which attacking units charged, and which defending units
    strike first for cover (``unit_charged``, ``in_cover`` read these)."""
    fight.charges = {id(state): _charged(fight, state) for state in fight.units[SideName.ATTACKER]}
    everyone = bool(fight.options.get("defender_in_cover"))
    if fight.round > 1 and fight.options.get("cover_later_round") == "none":
        fight.covered = set()  # "after the first round ... swept into the cover": no advantage (the other reading)
        return
    fight.covered = {
        id(state)
        for state in fight.units[SideName.DEFENDER]
        if fight.charged
        and (everyone or state.unit.carries(IN_COVER))
        and any(fight.charges.get(id(enemy)) for enemy in fight.engaged_with(state))
    }


def _charged(fight: Fight, state: UnitState) -> bool:
    """An attacking unit whose charge went in: by default in round 1 only, or as its own token says."""
    if not fight.charged:
        return False
    own = state.unit.charged
    return fight.round == 1 if own is None else own


def unit_charged(fight: Fight, state: UnitState) -> bool:
    """Whether ``state``'s models in base contact get +1 attack for charging this turn (after ``settle``)."""
    return fight.charges.get(id(state), False)


def joining(fight: Fight) -> list[UnitState]:
    """A later round's attacking units marked charged: they join the combat going on this turn."""
    if fight.round == 1:
        return []
    return [state for state in fight.units[SideName.ATTACKER] if state.unit.charged]


def in_cover(fight: Fight, state: UnitState) -> bool:
    """Whether a defending unit strikes first for cover (after ``settle``): in cover (the option for every
    defending unit, or its own ``in-cover``) and being charged by a unit that charged this turn."""
    return id(state) in fight.covered


def named(states: list[UnitState]) -> str:
    """Units by their labels: 'Marine', 'Marine and Scout', 'Marine, Scout and Ork'."""
    labels = [state.label for state in states]
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def join_step(fight: Fight, joiners: list[UnitState], positions: Event) -> Step:
    """A later round that units join by charging: the combat goes on, and their charge is made this turn."""
    names = named(joiners)
    return Step(
        f"Round {fight.round}: the combat continues",
        events=(
            event(
                "continuing",
                round=fight.round,
                joining=[state.label for state in joiners],
                note=f"{names} charge{'s' if len(joiners) == 1 else ''} into the combat going on this turn: "
                "the charge below decides whether they reach it. The units already fighting have no charge bonus.",
            ),
            positions,
        ),
    )


def not_joined(fight: Fight) -> tuple[Event, ...]:
    """A later round whose joining charge failed: those units do not join, and the round is not fought here."""
    joiners = joining(fight)
    if not joiners:
        return ()
    names = named(joiners)
    one = len(joiners) == 1
    return (
        event(
            "not_joined",
            units=[state.label for state in joiners],
            headline=f"{names}'{'' if names.endswith('s') else 's'} charge fails: it does not reach the combat"
            if one
            else f"The charges of {names} fail: they do not reach the combat",
            note=f"{names} do{'es' if one else ''} not reach the combat: resolve this round again "
            "without them (the units already fighting fight on).",
        ),
    )


def charged_event(fight: Fight) -> Event:
    """The charge went in: which attacking units charged (every one, unless tokens say otherwise)."""
    attackers = fight.units[SideName.ATTACKER]
    chargers = [state for state in attackers if _charged(fight, state)]
    if len(chargers) == len(attackers):
        return event(
            "charged",
            side=SideName.ATTACKER.value,
            note="The attacker charged: its models in base contact get +1 attack this turn.",
        )
    others = [state for state in attackers if state not in chargers]
    return event(
        "charged",
        side=SideName.ATTACKER.value,
        units=[state.label for state in chargers],
        note=f"{named(chargers)} charged: {'its' if len(chargers) == 1 else 'their'} models in base contact get "
        f"+1 attack this turn; {named(others)} did not charge this turn (no +1 attack).",
    )
