"""What the bot sends for a result: the result message, with buttons that survive restarts.
Long because a result shown by a command and one shown in place of an accepted challenge (issue 24) share every
piece here: the buttons, the record, the placement.

The buttons (pages, Verify, Show rolls and its pages, Why?) are DynamicItems: their custom ids carry the record
id and page, so a click after a restart reloads the stored record, checks that the presser may see it
(``bot.access``: a record one may not see reads as not found) and renders what was asked. Nothing lives only in
memory. Show rolls and Why? answer privately, so the channel keeps the short result.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.access import Actor
from bot.discord.client import BotServices
from bot.discord.collector import CollectorHold
from bot.discord.delivery import full_steps, post_copy, post_to_thread, shared, start_thread, thread_name, where
from bot.discord.errors import error_embed, new_error_id, referee_error_embed
from bot.discord.interactions import actor_of, guild_of, in_thread
from bot.render.colours import ERROR_COLOUR, GREEN, YELLOW
from bot.render.embeds import FOOTER, history_lines, render_pages, roll_pages, why_embed
from bot.render.markdown import cut, report_markdown
from bot.render.summary import Players
from bot.storage.failures import StorageError, is_storage_failure, is_transient, storage_error
from bot.storage.records import AlreadyContinued, RecordRequest, StoredCombat, new_slug
from bot.verification import Verdict, verify
from rules_core import RefereeError
from rules_core.compact import policy_notes
from rules_core.report import Report

log = logging.getLogger("referee.bot")


def player_mentions(requested_by: str | None, opponent: str | None) -> Players:
    """The attacker's and the defender's players as Discord mentions (``<@id>``): whoever asked for the combat
    fights as the attacker, the ``opponent`` option names the defender. An id that is not a Discord user's (a
    combat recorded from the terminal) names nobody."""

    def mention(who: str | None) -> str | None:
        return f"<@{who}>" if who and who.isdigit() else None

    return mention(requested_by), mention(opponent)


def page_turner(kind: str, record_id: int, page: int, *, label: str, disabled: bool) -> discord.ui.Button[Any]:
    """A button that turns to ``page`` of a record's result (``page``) or of its rolls (``rollpage``): its custom id
    carries both, so it answers after a restart."""
    custom_id = f"referee:{kind}:{record_id}:{page}"
    return discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=custom_id, disabled=disabled)


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"referee:page:(?P<record>\d+):(?P<page>\d+)"
):
    def __init__(self, record_id: int, page: int, *, label: str, disabled: bool = False) -> None:
        super().__init__(page_turner("page", record_id, page, label=label, disabled=disabled))
        self.record_id, self.page = record_id, page

    @classmethod
    async def from_custom_id(
        cls, _interaction: discord.Interaction[Any], _item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        return cls(int(match["record"]), int(match["page"]), label="page")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """The press of whoever asked for the message (the combat, or its /replay) turns the shared message's page;
        anyone else's shows them the page privately (with buttons of their own), so nobody pages someone else's
        result or fights over one message."""
        bot: BotServices = interaction.client
        try:
            stored = await bot.store.records.get(self.record_id, actor=actor_of(interaction))
        except (RefereeError, StorageError) as error:  # hidden or missing; or the database failed
            await interaction.response.send_message(embed=button_error_embed(error), ephemeral=True)
            return
        # In the presser's preference (one line a step, or every step in full): the pages are theirs to turn.
        pages = render_pages(stored.report, record_id=stored.id, history=history_lines(stored.history),
                             players=player_mentions(stored.requested_by, stored.opponent),
                             house_rules=stored.house_rules,
                             full_steps=full_steps(bot, interaction))  # fmt: skip
        page = max(0, min(self.page, len(pages) - 1))
        view = result_view(stored.id, page, len(pages), report=stored.report, web_url=stored_web_page(bot, stored))
        message = interaction.message
        own_copy = message is not None and message.flags.ephemeral  # a private copy: only its presser sees it
        asked = message.interaction_metadata if message is not None else None
        owner = str(asked.user.id) if asked is not None else stored.requested_by
        if str(interaction.user.id) == owner or own_copy:
            await interaction.response.edit_message(embed=pages[page], view=view)
            return
        await interaction.response.send_message(embed=pages[page], ephemeral=True, view=view)


class VerifyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"referee:verify:(?P<record>\d+)"):
    def __init__(self, record_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Verify", style=discord.ButtonStyle.primary, custom_id=f"referee:verify:{record_id}"
            )
        )
        self.record_id = record_id

    @classmethod
    async def from_custom_id(
        cls, _interaction: discord.Interaction[Any], _item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> VerifyButton:
        return cls(int(match["record"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: BotServices = interaction.client
        try:
            embed = await verify_embed(bot, self.record_id, actor_of(interaction))
        except (RefereeError, StorageError) as error:  # hidden or missing; or the database failed
            embed = button_error_embed(error)
        await interaction.response.send_message(embed=embed, ephemeral=True)


class ShowRollsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"referee:rolls:(?P<record>\d+)"):
    """Shows whoever presses it, privately, every step of the record in full with its dice (paged)."""

    def __init__(self, record_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Show rolls", style=discord.ButtonStyle.secondary, custom_id=f"referee:rolls:{record_id}"
            )
        )
        self.record_id = record_id

    @classmethod
    async def from_custom_id(
        cls, _interaction: discord.Interaction[Any], _item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ShowRollsButton:
        return cls(int(match["record"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await show_rolls(interaction, self.record_id, 0, edit=False)


class RollPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"referee:rollpage:(?P<record>\d+):(?P<page>\d+)"
):
    """Turns the pages of the private rolls message :class:`ShowRollsButton` sent (only its presser sees it)."""

    def __init__(self, record_id: int, page: int, *, label: str, disabled: bool = False) -> None:
        super().__init__(page_turner("rollpage", record_id, page, label=label, disabled=disabled))
        self.record_id, self.page = record_id, page

    @classmethod
    async def from_custom_id(
        cls, _interaction: discord.Interaction[Any], _item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RollPageButton:
        return cls(int(match["record"]), int(match["page"]), label="page")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        message = interaction.message
        await show_rolls(interaction, self.record_id, self.page, edit=message is not None and message.flags.ephemeral)


async def show_rolls(interaction: discord.Interaction[Any], record_id: int, page: int, *, edit: bool) -> None:
    """A record's full rolls, page ``page``, to the presser alone: a new private message, or (``edit``) the private
    rolls message turned to that page. Whoever may not see the record is told it is not found."""
    bot: BotServices = interaction.client
    try:
        stored = await bot.store.records.get(record_id, actor=actor_of(interaction))
    except (RefereeError, StorageError) as error:  # hidden or missing; or the database failed
        await interaction.response.send_message(embed=button_error_embed(error), ephemeral=True)
        return
    pages = roll_pages(stored.report, record_id=stored.id)
    page = max(0, min(page, len(pages) - 1))
    view = discord.ui.View(timeout=None)
    if len(pages) > 1:
        view.add_item(RollPageButton(stored.id, max(page - 1, 0), label="◀ Previous", disabled=page == 0))
        view.add_item(RollPageButton(stored.id, min(page + 1, len(pages) - 1), label="Next ▶",
                                     disabled=page >= len(pages) - 1))  # fmt: skip
    if edit:
        await interaction.response.edit_message(embed=pages[page], view=view)
    else:
        await interaction.response.send_message(embed=pages[page], view=view, ephemeral=True)


class WhyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"referee:why:(?P<record>\d+)"):
    """Says privately how the referee made the players' choices (which models die...): the policy paragraphs that
    would crowd the channel."""

    def __init__(self, record_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="Why?", style=discord.ButtonStyle.secondary, custom_id=f"referee:why:{record_id}")
        )
        self.record_id = record_id

    @classmethod
    async def from_custom_id(
        cls, _interaction: discord.Interaction[Any], _item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> WhyButton:
        return cls(int(match["record"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: BotServices = interaction.client
        try:
            stored = await bot.store.records.get(self.record_id, actor=actor_of(interaction))
        except (RefereeError, StorageError) as error:  # hidden or missing; or the database failed
            await interaction.response.send_message(embed=button_error_embed(error), ephemeral=True)
            return
        embed = why_embed(stored.report, record_id=stored.id) or discord.Embed(
            title=f"Record #{stored.id}", description="The referee made no choice for the players in this combat."
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


NOT_RECORDED_ROLLS = "Show rolls: not recorded, see the attached log"


def button_error_embed(error: RefereeError | StorageError) -> discord.Embed:
    """A button's answer when it cannot act (a button has no command tree's error handler): a record one may not
    see reads like one that does not exist; a database failure is one sentence, its traceback logged by error id."""
    if isinstance(error, RefereeError):
        return referee_error_embed(error)
    error_id = new_error_id()
    log.error("error %s in a button: %s", error_id, error, exc_info=error)
    return error_embed(error.for_player(error_id))


VERDICT_COLOURS = {Verdict.IDENTICAL: GREEN, Verdict.ALTERED: ERROR_COLOUR, Verdict.OTHER_ENGINE: YELLOW}
VERDICT_TITLES = {Verdict.IDENTICAL: "verified", Verdict.ALTERED: "does NOT verify",
                  Verdict.OTHER_ENGINE: "cannot be re-run here"}  # fmt: skip


async def verify_embed(bot: BotServices, record_id: int, actor: Actor) -> discord.Embed:
    """Re-run a stored combat (one ``actor`` may see) from its seed and inputs: identical, or altered."""
    verification = verify(await bot.store.records.get(record_id, actor=actor))
    embed = discord.Embed(
        title=f"Record #{record_id} {VERDICT_TITLES[verification.verdict]}",
        description=verification.message,
        colour=VERDICT_COLOURS[verification.verdict],
    )
    if verification.differences:  # what differs: the seed or the commitment of a challenge's record, the steps...
        embed.add_field(name="What differs", value=cut("\n".join(verification.differences), 1024), inline=False)
    return embed


def web_page(bot: BotServices, slug: str, *, guild_id: str | None, private: bool) -> str | None:
    """A combat's web page (``{WEB_BASE_URL}/c/{slug}``) when it is shown there: the bot knows its public address,
    the combat is public (not private, not from direct messages) and its server publishes its pages; else None."""
    base = bot.settings.web_base_url
    if base is None or private or guild_id is None or not bot.server_settings.effective(guild_id, None).web_public:
        return None
    return f"{base}/c/{slug}"


def stored_web_page(bot: BotServices, stored: StoredCombat) -> str | None:
    """A stored combat's web page, if it is shown there (see :func:`web_page`)."""
    return web_page(bot, stored.slug, guild_id=stored.guild_id, private=stored.personal)


