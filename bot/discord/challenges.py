"""Challenges on Discord (issue 24; docs/challenges.md): a combat command naming an opponent with ``agree:true``
(or where the server's setting asks for it) posts a challenge instead of rolling; the opponent accepts, changes
their side or declines, the challenger cancels or accepts a change; when both have accepted the same sides, the
result, rolled with the seed committed to at the start, replaces the challenge with its reveal. The next round of an
agreed combat is a challenge too (:func:`post_next_round`).
Long because each press's flow (who may, which version, what the message becomes, the race lost) reads best beside
the others.

The buttons are DynamicItems (``referee:ch:<id>:<version>:<accept|change|decline|cancel>``: the sides' version the
message showed, so an Accept binds to the sides its presser read and a stale one is refused; the view is rebuilt on
every change) and the Change my side form's submission is read by its custom id (``referee:chmodal:<id>``, no
version: the form carries the opponent's whole side, the only part that changes, so a change from a stale message
replaces nothing its sender did not write): everything is in the database, so a press or a form sent after a
restart works. Each change is one compare-and-set in bot/storage/challenges.py; a challenge is found only in its
own server. Every press but Change my side (whose form must be the first answer) and every form is deferred before
any database work, then the message edited or the presser answered by a follow-up (Discord's 3 seconds).
"""

from __future__ import annotations

import io
import logging
import re
from datetime import timedelta
from typing import Any

import discord

from bot.challenges.commitment import commitment, draw_salt, draw_seed
from bot.challenges.service import agreement, changed_defender, inputs_as_read, resolution
from bot.data import catalogue
from bot.discord.client import BotServices
from bot.discord.collector import CollectorHold
from bot.discord.errors import error_embed, new_error_id, referee_error_embed
from bot.discord.interactions import guild_of, settings_channel
from bot.discord.results import player_mentions, show_recorded
from bot.discord.reveals import claim, release, reveal_again
from bot.discord.sides import sides_and_options
from bot.render.challenges import (
    challenge_embed,
    challenge_file,
    continued,
    mention,
    players_of,
    reveal_text,
    state_of,
)
from bot.render.markdown import cut
from bot.storage.challenges import ChallengeClosed, StoredChallenge
from bot.storage.db import now
from bot.storage.failures import StorageError, is_transient, never_sent
from bot.storage.records import AlreadyContinued, StoredCombat, new_slug
from rules_core import RefereeError, get_game, resolve
from rules_core.registry import Game, command_path
from rules_core.spec import reading_canonical

log = logging.getLogger("referee.bot")
MODAL_ID = re.compile(r"^referee:chmodal:(\d+)$")
SIDE_MAX = 4000  # a modal's text input holds at most 4,000 characters (and the engine's spec limit is the same)
ACTIONS = {
    "accept": ("Accept", discord.ButtonStyle.success),
    "change": ("Change my side", discord.ButtonStyle.primary),
    "decline": ("Decline", discord.ButtonStyle.danger),
    "cancel": ("Cancel", discord.ButtonStyle.secondary),
}


def example(game: Game) -> str:
    """A challenge that works, for a refusal: the game's command with its example sides, an opponent and agree."""
    return (f"/{command_path(game)} attacker:{game.example_attacker} defender:{game.example_defender} "
            "opponent:@Bob agree:True")  # fmt: skip


def wanted(
    bot: BotServices, interaction: discord.Interaction[Any], game: Game, *, opponent: discord.User | None,
    agree: bool | None, private: bool | None,
) -> bool:  # fmt: skip
    """Whether a combat command makes a challenge: ``opponent`` given and ``agree:true``, or the server's setting
    asks for one and ``agree`` is not false. A challenge that cannot be made is refused here (a RefereeError: the
    command's error answer, private, with a correct example)."""
    if agree and opponent is None:
        raise RefereeError("agree:True makes a challenge, and a challenge needs the opponent who accepts it: name "
                           "them with opponent:.", token="agree", example=example(game))  # fmt: skip
    setting = bot.server_settings.effective(guild_of(interaction), settings_channel(interaction)).agree
    if opponent is None or agree is False or not (agree or setting):
        return False
    if interaction.guild_id is None:
        raise RefereeError("A challenge lives in a server's channel, where both players see it: use the command "
                           "there, or drop agree:True here.", token="agree", example=example(game))  # fmt: skip
    if opponent.id == interaction.user.id or opponent.bot:
        who = "yourself" if opponent.id == interaction.user.id else "a bot"
        raise RefereeError(f"You cannot challenge {who}: name the player you are fighting with opponent:.",
                           token="opponent", example=example(game))  # fmt: skip
    if private:
        raise RefereeError("A challenge is shown in the channel, so that both players see the sides and the dice's "
                           "commitment: drop private:True, or agree:False for a private result.", token="private",
                           example=example(game))  # fmt: skip
    return True


