"""The real and hand-made army list files in ../shared/rosters (beside the checkout; never copied into it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def rosters_folder() -> Path:
    """``shared/rosters`` beside the checkout (or beside a folder of worktrees); skipped where it is missing, but a
    failure under CI, whose checkout has shared/ beside it."""
    for ancestor in ROOT.parents:
        if (ancestor / "shared" / "rosters").is_dir():
            return ancestor / "shared" / "rosters"
    if os.environ.get("CI"):
        pytest.fail("../shared/rosters is missing: CI checks the army list readers against those files")
    pytest.skip("../shared/rosters (the real army list files) is not beside this checkout")


REAL = (
    "Berserker Assault.rosz",
    "Chogorian Brotherhood - Outflank  Hit and Run.rosz",
    "Dedicated Transport Squad Costs.ros",
    "HH2 - Dark Angels.rosz",
    "HH_Test.ros",
    "Necron 1845.rosz",
    "OgrynChainaxeFix.rosz",
    "empire.json",
    "empire.rosz",
)
HAND_MADE = (
    "hand-made/40k2-duel.rosz",
    "hand-made/40k3-marines-vs-orks.ros",
    "hand-made/boltaction-germans.json",
    "hand-made/epic-old-layout.rosz",
    "hand-made/epic-steel-legion.ros",
)