def result_view(
    record_id: int | None, page: int, pages: int, *, report: Report | None = None, web_url: str | None = None
) -> discord.ui.View:
    """The result's buttons: its pages, Verify, Show rolls, Why? when the referee made a player's choice in
    ``report``, and a link to its web page (``web_url``) when it has one. An unrecorded result cannot be reloaded by
    a button: its Show rolls is disabled and says why (the full log is attached to it instead)."""
    if record_id is None:
        # Nothing to press, so nothing to listen for: a short timeout lets discord.py forget the view.
        unrecorded = discord.ui.View(timeout=1)
        unrecorded.add_item(discord.ui.Button(label=NOT_RECORDED_ROLLS, custom_id="referee:rolls:none", disabled=True))
        return unrecorded
    view = discord.ui.View(timeout=None)
    if pages > 1:
        # A custom id must be valid and unique in the message: the disabled ends point at their own page.
        view.add_item(PageButton(record_id, max(page - 1, 0), label="◀ Previous", disabled=page == 0))
        view.add_item(PageButton(record_id, min(page + 1, pages - 1), label="Next ▶", disabled=page >= pages - 1))
    view.add_item(VerifyButton(record_id))
    view.add_item(ShowRollsButton(record_id))
    if report is not None and policy_notes(report.steps):
        view.add_item(WhyButton(record_id))
    if web_url is not None:
        view.add_item(discord.ui.Button(label="Web page", style=discord.ButtonStyle.link, url=web_url))
    return view


