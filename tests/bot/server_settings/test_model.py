"""The settings model, pure: what applies in a channel, house rules checked by each game's own declarations and merged
under the player's explicit options, and their words in a summary."""

from __future__ import annotations

import pytest

from bot.server_settings.cache import SettingsCache
from bot.server_settings.model import (
    CHANNEL,
    NOTHING,
    SERVER,
    USER,
    Change,
    Preferences,
    SettingRow,
    apply_house_rules,
    challenge_minutes,
    effective,
    example_variant,
    house_key,
    house_rule_value,
    house_rules_line,
    phrase,
    preferences,
    split_house_key,
    variants,
)
from bot.server_settings.words import change_text, setting_line, value_text
from rules_core import RefereeError, all_games
from rules_core.options import OptionType, OptionValue
from rules_core.registry import get_game

GUILD, CHANNEL_A, CHANNEL_B = "1", "10", "20"


def server(key: str, value: object) -> SettingRow:
    return SettingRow(SERVER, GUILD, GUILD, key, value)


def channel(key: str, value: object, channel_id: str = CHANNEL_A) -> SettingRow:
    return SettingRow(CHANNEL, channel_id, GUILD, key, value)


def test_a_channel_overrides_the_server_option_by_option_and_only_in_that_channel() -> None:
    rows = [
        server(house_key("epic", "result_dice"), "sum"),
        server(house_key("epic", "max_rounds"), 3),
        server("visibility", "private"),
        channel(house_key("epic", "result_dice"), "highest"),
        channel("visibility", "public"),
    ]
    here = effective(rows, CHANNEL_A)
    assert dict(here.house_for("epic")) == {"result_dice": "highest", "max_rounds": 3}
    assert here.private is False
    elsewhere = effective(rows, CHANNEL_B)
    assert dict(elsewhere.house_for("epic")) == {"result_dice": "sum", "max_rounds": 3}
    assert elsewhere.private is True
    assert dict(effective(rows, None).house_for("40k")) == {}


def test_results_and_league_channels_are_the_servers_alone() -> None:
    rows = [server("results_channel", "99"), channel("results_channel", "98"), server("threads", "on")]
    here = effective(rows, CHANNEL_A)
    assert (here.results_channel, here.league_channel, here.threads) == ("99", None, True)


def test_explicit_options_win_and_the_names_used_come_in_declaration_order() -> None:
    epic = get_game("epic")
    house: dict[str, OptionValue] = {"max_rounds": 3, "result_dice": "sum", "lost_contact": "countercharge"}
    options, used = apply_house_rules(epic, {"lost_contact": "ff"}, house)
    assert options == {"lost_contact": "ff", "max_rounds": 3, "result_dice": "sum"}
    assert used == ("result_dice", "max_rounds")  # the order the game declares them, lost_contact the player's
    assert apply_house_rules(epic, {}, {}) == ({}, ())


def test_an_option_the_game_no_longer_declares_is_ignored() -> None:
    options, used = apply_house_rules(get_game("duel"), {}, {"result_dice": "sum"})
    assert (options, used) == ({}, ())


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_every_settable_option_of_every_game_takes_its_default_back(game: object) -> None:
    for spec in game.options:  # type: ignore[attr-defined]
        if spec.type is OptionType.TEXT:
            with pytest.raises(RefereeError, match="never a house rule"):
                house_rule_value(game, spec.name, "x")  # type: ignore[arg-type]
            continue
        if not spec.variant:  # what describes one combat is said with it, never a house rule
            with pytest.raises(RefereeError, match=r"describes one combat.*A house rule sets one of"):
                house_rule_value(game, spec.name, "1")  # type: ignore[arg-type]
            continue
        if spec.default is None:
            continue
        text = str(spec.default).lower() if isinstance(spec.default, bool) else str(spec.default)
        assert house_rule_value(game, spec.name.replace("_", "-"), text) == (spec.name, spec.default)  # type: ignore[arg-type]


def test_only_rules_variants_are_house_rules_and_a_stored_one_on_another_option_is_ignored() -> None:
    wh40k, epic = get_game("40k"), get_game("epic")
    with pytest.raises(RefereeError) as refused:
        house_rule_value(wh40k, "round", "2")
    text = str(refused.value)
    assert text.startswith(
        "The option round describes one combat (1 = the charge turn; 2 or more = the combat continues): its "
    )
    assert (
        "A house rule sets one of 40K's rules variants: cover_power_fists, cover_later_round, morale_modifier, " in text
    )
    assert [spec.name for spec in variants(epic)] == ["reinforced_vs_macro", "both_wiped_out", "lost_contact",
                                                      "result_dice", "max_rounds"]  # fmt: skip
    assert [spec.name for spec in variants(get_game("boltaction"))] == ["morale_check"]
    # A house rule round:2 stored before variants were told apart: ignored, never a charge that always fails.
    options, used = apply_house_rules(wh40k, {}, {"round": 2, "charge_distance": 3.0, "morale_modifier": "per_wound"})
    assert (options, used) == ({"morale_modifier": "per_wound"}, ("morale_modifier",))
    assert example_variant(get_game("boltaction"))[1] is False  # type: ignore[index]  # morale_check on by default


