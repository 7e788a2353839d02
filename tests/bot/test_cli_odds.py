"""`referee odds <game>`: the same inputs as the game's command, an answer that says how it was computed."""

from __future__ import annotations

import json

import pytest

from rules_core.odds import wilson
from tests.bot.test_cli import referee

BOLT = ("--attacker", "8x Grenadiers: veteran smg=2 nco", "--defender", "10x Rifles: regular nco")


def test_an_exact_answer_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("odds", "boltaction", *BOLT, "--reaction-shots", "10", "--distance", "9", "--json",
                           capsys=capsys)  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert (data["method"], data["trials"]) == ("exact", None)
    total = data["p_attacker_wins"] + data["p_defender_wins"] + data["p_draw"] + data["p_no_winner"]
    assert total == pytest.approx(1.0, abs=1e-12)
    for side in ("attacker", "defender"):
        assert sum(data[side]["losses"]) == pytest.approx(1.0, abs=1e-12)
        assert data[side]["expected_losses"] == pytest.approx(
            sum(n * p for n, p in enumerate(data[side]["losses"])), abs=1e-12
        )
    assert data["intervals_95"] == {}


def test_monte_carlo_says_so_with_its_trials_and_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("odds", "40k", "--attacker", "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", "--defender",
            "6x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+ | 3x Grot: WS2 S2 T2 W1 I2 A1 Ld5 Sv-", "--charge-distance", "4",
            "--trials", "300", "--json")  # fmt: skip
    code, out, _ = referee(*args, capsys=capsys)
    data = json.loads(out)
    assert (code, data["method"], data["trials"]) == (0, "monte-carlo", 300)
    assert any("the defender has 2 units" in note for note in data["notes"])  # why it is not exact
    low, high = data["intervals_95"]["p_attacker_wins"]
    assert low <= data["p_attacker_wins"] <= high
    again = json.loads(referee(*args, capsys=capsys)[1])
    assert again == data  # the same seeds, the same answer
    code, out, _ = referee(*args[:-1], capsys=capsys)
    assert "Monte Carlo, 300 trials, 95% intervals" in " ".join(out.split()) and "Attacker wins" in out


def test_exact_where_the_solver_cannot_go_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = referee("odds", "40k", "--attacker", "1x Librarian: WS5 S4 T4 W2 I4 A2 Ld10 Sv3+ force-weapon",
                           "--defender", "6x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+", "--method", "exact",
                           capsys=capsys)  # fmt: skip
    assert code == 2 and "force weapons" in err and "--method monte-carlo" in err


def test_a_40k_assault_of_one_unit_a_side_is_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("odds", "40k", "--attacker", "5x Marine: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+", "--defender",
                           "6x Ork Boy: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+", "--charge-distance", "4", "--json",
                           capsys=capsys)  # fmt: skip
    data = json.loads(out)
    assert (code, data["method"], data["trials"]) == (0, "exact", None)
    assert data["p_attacker_wins"] + data["p_defender_wins"] + data["p_draw"] == pytest.approx(1, abs=1e-12)


def test_rosters_and_bad_specs_work_as_in_the_games_command(capsys: pytest.CaptureFixture[str]) -> None:
    referee("roster", "save", "grens", "--game", "boltaction", "--spec", "8x Grenadiers: veteran smg=2 nco",
            capsys=capsys)  # fmt: skip
    code, out, _ = referee("odds", "boltaction", "--attacker", "@grens", "--defender", "10x Rifles: regular",
                           "--json", capsys=capsys)  # fmt: skip
    assert code == 0 and json.loads(out)["method"] == "exact"
    code, _, err = referee("odds", "boltaction", "--attacker", "8x Grenadiers: elite", "--defender", "10x R: regular",
                           capsys=capsys)  # fmt: skip
    assert code == 2 and "elite" in err and "Example" in err


