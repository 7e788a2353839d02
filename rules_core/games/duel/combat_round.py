"""A combat round (rules text steps 1 to 3): attack dice, parries, combat scores and the round's winner.

Each pair of models in base contact fights one round; the winner's hits are resolved by ``hits``.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from rules_core.games.duel.parry import Advice, advise, counts_of
from rules_core.games.duel.parry import number as short
from rules_core.games.duel.spec import CHARGED, ENCUMBERED, HIGH_GROUND, OBSTACLE, ParryPolicy
from rules_core.games.duel.state import ATTACK_DICE, ATTACKER, DEFENDER, Fighter, Phase
from rules_core.report import Combine, Event, Reroll, Roll, SideName, Step, event


@functools.lru_cache(maxsize=64)
def situational(flags: frozenset[str]) -> tuple[int, str]:
    """The combat score modifiers a model's flags give, and how the score line shows them."""
    total, text = 0, ""
    for value, why, flag in (
        (1, "charged", CHARGED),
        (1, "high ground", HIGH_GROUND),
        (-1, "encumbered", ENCUMBERED),
        (-1, "charged behind an obstacle", OBSTACLE),
    ):
        if flag in flags:
            total += value
            text += f" {'+' if value > 0 else '-'} 1 ({why})"
    return total, text


def _json_number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else round(float(value), 4)


def _parry_reason(parrier: str, opponent: str, faces: list[int], left: int, advice: Advice) -> str:
    """Why ``parry=auto`` parried or not: the re-roll's effect on the parrier's expected score difference."""
    top = max(faces)
    counted = f", counting the parr{'y' if left == 2 else 'ies'} still left" if left > 1 else ""
    worth = (
        f"{opponent}'s highest die + criticals - fumbles: {short(advice.now)} now, {short(advice.after)} expected "
        f"after a re-roll{counted}"
    )
    if advice.parry:
        gain = short(advice.gain)
        return f": re-rolling {opponent}'s {top} improves {parrier}'s expected score difference by {gain} ({worth})"
    effect = (
        "leaves the expected score difference unchanged, and parrying is optional"
        if advice.gain == 0
        else f"would worsen {parrier}'s expected score difference by {short(-advice.gain)}"
    )
    if faces.count(top) > 1 and top < 6 and left == 1:
        return (
            f": {opponent}'s highest die ({top}) is duplicated, so a re-roll cannot lower its score, only raise it "
            f"or turn up a fumble; it {effect} ({worth})"
        )
    return f": re-rolling {opponent}'s {top} {effect} ({worth})"


def round_step(
    phase: Phase, number: int, first: Fighter, second: Fighter, *, bonus_for: Fighter, bonus: int
) -> tuple[Fighter, Fighter, int] | None:
    """One combat round; ``first`` is the attacking side's model (its dice are rolled first). Returns the
    winner, the loser and the hits, or None for a stalemate."""
    first.opponents.append(second)
    second.opponents.append(first)
    events: list[Event] = []
    counts = {}
    purposes = {}
    for fighter in (first, second):
        extra = bonus if fighter is bonus_for else 0
        two_weapons = len(fighter.group.close_combat_weapons) >= 2
        counts[fighter.side] = fighter.group.profile.a + two_weapons + extra
        parts = [f"A{fighter.group.profile.a}"]
        if two_weapons:
            parts.append("+1 two Close Combat weapons")
        if extra:
            parts.append(f"+{extra} multiple combat")
            events.append(
                event(
                    "bonus",
                    side=fighter.side_name,
                    model=fighter.label,
                    dice=extra,
                    note=f"Multiple combat: {fighter.label} rolls +{extra} attack "
                    f"{'die' if extra == 1 else 'dice'} (round {number}; the lone model survived the earlier "
                    f"round{'s' if number > 2 else ''}).",
                )
            )
        purposes[fighter.side] = f"attack dice: {fighter.label} ({', '.join(parts)})"
    faces = {first.side: phase.dice.d6(counts[first.side]), second.side: phase.dice.d6(counts[second.side])}
    rerolls: dict[SideName, list[Reroll]] = {first.side: [], second.side: []}
    parry(phase, first, second, faces=faces, rerolls=rerolls, events=events)
    scores = {
        fighter.side: score(fighter, number, faces[fighter.side], faces[fighter.side.other], events)
        for fighter in (first, second)
    }
    rolls = tuple(
        Roll(
            purposes[side],
            tuple(faces[side]),
            None,
            (),
            0,
            tuple(rerolls[side]),
            Combine.HIGHEST,
            ATTACK_DICE,
            side,
        )
        for side in (first.side, second.side)
    )
    a_score, d_score = scores[ATTACKER], scores[DEFENDER]
    by_side = {first.side: first, second.side: second}
    winner: Fighter | None
    if a_score != d_score:
        winner = by_side[ATTACKER if a_score > d_score else DEFENDER]
        hits = abs(a_score - d_score)
        decided = "score"
        verdict = f"{winner.label} wins {max(a_score, d_score)} to {min(a_score, d_score)}: {hits} hit" + (
            "s" if hits != 1 else ""
        )
    elif first.group.profile.i != second.group.profile.i:
        winner = first if first.group.profile.i > second.group.profile.i else second
        hits = 1
        decided = "initiative"
        verdict = (
            f"Tied at {a_score}: {winner.label} has the higher Initiative (I{winner.group.profile.i}) and scores 1 hit"
        )
    else:
        winner, hits, decided = None, 0, "stalemate"
        verdict = f"Tied at {a_score} with equal Initiative (I{first.group.profile.i}): a stalemate, no hits"
    events.append(
        event(
            "round",
            round=number,
            attacker_model=by_side[ATTACKER].label,
            defender_model=by_side[DEFENDER].label,
            attacker_score=a_score,
            defender_score=d_score,
            winner=winner.side_name if winner else "none",
            winner_model=winner.label if winner else None,
            hits=hits,
            decided_by=decided,
            note=verdict + ".",
        )
    )
    title = f"Round {number}: {by_side[ATTACKER].label} {a_score} v {d_score} {by_side[DEFENDER].label}"
    phase.steps.append(Step(title, rolls, tuple(events)))
    if winner is None:
        return None
    return winner, second if winner is first else first, hits