def test_bad_house_rules_name_what_was_wrong() -> None:
    epic = get_game("epic")
    with pytest.raises(RefereeError, match=r"no option 'result_die'.*result_dice"):
        house_rule_value(epic, "result_die", "sum")
    with pytest.raises(RefereeError, match="result_dice is one of highest, sum, not 'add'"):
        house_rule_value(epic, "result_dice", "add")
    with pytest.raises(RefereeError, match="max_rounds"):
        house_rule_value(epic, "max_rounds", "0.5")


def test_house_rules_in_a_players_words() -> None:
    assert phrase("result_dice", "sum") == "result dice: sum"
    assert phrase("double_one_passes", True) == "double one passes: on"
    assert phrase("charge_distance", 6.0) == "charge distance: 6"
    assert phrase("morale_modifier", "per_wound") == "morale modifier: per wound"
    options = {"result_dice": "sum", "max_rounds": 3}
    assert house_rules_line(options, ("result_dice", "max_rounds")) == "house rules: result dice: sum; max rounds: 3"
    assert house_rules_line(options, ()) == ""


def test_house_keys_split_back() -> None:
    assert split_house_key(house_key("40k", "morale_modifier")) == ("40k", "morale_modifier")
    assert split_house_key("visibility") is None


def test_preferences_and_the_cache() -> None:
    assert preferences([SettingRow(USER, "5", None, "private", True), SettingRow(USER, "5", None, "steps", "full")]) \
        == Preferences(private=True, steps="full")  # fmt: skip
    cache = SettingsCache()
    assert cache.effective(GUILD, CHANNEL_A) is NOTHING
    assert cache.effective(None, None) is NOTHING
    cache.replace_guild(GUILD, [server("visibility", "private")])
    assert cache.effective(GUILD, CHANNEL_A).private is True
    cache.replace_guild(GUILD, [server("visibility", "public"), channel("visibility", "private")])
    assert cache.effective(GUILD, CHANNEL_A).private is True  # the memo of that channel was dropped
    assert cache.effective(GUILD, CHANNEL_B).private is False
    cache.replace_guild(GUILD, [])
    assert cache.effective(GUILD, CHANNEL_A) is NOTHING
    cache.replace_user("5", [SettingRow(USER, "5", None, "steps", "full")])
    assert cache.preferences("5").full_steps and not cache.preferences("6").full_steps
    cache.replace_all([server("threads", "on"), SettingRow(USER, "6", None, "private", False)], version=7)
    assert cache.effective(GUILD, None).threads and cache.preferences("6").private is False
    assert cache.preferences("5") == Preferences() and cache.version == 7


def test_challenges_by_default_follow_the_channel_and_their_time_is_the_servers() -> None:
    """``agree`` is set like visibility (a channel's own wins there); ``challenge_expiry`` is the server's alone, a
    whole number of minutes from 1 to 1440, and anything else stored falls back to 15."""
    assert (NOTHING.agree, NOTHING.challenge_minutes) == (False, 15)
    rows = [server("agree", "on"), channel("agree", "off"), server("challenge_expiry", 30),
            channel("challenge_expiry", 5)]  # fmt: skip
    here, elsewhere = effective(rows, CHANNEL_A), effective(rows, CHANNEL_B)
    assert (here.agree, here.challenge_minutes) == (False, 30)  # a channel's expiry is no setting: the server's
    assert (elsewhere.agree, elsewhere.challenge_minutes) == (True, 30)
    assert effective([channel("agree", "on")], CHANNEL_A).agree
    assert not effective([server("agree", True)], CHANNEL_A).agree  # only "on" switches it on
    for stored in (0, 1441, -5, 2.5, 30.0, "30", True, None, [30]):
        assert effective([server("challenge_expiry", stored)], CHANNEL_A).challenge_minutes == 15, stored
    for kept in (1, 1440):
        assert effective([server("challenge_expiry", kept)], None).challenge_minutes == kept
    assert (challenge_minutes(45), challenge_minutes(0), challenge_minutes(False)) == (45, None, None)


def test_the_challenge_settings_in_a_readers_words() -> None:
    assert setting_line("agree", "on") == "agree (a combat naming an opponent waits for them to accept it): on"
    assert setting_line("challenge_expiry", 30) == "challenge expiry (how long a challenge stays open): 30 minutes"
    assert value_text("challenge_expiry", 1) == "1 minute"
    change = Change(1, SERVER, GUILD, GUILD, "challenge_expiry", None, 45, "7", None)
    assert change_text(change) == "challenge expiry: unset → 45 minutes (whole server)"
    assert change_text(Change(2, CHANNEL, CHANNEL_A, GUILD, "agree", "on", "off", "7", None)) == (
        "agree: on → off (channel 10)"
    )