async def record(
    bot: BotServices, report: Report, interaction: discord.Interaction[Any], *, opponent: str | None,
    private: bool, continues: int | None = None, house_rules: tuple[str, ...] = (), slug: str | None = None,
    sides: tuple[str, str | None] | None = None,
) -> tuple[int | None, str | None, asyncio.Future[int | None] | None]:  # fmt: skip
    """Store the result; any storage failure is logged (traceback and error id) and returned as the reason it is
    'not recorded' (what failed, in a player's words, and the error id), never raised. Not recorded, the third is
    the record id it may turn out to have after all (its last attempt's acknowledgement was lost), when it may.
    ``sides``: the attacker's and the defender's players to record (a continued combat's, whichever of them asked);
    by default the asker and the ``opponent``."""
    attacker_player, defender_player = sides or (str(interaction.user.id), opponent)
    request = RecordRequest(
        report,
        requested_by=attacker_player,
        opponent=defender_player,
        guild_id=guild_of(interaction),
        channel_id=None if interaction.channel_id is None else str(interaction.channel_id),
        continues=continues,
        private=private or interaction.guild_id is None,  # resolved in direct messages: no server's to show
        house_rules=house_rules,
        slug=slug or new_slug(),
    )
    try:
        record_id = await bot.writer.record(request)
    except AlreadyContinued as error:  # the player's doing, not a failure: the health line does not count it
        return None, str(error), None
    except Exception as error:
        if not is_storage_failure(error):
            raise
        bot.health.record(recorded=False)  # operators watch this count (docs/deploy.md, "What to watch")
        failure = storage_error(error, bot.store.url)
        error_id = new_error_id()
        # A failure that passes was held and tried for RECORD_RETRY_SECONDS: its cause is known, no traceback.
        log.error("error %s: combat not recorded: %s", error_id, failure,
                  exc_info=None if is_transient(error) else error)  # fmt: skip
        return None, f"{failure.reason}; error id {error_id}", bot.writer.late(request.write_key)
    bot.health.record(recorded=True)
    return record_id, None, None