def parry(
    phase: Phase,
    first: Fighter,
    second: Fighter,
    *,
    faces: dict[SideName, list[int]],
    rerolls: dict[SideName, list[Reroll]],
    events: list[Event],
) -> None:
    parries = {}
    for fighter in (first, second):
        own = fighter.group.parries
        if own and fighter.breaking_off:
            events.append(
                event(
                    "parry",
                    side=fighter.side_name,
                    model=fighter.label,
                    parries=0,
                    note=f"{fighter.label} is breaking off and may not parry.",
                )
            )
            own = 0
        parries[fighter.side] = own
    both = min(parries.values())
    if both:
        keeps = [f for f in (first, second) if parries[f.side] > both]
        rest = f"; {keeps[0].label} keeps {parries[keeps[0].side] - both}" if keeps else ""
        events.append(
            event(
                "parry",
                cancelled=both,
                note=f"Both can parry: {both} parr{'y' if both == 1 else 'ies'} on each side cancel out{rest}.",
            )
        )
    for parrier in (first, second):
        usable = parries[parrier.side] - both
        if usable <= 0:
            continue
        target_faces = faces[parrier.side.other]
        opponent = second if parrier is first else first
        policy = parrier.group.parry
        for left in range(usable, 0, -1):
            highest = max(target_faces)
            data: dict[str, int | float] = {}
            if policy is ParryPolicy.ALWAYS:
                used, reason = True, ""
            elif policy is ParryPolicy.NEVER:
                used, reason = False, " (parry=never)"
            else:
                advice = advise(counts_of(target_faces), left)
                used = advice.parry
                reason = _parry_reason(parrier.label, opponent.label, target_faces, left, advice)
                data = {"expected_now": _json_number(advice.now), "expected_after": _json_number(advice.after)}
            if not used:
                events.append(
                    event(
                        "parry",
                        side=parrier.side_name,
                        model=parrier.label,
                        used=False,
                        **data,
                        note=f"{parrier.label} does not parry{reason}.",
                    )
                )
                break
            index = target_faces.index(highest)
            new = phase.dice.d6(1)[0]
            target_faces[index] = new
            rerolls[opponent.side].append(Reroll(index, highest, new))
            events.append(
                event(
                    "parry",
                    side=parrier.side_name,
                    model=parrier.label,
                    used=True,
                    before=highest,
                    after=new,
                    **data,
                    note=f"{parrier.label} parries{reason}{'.' if reason else ':'} {opponent.label} re-rolls "
                    f"its {highest}, which becomes {new}.",
                )
            )


def score(fighter: Fighter, number: int, own: list[int], opponent: list[int], events: list[Event]) -> int:
    """A model's combat score in round ``number`` (its flags against that opponent: ``high-ground=N``)."""
    group = fighter.group
    highest = max(own)
    ws = 0 if fighter.breaking_off else group.profile.ws
    fumbles = opponent.count(1)
    criticals = max(0, own.count(6) - 1)
    modifier, modifier_text = situational(group.flags_against(number))
    text = f"highest die {highest} + WS{ws}" + (" (breaking off)" if fighter.breaking_off else "")
    if fumbles:
        text += f" + {fumbles} (opponent's fumble{'s' if fumbles > 1 else ''})"
    if criticals:
        text += f" + {criticals} (critical hit{'s' if criticals > 1 else ''})"
    text += modifier_text
    score = highest + ws + fumbles + criticals + modifier
    events.append(
        event(
            "score",
            side=fighter.side_name,
            model=fighter.label,
            highest=highest,
            ws=ws,
            fumbles=fumbles,
            criticals=criticals,
            modifier=modifier,
            score=score,
            note=f"{fighter.label}: {text} = {score}.",
        )
    )
    return score