def challenge_view(challenge: StoredChallenge) -> discord.ui.View:
    """The buttons of an open challenge at its sides' version (each checks who presses it): Accept, Change my side,
    Decline, Cancel; a next round's challenge has no Change my side (its sides are the record's survivors)."""
    view = discord.ui.View(timeout=None)
    for action in ACTIONS:
        if action == "change" and continued(challenge) is not None:
            continue
        view.add_item(ChallengeButton(challenge.id, action, challenge.inputs_version))
    return view


def mentions_of(*users: str | None) -> discord.AllowedMentions:
    """Pings for these users alone: never @everyone, a role or a name a unit might spell."""
    allowed = discord.AllowedMentions.none()
    allowed.users = [discord.Object(id=int(user)) for user in users if user and user.isdigit()]
    return allowed


async def post_challenge(
    bot: BotServices, interaction: discord.Interaction[Any], game: Game, *, attacker: str, defender: str,
    options: dict[str, Any], opponent: discord.User, hold: CollectorHold | None = None,
) -> StoredChallenge:  # fmt: skip
    """Read the command as a combat is read (a spec in error is refused at once, nothing stored), draw the seed and
    salt, store the challenge and post it as the command's answer, pinging the opponent alone."""
    sides, chosen, house = await sides_and_options(bot, interaction, game, attacker, defender, options=options)
    seed, salt = draw_seed(), draw_salt()
    # Read (and rolled, unseen) now: a side the options do not fit is refused before anything is stored.
    report = resolve(catalogue().game(game), *sides, seed=seed, **chosen)
    return await open_challenge(bot, interaction, game, inputs=inputs_as_read(report, chosen, house), seed=seed,
                                salt=salt, challenger=str(interaction.user.id), opponent=str(opponent.id),
                                content=f"<@{opponent.id}>: you are challenged.", hold=hold)  # fmt: skip


async def open_challenge(
    bot: BotServices, interaction: discord.Interaction[Any], game: Game, *, inputs: dict[str, Any], seed: int,
    salt: str, challenger: str, opponent: str, content: str, hold: CollectorHold | None,
) -> StoredChallenge:  # fmt: skip
    """Store a challenge (open for the server's ``challenge_minutes``) and post it as the command's answer, pinging
    ``opponent`` alone; the message's id is stored once it is out."""
    minutes = bot.server_settings.effective(guild_of(interaction), settings_channel(interaction)).challenge_minutes
    stored = await bot.store.challenges.create(
        game=game.id, kind=game.command, inputs=inputs, seed=seed, salt=salt, commitment=commitment(seed, salt),
        challenger_id=challenger, opponent_id=opponent, guild_id=guild_of(interaction),
        channel_id=str(interaction.channel_id), expires_at=now() + timedelta(minutes=minutes),
    )  # fmt: skip
    interaction.extras["outcome"] = "challenge"
    try:
        sent = await interaction.response.send_message(content=content, embed=challenge_embed(stored, game),
                                                       view=challenge_view(stored), files=attached(stored),
                                                       allowed_mentions=mentions_of(opponent))  # fmt: skip
    except discord.HTTPException:  # nobody saw it: it is not kept open (the error handler tells the challenger)
        await bot.store.challenges.discard(stored.id)
        raise
    bot.health.answer(interaction.id)
    if hold is not None:
        hold.release()
    if sent.message_id is not None:
        await bot.store.challenges.set_message(stored.id, str(sent.message_id))
    return stored


def attached(challenge: StoredChallenge) -> list[discord.File]:
    """What the challenge's message cuts, whole, as its attached file (none when nothing is cut)."""
    if (whole := challenge_file(challenge)) is None:
        return []
    name, text = whole
    return [discord.File(io.BytesIO(text.encode("utf-8")), filename=name, description="The challenge in full")]