async def send_result(
    interaction: discord.Interaction[Any], report: Report, *, private: bool, opponent: str | None,
    continues: int | None = None, hold: CollectorHold | None = None, note: str | None = None,
    players: Players | None = None, house_rules: tuple[str, ...] = (), sides: tuple[str, str | None] | None = None,
) -> int | None:  # fmt: skip
    """Show the (already valid) result at once, then store it and edit in its record id and buttons.

    The summary names the players (``players``: the attacker's and the defender's mentions; by default the
    requester and the ``opponent``); a public result pings the opponent once, in its content, and nobody else.
    ``house_rules``: the names of the options that came from house rules, said in the summary and kept on the record.
    ``sides``: the players recorded as the attacker's and the defender's (see ``record``).

    Shown first, stored second, as on the command line: the answer never waits on the database, so Discord's
    3-second deadline is never at risk, and a failed write only changes the footer to "not recorded".

    Once recorded, the server's settings place it (bot/discord/delivery.py): a long public result's pages and log
    in a thread on its message, a copy of its summary in the results channel. The steps are listed as the asker
    prefers (one line each, or in full with their dice).
    """
    bot: BotServices = interaction.client
    task = asyncio.current_task()
    if task is not None:
        bot.in_flight.add(task)
        task.add_done_callback(bot.in_flight.discard)
    players = players or player_mentions(str(interaction.user.id), opponent)
    first = render_pages(report, pending=True, players=players, house_rules=house_rules)
    ping = opponent if opponent and opponent.isdigit() and not private else None
    content = " ".join(part for part in (f"<@{ping}>" if ping else None, note) if part) or None
    mentions = discord.AllowedMentions.none()
    if ping:  # the opponent alone: never @everyone, a role or anyone a unit's name might spell
        mentions.users = [discord.Object(id=int(ping))]
    sent = await interaction.response.send_message(content=content, embed=first[0], ephemeral=private,
                                                   allowed_mentions=mentions)  # fmt: skip
    bot.health.answer(interaction.id)  # the first answer is out (timed here, before the result is recorded)
    if hold is not None:
        hold.release()  # the first answer is out: the collector may catch up
    slug = new_slug()  # its web address, known before it is written
    record_id, problem, late = await record(bot, report, interaction, opponent=opponent, private=private,
                                            continues=continues, house_rules=house_rules, slug=slug,
                                            sides=sides)  # fmt: skip
    shown = functools.partial(show_recorded, interaction, report, players=players, house_rules=house_rules,
                              private=private, message_id=sent.message_id, slug=slug)  # fmt: skip
    await shown(record_id=record_id, problem=problem)
    if late is not None:  # told "not recorded", but its last attempt may have committed: corrected if it did
        correcting = asyncio.create_task(correct_later(bot, late, shown), name="referee-correct-not-recorded")
        CORRECTING.add(correcting)
        correcting.add_done_callback(CORRECTING.discard)
    return record_id