def test_the_wilson_interval() -> None:
    assert wilson(0, 100)[0] == pytest.approx(0.0, abs=1e-12) and 0.03 < wilson(0, 100)[1] < 0.04
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)


def test_the_duel_is_exact_too(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = referee("odds", "duel", "--attacker", "Captain: WS6 S4 T4 W3 I6 A3 Sv3+ power-sword", "--defender",
                           "Warboss: WS5 S5 T5 W3 I4 A4 Sv4+", "--json", capsys=capsys)  # fmt: skip
    data = json.loads(out)
    assert (code, data["method"]) == (0, "exact")
    assert data["p_attacker_wins"] == pytest.approx(0.6203, abs=1e-4)  # and 100,000 referee resolutions: 0.6204


def test_the_duel_odds_say_what_breaking_means_in_the_duel(capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 33 (review finding 5): "The loser breaks or is destroyed" reads, in the duel, as breaking off: say
    # what is counted, the losing side wiped out or a model of it breaking off (its squad Broken).
    code, out, _ = referee("odds", "duel", "--attacker", "Captain: WS6 S4 T4 W3 I6 A3 Sv3+ power-sword", "--defender",
                           "2x Ork Boy: WS3 S3 T4 W1 I2 A1 Sv6+ knife", capsys=capsys)  # fmt: skip
    assert code == 0
    assert "The loser breaks or is destroyed" not in out
    assert "The losing side is wiped out, or a model of it broke off (its squad Broken): " in " ".join(out.split())
    _, other, _ = referee("odds", "boltaction", "--attacker", "5x A: regular", "--defender", "5x B: regular",
                          capsys=capsys)  # fmt: skip
    assert "The loser breaks or is destroyed: " in other  # the other games keep their words


LARGE = ("--attacker", "200x Big: WS10 S10 T10 W10 I10 A10 Ld10 Sv2+ rending lightning-claws",
         "--defender", "200x Big: WS10 S10 T10 W10 I10 A10 Ld10 Sv2+ Inv3+")  # fmt: skip


def test_the_largest_models_at_the_limits_get_an_answer_not_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    # 200 models of 10 attacks sweeping: a binomial of 2,000 attacks once overflowed a float (a traceback).
    code, out, err = referee("odds", "40k", *LARGE, "--round", "2", "--trials", "40", "--json", capsys=capsys)
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert (data["method"], data["trials"], data["time_limit"]) == ("monte-carlo", 40, None)


def test_a_time_limited_answer_says_so_and_how_to_have_it_again(capsys: pytest.CaptureFixture[str]) -> None:
    many = (" | ".join(f"4x Marine{i}: WS4 S4 T4 W1 I4 A1 Ld8 Sv3+" for i in range(50)),
            " | ".join(f"4x Ork{i}: WS4 S3 T4 W1 I2 A2 Ld7 Sv6+" for i in range(50)))  # fmt: skip
    args = ("odds", "40k", "--attacker", many[0], "--defender", many[1], "--seed", "7")
    code, out, _ = referee(*args, "--time-limit", "0.3", "--json", capsys=capsys)
    data = json.loads(out)
    assert (code, data["method"], data["time_limit"]) == (0, "monte-carlo", 0.3) and data["trials"] >= 1
    assert "As many trials as fitted in the time limit of 0.3 s." in data["notes"]
    again = json.loads(referee(*args, "--trials", str(data["trials"]), "--json", capsys=capsys)[1])
    assert {key: again[key] for key in ("outcomes", "attacker", "defender", "intervals_95")} == {
        key: data[key] for key in ("outcomes", "attacker", "defender", "intervals_95")}  # fmt: skip
    code, out, _ = referee(*args, "--time-limit", "0.3", capsys=capsys)
    assert code == 0 and "Monte Carlo, " in out and " trials, 95% intervals" in out
    assert "The same answer again: --trials " in out and "--seed 7" in out
    code, _, err = referee(*args, "--time-limit", "0", capsys=capsys)
    assert code == 2 and "--time-limit" in err