def what_became(challenge: StoredChallenge, replaced_by: StoredChallenge | None = None, presser: str = "") -> str:
    """One line for a press (by ``presser``) on a challenge that is no longer open (``replaced_by``: the next
    round's newer one: its asker waits for the other player, who answers it)."""
    state = state_of(challenge)
    number = f"Challenge #{challenge.id}"
    if state == "resolved":
        return f"{number} was accepted by both and resolved" + (
            f": record #{challenge.record_id} (`/replay record:{challenge.record_id}`)."
            if challenge.record_id is not None
            else "."
        )
    if state == "declined":
        return f"{number} was declined by {mention(challenge.opponent_id)}: nothing was rolled."
    if state == "cancelled":
        return f"{number} was cancelled by {mention(challenge.challenger_id)}: nothing was rolled."
    if state == "replaced":
        if replaced_by is None:
            return f"{number} was replaced by a newer challenge, for the same next round. Nothing was rolled."
        newer = f"{number} was replaced by challenge #{replaced_by.id}, for the same next round"
        if presser == replaced_by.challenger_id:
            return f"{newer}, which you asked: it waits for {mention(replaced_by.opponent_id)}. Nothing was rolled."
        return (f"{newer}: {mention(replaced_by.challenger_id)} asked it, and you answer it (Accept or Decline on "
                "its message). Nothing was rolled.")  # fmt: skip
    return (f"{number} expired <t:{int(challenge.expires_at.timestamp())}:R>, before both accepted: nothing was "
            "rolled. Challenge again with the same command.")  # fmt: skip


async def tell(interaction: discord.Interaction[Any], text: str, embed: discord.Embed | None = None) -> None:
    """A private line (or ``embed``) to whoever acted (a follow-up once the interaction was answered)."""
    embed = embed or discord.Embed(description=text)
    if interaction.response.is_done():
        await interaction.followup.send(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, ephemeral=True)


STILL_OPEN = "The challenge is still open: try again."
# The last Accept's write failed after it was sent (the connection dropped): it may have committed.
MAYBE_RESOLVED = ("Press Accept again: if the combat was resolved all the same, that shows its result; if not, that "
                  "resolves it.")  # fmt: skip


async def storage_failed(interaction: discord.Interaction[Any], error: StorageError, then: str = STILL_OPEN) -> None:
    """The database failed: one line to the presser (``then``: what now), the traceback logged by error id."""
    error_id = new_error_id()
    log.error("error %s in a challenge: %s", error_id, error, exc_info=error)
    await tell(interaction, "", error_embed(f"{error.for_player(error_id)} {then}"))


async def show_challenge(
    interaction: discord.Interaction[Any], challenge: StoredChallenge, *, view: discord.ui.View | None,
    content: Any = discord.utils.MISSING,
) -> None:  # fmt: skip
    """Every edit of a challenge's message (the pressed one, or the one a form was sent from): shown as
    ``challenge`` now stands, with ``view`` (its buttons, or None), ``content`` (None drops the text; unsaid keeps
    it) and, when it cuts a side, its whole text attached.
    A message deleted meanwhile (Discord's 404 Unknown Message) is answered by a follow-up below it, in the channel
    for both players: what was stored is always said."""
    embed = challenge_embed(challenge, get_game(challenge.game))
    files = attached(challenge)
    changes: dict[str, Any] = {"content": content, "embed": embed, "view": view}
    if files:
        changes["attachments"] = files
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(**changes)
        else:
            await interaction.response.edit_message(**changes)
    except discord.NotFound:
        again = attached(challenge)  # a file is read once: a fresh one for the follow-up
        said = content if isinstance(content, str) else discord.utils.MISSING
        await interaction.followup.send(content=said, embed=embed, files=again,
                                        view=view or discord.utils.MISSING, allowed_mentions=mentions_of())  # fmt: skip