CORRECTING: set[asyncio.Task[None]] = set()  # corrections waiting for a result that may be written after all


async def correct_later(
    bot: BotServices, late: asyncio.Future[int | None], shown: Callable[..., Awaitable[None]]
) -> None:
    """Edit a result told "not recorded" into its record (id, buttons) if the writer finds it written after all
    (looked for while its message can still be edited: bot/discord/record_writer.py)."""
    record_id = await late
    if record_id is None:
        return
    bot.health.record(recorded=True)  # its "not recorded" was counted when told; the log line says it was found
    try:
        await shown(record_id=record_id, problem=None)
    except discord.HTTPException:  # the message is gone or no longer editable: the record stands, logged
        log.warning("record #%d was found written after its answer said it was not, but the answer could not be "
                    "corrected", record_id, exc_info=True)  # fmt: skip


async def show_recorded(
    interaction: discord.Interaction[Any], report: Report, *, record_id: int | None, problem: str | None,
    players: Players, house_rules: tuple[str, ...], private: bool, message_id: int | None, slug: str,
    content: str | None = None,
) -> None:  # fmt: skip
    """Edit the interaction's message into the recorded result (``record_id``, or ``problem``: why it is not),
    its buttons and, where the settings say, its thread and its results channel's copy; ``content`` replaces the
    message's text (a challenge's reveal)."""
    bot: BotServices = interaction.client
    pages = render_pages(report, record_id=record_id, not_recorded=problem, players=players, house_rules=house_rules,
                         full_steps=full_steps(bot, interaction))  # fmt: skip
    files = []
    # The full log goes with a result whose rolls take more than one private page, and with one that is not
    # recorded (its buttons cannot reload it): the whole combat, every die, in one file.
    if len(pages) > 1 or record_id is None or len(roll_pages(report)) > 1:
        name = f"combat-{record_id}.md" if record_id is not None else "combat.md"
        text = report_markdown(report, record_id=record_id).encode("utf-8")
        files.append(discord.File(io.BytesIO(text), filename=name, description="The full combat log"))
    settings = where(bot, interaction)
    public = shared(interaction, private)
    thread = None
    if public and settings.threads and len(pages) > 1 and message_id is not None and not in_thread(interaction):
        # A long result's pages and log go to a thread on its message; the channel keeps the summary and buttons
        # (not in a thread already: a thread has no threads of its own).
        thread = await start_thread(interaction, message_id, thread_name(report, record_id))
    # The pages go to the thread before the channel's message drops the log: a thread that refuses them (no Send
    # Messages in Threads) leaves the log with the result, as without threads.
    placed = thread is not None and await post_to_thread(thread, pages, files)
    if thread is not None and not placed:
        files = [discord.File(io.BytesIO(file.fp.getvalue()), filename=file.filename, description=file.description)
                 for file in files if isinstance(file.fp, io.BytesIO)]  # fmt: skip
    web_url = None if record_id is None else web_page(bot, slug, guild_id=guild_of(interaction), private=private)
    view = result_view(record_id, 0, len(pages), report=report, web_url=web_url)
    if record_id is None and len(pages) > 1:  # no record to turn its pages by: say where the other steps are
        where_rest = "every page in the thread" if placed else "the other steps in the attached log"
        pages[0].set_footer(text=cut(f"{str(pages[0].footer.text).rsplit(' · page ', 1)[0]} · {where_rest}", FOOTER))
    shown: Any = discord.utils.MISSING if content is None else content  # the message's text kept, unless given
    try:
        await interaction.edit_original_response(embed=pages[0], attachments=[] if placed else files, view=view,
                                                 content=shown)  # fmt: skip
    except discord.NotFound:  # the message was deleted meanwhile (an accepted challenge's): the result goes below
        await interaction.followup.send(embed=pages[0], files=[] if placed else files, view=view, content=shown)
    if public and settings.results_channel is not None:
        summary = render_pages(report, record_id=record_id, not_recorded=problem, players=players,
                               house_rules=house_rules, summary_only=True)  # fmt: skip
        await post_copy(interaction, settings, summary[0], message_id)


__all__ = [
    "PageButton",
    "RollPageButton",
    "ShowRollsButton",
    "VerifyButton",
    "WhyButton",
    "button_error_embed",
    "player_mentions",
    "result_view",
    "send_result",
    "show_recorded",
    "stored_web_page",
    "verify_embed",
]
