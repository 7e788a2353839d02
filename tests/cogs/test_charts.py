"""/chart's quick rulings come from the charts the games declare (``Game.charts``): the cog only looks them up."""

from __future__ import annotations

import pytest

from cogs.tools._charts import CHARTS, ruling
from rules_core import get_game


def test_the_charts_are_the_games_own_in_their_order() -> None:
    assert list(CHARTS) == ["to-hit", "to-wound", "save-modifier", "bolt-action-damage", "epic-result"]
    assert [chart.name for chart in get_game("epic").charts] == ["epic-result"]
    shared = {chart.name: chart for chart in get_game("duel").charts}["to-wound"]
    assert shared in get_game("40k").charts  # one chart object, declared by both games that read it


def test_each_ruling_reads_as_before() -> None:
    assert ruling("to-hit", 3, 7) == "WS3 against WS7 hits on **5+**."
    assert ruling("to-wound", 3, 7) == "S3 against T7: **cannot wound**."
    assert ruling("save-modifier", 5, None) == "S5: save modifier **-2**."
    assert ruling("bolt-action-damage", None, None).splitlines()[0] == "inexperienced: damaged on **3+** (Morale 8)"
    assert ruling("epic-result", None, None).endswith("+1 for each Inspiring unit taking part")
    with pytest.raises(ValueError, match="Give the defender's WS as a: 1 to 10"):
        ruling("to-hit", 3, None)
    with pytest.raises(ValueError, match="Charts: to-hit, to-wound, save-modifier, bolt-action-damage, epic-result"):
        ruling("nope", 1, 1)