async def load(
    interaction: discord.Interaction[Any], challenge_id: int, *, on_its_message: bool = False
) -> StoredChallenge | None:
    """The challenge, if it is this server's and the presser plays it; otherwise the presser is told privately
    (None). One past its time but still open is marked expired and its message edited to say so. Pressed on its
    message (deferred), one resolved whose reveal was never shown (the resolving press's acknowledgement lost)
    gets it shown there (bot/discord/reveals.py)."""
    bot: BotServices = interaction.client
    challenge = await bot.store.challenges.get(challenge_id)
    if challenge is None or challenge.guild_id is None or challenge.guild_id != guild_of(interaction):
        await tell(interaction, f"There is no challenge #{challenge_id} in this server.")
        return None
    players = (challenge.challenger_id, challenge.opponent_id)
    if str(interaction.user.id) not in players:
        await tell(interaction, f"Challenge #{challenge.id} is between {mention(players[0])} and "
                                f"{mention(players[1])}: only they can answer it.")  # fmt: skip
        return None
    if challenge.status == "open" and challenge.expired():
        await bot.store.challenges.expire(challenge.id)
        closed = await bot.store.challenges.get(challenge.id) or challenge
        await show_closed(interaction, closed)
        await tell(interaction, what_became(closed))
        return None
    if challenge.status != "open":
        if not (on_its_message and state_of(challenge) == "resolved" and await reveal_again(interaction, challenge)):
            newer = await bot.store.challenges.replaced_by(challenge) if challenge.status == "replaced" else None
            replacing = await bot.store.challenges.get(newer) if newer is not None else None
            await tell(interaction, what_became(challenge, replacing, str(interaction.user.id)))
        return None
    return challenge


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    # The version is absent from the buttons of a challenge posted before it was added (they are refused an Accept
    # and given versioned ones).
    template=r"referee:ch:(?P<challenge>\d+):(?:(?P<version>\d+):)?(?P<action>accept|change|decline|cancel)",
):
    def __init__(self, challenge_id: int, action: str, version: int | None) -> None:
        label, style = ACTIONS[action]
        custom_id = f"referee:ch:{challenge_id}:" + ("" if version is None else f"{version}:") + action
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))
        self.challenge_id, self.action, self.version = challenge_id, action, version

    @classmethod
    async def from_custom_id(
        cls, _interaction: discord.Interaction[Any], _item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChallengeButton:
        version = match["version"]
        return cls(int(match["challenge"]), match["action"], None if version is None else int(version))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            if self.action != "change":  # Change my side answers with its form, which must be the first answer
                await interaction.response.defer()
            challenge = await load(interaction, self.challenge_id, on_its_message=self.action != "change")
            if challenge is None:
                return
            mine = "challenger" if str(interaction.user.id) == challenge.challenger_id else "opponent"
            if self.action == "accept":
                await accept(interaction, challenge, mine, self.version)
            elif self.action == "change":
                await change(interaction, challenge, mine)
            else:
                await close(interaction, challenge, mine, self.action)
        except StorageError as error:
            await storage_failed(interaction, error)


async def accept(
    interaction: discord.Interaction[Any], challenge: StoredChallenge, mine: str, version: int | None
) -> None:
    """The press of Accept on the sides at ``version`` (the message the presser read): refused unless they are
    the challenge's current sides; the last of the two acceptances resolves the challenge in place of its
    message (deferred already)."""
    other = "opponent" if mine == "challenger" else "challenger"
    if version != challenge.inputs_version:
        # The message is shown as it stands, with buttons of its version, and the presser told to read it.
        await show_challenge(interaction, challenge, view=challenge_view(challenge))
        await tell(interaction, stale(challenge, version))
        return
    if challenge.accepted_by(mine):
        waiting = (f"{mention(challenge.opponent_id)} to accept, change their side or decline (you can Cancel)"
                   if mine == "challenger" else
                   f"{mention(challenge.challenger_id)} to accept your change or cancel")  # fmt: skip
        await tell(interaction, f"You have accepted these sides already: waiting for {waiting}.")
        return
    bot: BotServices = interaction.client
    if not challenge.accepted_by(other):  # only a changed record could get here: accepted, the other's turn
        try:
            await bot.store.challenges.accept(challenge, mine)
        except ChallengeClosed:
            await accept_again(interaction, challenge.id, mine, challenge.inputs_version)
            return
        await tell(interaction, "Accepted: the combat is resolved when the other player accepts these sides too.")
        return
    await resolve_now(interaction, challenge, mine)


def stale(challenge: StoredChallenge, version: int | None) -> str:
    """Why an Accept pressed on sides that are no longer the challenge's is refused."""
    read = "an older message" if version is None else f"version {version}"
    return (f"The sides changed since you read them: version {challenge.inputs_version} is on challenge "
            f"#{challenge.id} now (you pressed Accept on {read}). Read it and press Accept again.")  # fmt: skip


async def accept_again(interaction: discord.Interaction[Any], challenge_id: int, mine: str, version: int) -> None:
    """An acceptance of ``version`` that lost a race: the challenge as it now stands decides (resolved, changed,
    closed); it resolves only at the version the presser read."""
    bot: BotServices = interaction.client
    again = await bot.store.challenges.get(challenge_id)
    if again is None or again.status != "open" or again.expired():
        await tell(interaction, what_became(again) if again is not None else f"There is no challenge #{challenge_id}.")
    elif again.inputs_version != version:
        await tell(interaction, stale(again, version))
    elif again.accepted_by("opponent" if mine == "challenger" else "challenger") and not again.accepted_by(mine):
        await resolve_now(interaction, again, mine)
    else:
        await tell(interaction, f"Challenge #{challenge_id} changed while you accepted: read the sides again.")


async def resolve_now(interaction: discord.Interaction[Any], challenge: StoredChallenge, last: str) -> None:
    """Resolve with the committed seed, record it (the attacker's player and the defender's: the challenger and the
    opponent, or a next round's players as its record had them, whichever asked; the house rules kept) and show the
    result with its reveal in place of the challenge (deferred already)."""
    bot: BotServices = interaction.client
    report = resolution(challenge.game, challenge.inputs, challenge.seed)
    moment = now()
    house = tuple(challenge.inputs.get("house_rules") or ())
    slug = new_slug()
    record = continued(challenge)
    attacker_player, defender_player = players_of(challenge)  # a next round's: its record's, whoever asked
    if not claim(challenge):  # another press of this process is resolving it: this one lost the race
        await tell(interaction, f"Challenge #{challenge.id} was accepted by both: its result is being shown.")
        return
    try:
        record_id = await bot.store.challenges.resolve(
            challenge, report, agreed=agreement(challenge, last=last, at=moment, by="discord"),
            requested_by=attacker_player, opponent=defender_player, house_rules=house, at=moment,
            by=last, slug=slug, continues=record,
        )  # fmt: skip
    except AlreadyContinued as error:  # another round of the same record was recorded first: this one is moot
        release(challenge)
        await tell(interaction, f"{error} Nothing was rolled for challenge #{challenge.id}.")
        return
    except StorageError as error:  # maybe resolved after all (its acknowledgement lost): a later press shows it
        release(challenge)
        if not (is_transient(error) and not never_sent(error)):
            raise
        await storage_failed(interaction, error, MAYBE_RESOLVED)
        return
    except ChallengeClosed:
        release(challenge)
        again = await bot.store.challenges.get(challenge.id)
        if again is not None and again.status == "open" and not again.expired():
            await tell(interaction, stale(again, challenge.inputs_version))
        else:
            await tell(interaction, what_became(again or challenge))
        return
    bot.health.record(recorded=True)
    interaction.extras["outcome"] = report.result.outcome
    message = interaction.message
    await show_recorded(
        interaction, report, record_id=record_id, problem=None, house_rules=house, private=False, slug=slug,
        players=player_mentions(*players_of(challenge)),
        message_id=None if message is None else message.id, content=reveal_text(challenge, record_id),
    )  # fmt: skip


def fixed_sides(challenge: StoredChallenge, record: int) -> str:
    """Why a next round's challenge has no Change my side."""
    return (f"The next round's sides are the survivors of combat #{record}, as its record left them: there is no "
            f"side to change. Decline, then continue it yourself with your positions "
            f"(`/{get_game(challenge.game).command} continue record:{record}`).")  # fmt: skip


async def post_next_round(
    bot: BotServices, interaction: discord.Interaction[Any], game: Game, *, record: StoredCombat,
    sides: tuple[str, str], options: dict[str, Any], positions: str, hold: CollectorHold | None = None,
) -> StoredChallenge | None:  # fmt: skip
    """The next round of an agreed combat (``record``, its ``agreed_json`` set) is agreed too: its player who
    asks challenges the other with the survivors and ``options`` (``positions``: which positions applied, said on
    the challenge), the seed drawn and committed; the other accepts or declines. A third member is refused
    privately (None), and so is anyone when one of its players erased their data (nobody could accept)."""
    asker = str(interaction.user.id)
    players = (record.requested_by, record.opponent)
    if not all(player and player.isdigit() for player in players):  # a pseudonym: that player erased their data
        await tell(interaction, f"Combat #{record.id} was agreed with a player who has since erased their data: "
                   "nobody is left to agree its next round with, so it cannot go on.")  # fmt: skip
        bot.health.answer(interaction.id)
        return None
    if asker not in players or record.opponent is None:
        await tell(interaction, f"Combat #{record.id} was agreed between {mention(players[0])} and "
                   f"{mention(players[1])}: only they can continue it, and its next round is a challenge between "
                   "them.")  # fmt: skip
        bot.health.answer(interaction.id)
        return None
    other = record.opponent if asker == record.requested_by else record.requested_by
    seed, salt = draw_seed(), draw_salt()
    with reading_canonical():  # the survivors are canonical text, maybe longer than a player may type
        report = resolve(catalogue().game(game), *sides, seed=seed, **options)
    inputs = inputs_as_read(report, options, record.house_rules) | {
        "continues": record.id, "players": list(players), "positions": positions,
    }  # fmt: skip
    posted = await open_challenge(bot, interaction, game, inputs=inputs, seed=seed, salt=salt, challenger=asker,
                                  opponent=other, hold=hold,
                                  content=f"<@{other}>: {mention(asker)} asks you to fight the next round of combat "
                                  f"#{record.id}.")  # fmt: skip
    # One next round challenged at a time: an older challenge of it (the other player's, or an earlier one) closes.
    for older in await bot.store.challenges.replace_next_rounds(posted):
        try:
            await show_in_channel(interaction.client, older, replaced_by=posted.id)
        except discord.HTTPException:
            log.warning("challenge #%d was replaced by #%d; its message could not be edited", older.id, posted.id)
    return posted


async def change(interaction: discord.Interaction[Any], challenge: StoredChallenge, mine: str) -> None:
    """Change my side: the opponent's form, filled with their side as it stands (their roster's name if they gave
    one)."""
    if mine != "opponent":
        await tell(interaction, f"Only {mention(challenge.opponent_id)} changes their side. You can Accept a change "
                                "they make, or Cancel the challenge.")  # fmt: skip
        return
    if (record := continued(challenge)) is not None:
        await tell(interaction, fixed_sides(challenge, record))
        return
    current = str(challenge.inputs.get("defender_reference") or challenge.inputs.get("defender", ""))
    field: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Your units, or @roster / @roster/unit", style=discord.TextStyle.paragraph, max_length=SIDE_MAX,
        default=current if len(current) <= SIDE_MAX else None, custom_id="side",
        placeholder=cut(get_game(challenge.game).example_defender, 100),
    )  # fmt: skip
    # Read by on_modal below (after a restart too); the form's own callback does nothing.
    modal = discord.ui.Modal(title=f"Your side in challenge #{challenge.id}", custom_id=f"referee:chmodal:"
                             f"{challenge.id}", timeout=3600)  # fmt: skip
    modal.add_item(field)
    await interaction.response.send_modal(modal)


