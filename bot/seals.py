"""Whether a record resolved from a challenge still holds to the dice committed when the challenge was made (issue
24): what `verify` checks of it (bot/verification.py), and what a league checks before it counts it as agreed
(bot/storage/league_rows.py).

A record agreed through a challenge keeps what was committed in three places of its row: its ``commitment`` and
``salt`` columns and its ``agreed_json`` (the challenge's id, the commitment again, the inputs both accepted); the
``challenges`` row it was resolved from keeps the seed, salt and commitment as they were drawn, and the record it
was resolved into. Editing any one of these, or the record alone, leaves them disagreeing, and :func:`seal` names
where. Someone who rewrites every one of them consistently (the record, its agreement and its challenge row) is
beyond what the database can show: the players then compare the reveal posted in the channel (docs/challenges.md).

Pure: no storage, no front end.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.commitment import matches


@dataclass(frozen=True, slots=True)
class MadeChallenge:
    """The ``challenges`` row a record was resolved from, as it stands: the seed, salt and commitment drawn when it
    was made, the inputs it was resolved with, and the record it was resolved into (None: not resolved)."""

    id: int
    seed: int
    salt: str
    commitment: str
    inputs: Any
    record_id: int | None


@dataclass(frozen=True, slots=True)
class Seal:
    """What does not hold of a record's committed seed (``problems``, each naming the part: empty when all holds),
    and the challenge its agreement names when that challenge is no longer stored (``gone``)."""

    problems: tuple[str, ...] = ()
    gone: int | None = None

    @property
    def holds(self) -> bool:
        return not self.problems


def agreed_of(agreed_json: str | None) -> dict[str, Any] | None:
    """A record's agreement as a dict: None when it has none (``agreed_json`` NULL), empty when it is unreadable."""
    if agreed_json is None:
        return None
    try:
        data = json.loads(agreed_json)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def named_challenge(agreed_json: str | None) -> int | None:
    """The id of the challenge a record's agreement names, if it names one."""
    challenge = (agreed_of(agreed_json) or {}).get("challenge_id")
    return challenge if isinstance(challenge, int) and not isinstance(challenge, bool) else None


def seal(
    *, record_id: int, seed: int, salt: str | None, commitment: str | None, agreed_json: str | None,
    made: MadeChallenge | None,
) -> Seal:  # fmt: skip
    """What does not hold of record ``record_id``'s committed ``seed``: its ``commitment`` and ``salt`` must be there
    when it is agreed, and hash with the seed to the commitment; the commitment its agreement keeps must be the
    same; the challenge it was resolved from (``made``: the one its agreement names, else the one resolved into
    it; None when there is none) must hold the same seed, salt and commitment, the inputs its agreement keeps, and
    name this record. A record with none of these (an ordinary combat) holds."""
    agreed = agreed_of(agreed_json)
    if agreed is None and commitment is None and salt is None and made is None:
        return Seal()
    found: list[str] = []
    if agreed is None:
        why = f"it was resolved from challenge #{made.id}" if made is not None else "it keeps a commitment"
        found.append(f"the agreement: the record has none, though {why}")
    elif named_challenge(agreed_json) is None:
        found.append("the agreement: it names no challenge")
    agreed_commitment = None if agreed is None else agreed.get("commitment")
    if commitment is None or salt is None:
        missing = " and ".join(name for name, value in (("commitment", commitment), ("salt", salt)) if value is None)
        found.append(f"the commitment: agreed, but its {missing} {'are' if ' and ' in missing else 'is'} missing")
    elif agreed is not None and agreed_commitment != commitment:
        found.append(f"the commitment: the record's {commitment} is not the {agreed_commitment or 'none'} "
                     "committed to when the challenge was made")  # fmt: skip
    elif not matches(seed, salt, commitment):
        found.append(f"the seed: SHA-256 of seed {seed} and salt {salt} is not the commitment {commitment} shown "
                     "before the dice were rolled")  # fmt: skip
    if made is not None:
        found += _against(made, record_id=record_id, seed=seed, salt=salt, commitment=commitment, agreed=agreed)
    gone = named_challenge(agreed_json) if made is None else None
    return Seal(tuple(found), gone)


def _against(
    made: MadeChallenge, *, record_id: int, seed: int, salt: str | None, commitment: str | None,
    agreed: dict[str, Any] | None,
) -> list[str]:  # fmt: skip
    """What differs from the challenge as it was made. Its seed and salt are never shown: a challenge a forged
    agreement points at may still be open, its seed secret."""
    label = f"challenge #{made.id}"
    found: list[str] = []
    if made.record_id != record_id:
        into = f"record #{made.record_id}" if made.record_id is not None else "no record"
        found.append(f"the challenge: {label} was resolved into {into}, not this one")
    named = None if agreed is None else agreed.get("challenge_id")
    if agreed is not None and named is not None and named != made.id:
        found.append(f"the agreement: it names challenge #{named}, but {label} was resolved into this record")
    if commitment is not None and commitment != made.commitment:
        found.append(f"the commitment: the record's {commitment} is not the {made.commitment} {label} showed when "
                     "it was made")  # fmt: skip
    if seed != made.seed:
        found.append(f"the seed: the record's seed {seed} is not the seed drawn for {label} when it was made")
    if salt is not None and salt != made.salt:
        found.append(f"the salt: the record's salt {salt} is not the one drawn for {label} when it was made")
    if agreed is not None and agreed.get("inputs") != made.inputs:
        found.append(f"the sides: the inputs its agreement keeps are not those {label} was resolved with")
    return found


__all__ = ["MadeChallenge", "Seal", "agreed_of", "named_challenge", "seal"]