async def close(interaction: discord.Interaction[Any], challenge: StoredChallenge, mine: str, action: str) -> None:
    """Decline (the opponent's) or Cancel (the challenger's): the message says what became of it."""
    owner = "opponent" if action == "decline" else "challenger"
    if mine != owner:
        can = "Accept, Change my side or Decline" if mine == "opponent" else "Cancel it, or Accept a change"
        await tell(interaction, f"Only {mention(getattr(challenge, f'{owner}_id'))} can {action} it. You can {can}.")
        return
    bot: BotServices = interaction.client
    done = await (bot.store.challenges.decline if action == "decline" else bot.store.challenges.cancel)(challenge.id)
    again = await bot.store.challenges.get(challenge.id) or challenge
    if not done:
        await tell(interaction, what_became(again) if again.status != "open" else
                   f"Challenge #{challenge.id} changed meanwhile: try again.")  # fmt: skip
        return
    await show_closed(interaction, again)


async def show_closed(interaction: discord.Interaction[Any], challenge: StoredChallenge) -> None:
    """The pressed challenge's message shows what became of it (declined, cancelled, expired), its buttons gone."""
    await show_challenge(interaction, challenge, view=None, content=None)


async def on_modal(interaction: discord.Interaction[Any]) -> None:
    """The Change my side form sent: the opponent's new side, read from their rosters then the server's; the
    message shows it and the challenger is pinged to accept or cancel."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    data: Any = interaction.data or {}
    found = MODAL_ID.match(str(data.get("custom_id", "")))
    if found is None:
        return
    try:
        await interaction.response.defer()  # the form's side is read, its rosters looked up, the challenge changed
        challenge = await load(interaction, int(found[1]))
        if challenge is None:
            return
        if str(interaction.user.id) != challenge.opponent_id:
            await tell(interaction, f"Only {mention(challenge.opponent_id)} changes their side.")
            return
        if (record := continued(challenge)) is not None:
            await tell(interaction, fixed_sides(challenge, record))
            return
        await submit(interaction, challenge, side_text(data))
    except StorageError as error:
        await storage_failed(interaction, error)


def side_text(data: Any) -> str:
    for row in data.get("components") or []:
        for component in row.get("components") or [row]:
            if component.get("custom_id") == "side":
                return str(component.get("value") or "")
    return ""


async def submit(interaction: discord.Interaction[Any], challenge: StoredChallenge, text: str) -> None:
    bot: BotServices = interaction.client
    game = get_game(challenge.game)
    owner, guild = str(interaction.user.id), guild_of(interaction)

    async def lookup(game_id: str, name: str) -> Any:  # the opponent's own rosters, then the server's
        return await bot.store.rosters.get(owner, game_id, name, guild_id=guild)

    try:
        inputs = await changed_defender(game, challenge, text, lookup)
    except RefereeError as error:
        await tell(interaction, "", referee_error_embed(error))
        return
    if {k: v for k, v in inputs.items() if k != "defender_reference"} == {
        k: v for k, v in challenge.inputs.items() if k != "defender_reference"
    }:
        await tell(interaction, "That is your side as it stands: press Accept to accept it.")
        return
    try:
        changed = await bot.store.challenges.change(challenge, inputs)
    except ChallengeClosed:
        again = await bot.store.challenges.get(challenge.id) or challenge
        await tell(interaction, what_became(again) if again.status != "open" or again.expired() else
                   f"Challenge #{challenge.id} changed meanwhile: read it again.")  # fmt: skip
        return
    await show_challenge(interaction, changed, view=challenge_view(changed), content=None)
    await interaction.followup.send(
        f"<@{changed.challenger_id}>: {mention(changed.opponent_id)} changed their side of challenge "
        f"#{changed.id}. Accept it or Cancel.", allowed_mentions=mentions_of(changed.challenger_id),
    )  # fmt: skip


async def show_in_channel(
    client: discord.Client, challenge: StoredChallenge, *, replaced_by: int | None = None
) -> None:  # fmt: skip
    """A challenge's message edited by the bot on its own (no press to answer): shown as it now stands (expired,
    replaced by ``replaced_by``), its buttons gone. Nothing to edit for a challenge whose message was never stored,
    nor for one whose message was deleted (nobody is waiting on it: a line in the log, no traceback); any other
    refusal raises."""
    if challenge.message_id is None or challenge.channel_id is None:
        return
    guild = None if challenge.guild_id is None else int(challenge.guild_id)
    channel = client.get_partial_messageable(int(challenge.channel_id), guild_id=guild)
    embed = challenge_embed(challenge, get_game(challenge.game), replaced_by=replaced_by)
    try:
        await channel.get_partial_message(int(challenge.message_id)).edit(content=None, embed=embed, view=None)
    except discord.NotFound:
        log.info("challenge #%d is %s; its message was deleted", challenge.id, challenge.status)


async def show_expired(client: discord.Client, challenge: StoredChallenge) -> None:
    """The expiry sweep's edit (bot/challenges/expiry.py ``sweep_expired(store, partial(show_expired, bot))``): the
    challenge's message shown expired (:func:`show_in_channel`); the sweep logs any refusal."""
    await show_in_channel(client, challenge)


__all__ = [
    "ChallengeButton",
    "challenge_view",
    "on_modal",
    "post_challenge",
    "post_next_round",
    "show_expired",
    "wanted",
]
