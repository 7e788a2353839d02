"""The Discord bot: an AutoShardedBot holding one store, the cogs (loaded by name: the app imports none of them),
structured command logs and error ids (a bug, or the database failing: the user is told privately, in one
sentence, and the log holds the traceback under the same id)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import signal
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import log_lines
from bot.data import catalogue
from bot.discord.challenges import ChallengeButton, on_modal
from bot.discord.collector import Collector
from bot.discord.cooldown import refund
from bot.discord.errors import (
    answered_elsewhere,
    apology,
    error_embed,
    gone_embed,
    new_error_id,
    referee_error_embed,
    warn_answered_elsewhere,
)
from bot.discord.health import HEALTH_INTERVAL, Health
from bot.discord.record_writer import RecordWriter
from bot.discord.results import PageButton, RollPageButton, ShowRollsButton, VerifyButton, WhyButton
from bot.discord.settings import Settings
from bot.server_settings.cache import SettingsCache
from bot.storage import StorageError, Store
from rules_core import RefereeError

log = logging.getLogger("referee.bot")
# The referee never joins a voice channel. discord.py warns once per process, when its first client is made, that
# voice's libraries (PyNaCl, davey) are missing: two WARNING lines in every start's log that ask nothing of an
# operator. Its own once-only flags are turned off; its loggers, and every other warning, are left as they are.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False
SHUTDOWN_GRACE = 10.0  # seconds given to answers still being recorded when the bot stops
RESTARTING = "The referee is restarting: try again in a few seconds."
EXTENSIONS = (
    "cogs.combat", "cogs.records", "cogs.rosters", "cogs.tools", "cogs.privacy", "cogs.leagues", "cogs.odds",
    "cogs.settings", "cogs.challenges",
)  # fmt: skip


class RefereeTree(app_commands.CommandTree["RefereeBot"]):
    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        # Every command is waited for on shutdown from its first step (a /continue reads its record before it
        # answers): its task is known from here, before anything it awaits.
        client = interaction.client
        task = asyncio.current_task()
        if isinstance(client, RefereeBot) and task is not None:
            client.track(task)
        return True

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        client = interaction.client
        if answered_elsewhere(original):  # lost the race to another process of this shard: say nothing more
            if isinstance(client, RefereeBot):
                client.started.pop(interaction.id, None)
            warn_answered_elsewhere(interaction, _command_name(interaction))
            return
        if isinstance(original, RefereeError):  # every error a user can fix, the engine's and the bot's
            refund(interaction)  # refused for its input: no result, so it does not count toward the rate limit
            embed = referee_error_embed(original)
        elif isinstance(original, StorageError):  # the store turns every failure under it into one
            error_id = new_error_id()
            log.error("error %s in /%s: %s", error_id, _command_name(interaction), original, exc_info=original)
            embed = error_embed(original.for_player(error_id))
        elif isinstance(error, app_commands.CommandOnCooldown):
            embed = error_embed(f"Slow down: try again in {error.retry_after:.0f} seconds.")
        elif isinstance(error, app_commands.CommandNotFound):  # a client's stale list (a command moved or went)
            embed = gone_embed(error.parents, error.name)
        elif isinstance(error, app_commands.CheckFailure):
            embed = error_embed(str(error) or "You cannot use this command here.")
        else:
            error_id = new_error_id()
            log.error("error %s in /%s", error_id, _command_name(interaction), exc_info=original)
            embed = apology(error_id)
        began = client.started.pop(interaction.id, None) if isinstance(client, RefereeBot) else None
        latency = None if began is None else round((time.perf_counter() - began) * 1000, 1)
        outcome = f"error: {type(original).__name__}"
        try:
            await send_ephemeral(interaction, embed)
        except discord.HTTPException as refused:  # another process of this shard answered first (its result, or
            if not answered_elsewhere(refused):  # the same refusal): its command line says so, not this one
                log_command(interaction, _command_name(interaction), latency, outcome)
                raise
            warn_answered_elsewhere(interaction, _command_name(interaction))
            return
        log_command(interaction, _command_name(interaction), latency, outcome)
        if isinstance(client, RefereeBot):
            client.health.answer(interaction.id)


def log_command(interaction: discord.Interaction[Any], name: str, latency: float | None, outcome: str) -> None:
    """One structured line per command: game, guild, the shard that received it, latency, outcome and the
    interaction's id (one line per interaction: several processes' logs together say which one answered it)."""
    shard = interaction.guild.shard_id if interaction.guild is not None else 0
    log.info(json.dumps({"command": name, "guild": interaction.guild_id, "shard": shard, "latency_ms": latency,
                         "outcome": outcome, "interaction": interaction.id}))  # fmt: skip


async def send_ephemeral(interaction: discord.Interaction[Any], embed: discord.Embed) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, ephemeral=True)


def _command_name(interaction: discord.Interaction[Any]) -> str:
    command = interaction.command
    return command.qualified_name if command is not None else "?"


class RefereeBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, *, health_interval: float = HEALTH_INTERVAL) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # slash commands need no privileged intent
        sharding: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shards is not None:
            sharding["shard_ids"] = settings.shards
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=RefereeTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **sharding,
        )
        self.settings = settings
        self._store: Store | None = None
        self._writer: RecordWriter | None = None
        self.started: dict[int, float] = {}
        self.collector = Collector()  # held off while first answers are being worked out
        self.in_flight: set[asyncio.Task[Any]] = set()  # results being recorded, waited for on shutdown
        self.answering: set[asyncio.Task[Any]] = set()  # commands (and refusals) running, waited for on shutdown
        self.stopping = False  # set as close() begins: interactions from then on are refused, privately
        # Interactions are refused at the gateway's door once stopping, before discord.py starts their command.
        self._parse_interaction = self._connection.parsers["INTERACTION_CREATE"]
        self._connection.parsers["INTERACTION_CREATE"] = self._interaction_create
        self._web = contextlib.AsyncExitStack()  # the web pages, when this process serves them (--web)
        self.server_settings = SettingsCache()  # every server's settings and players' preferences, in memory
        self._settings_poll: asyncio.Task[None] | None = None  # keeps the cache correct (bot/server_settings/cache.py)
        self.health = Health(health_interval)  # the counters of the health line (bot/discord/health.py)
        self._health_lines: asyncio.Task[None] | None = None

    @property
    def store(self) -> Store:
        if self._store is None:
            raise StorageError("the store is not open yet")
        return self._store

    @property
    def writer(self) -> RecordWriter:
        if self._writer is None:
            self._writer = RecordWriter(self.store, retry_seconds=self.settings.record_retry_seconds)
        return self._writer

    async def setup_hook(self) -> None:
        catalogue().games()  # every game bound to its data files once, before any command asks for one
        self._store = await Store.open(self.settings.database_url)
        # Every setting in memory before any command can run, then kept correct by a poll of the audit's version.
        await self.server_settings.load(self._store)
        self._settings_poll = asyncio.create_task(self.server_settings.poll(self._store), name="settings-poll")
        self._health_lines = asyncio.create_task(self.health.run(self.shard_list, lambda: len(self.in_flight)),
                                                 name="health-lines")  # fmt: skip
        if self.settings.serve_web:  # referee bot --web: the pages from this process, on its store and settings
            await self.start_web()
        # The result's buttons; the cogs add their own in their setup().
        self.add_dynamic_items(PageButton, VerifyButton, ShowRollsButton, RollPageButton, WhyButton)
        # A challenge's buttons, and its Change my side form read by its custom id (both answer after a restart).
        self.add_dynamic_items(ChallengeButton)
        self.add_listener(on_modal, "on_interaction")
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %s", len(synced), self.settings.dev_guild_id)
        # Everything loaded so far (modules, discord.py, SQLAlchemy, the cogs) lives as long as the process: move it
        # out of the collector's reach, so a full collection in the middle of a burst walks only what the
        # answers made since, not the whole program (measured by bench/bench_bot.py: ~90 ms down to a few).
        gc.collect()
        gc.freeze()

    async def close(self) -> None:
        # Stopping: interactions that arrive from now on are refused privately (the gateway stays open until the
        # end, so a player hears why rather than seeing "the application did not respond"). Commands and answers
        # being recorded finish first, up to SHUTDOWN_GRACE seconds in all (their write and their edit need the
        # store and Discord; a task may start another, so the wait goes on until none is left), then the record
        # writer writes what it still holds, then the cogs (a league sweep in progress finishes), Discord, the store.
        self.stopping = True
        deadline = time.monotonic() + SHUTDOWN_GRACE
        if self._writer is not None:  # results held through a database outage: tried until a second before the end,
            self._writer.stop_retrying(deadline - 1.0)  # then their answers say they are not recorded
        await asyncio.sleep(0)  # commands scheduled before the flag take their first step: they are tracked now
        while (running := (self.in_flight | self.answering) - {asyncio.current_task()}) and (
            left := deadline - time.monotonic()
        ) > 0:
            await asyncio.wait(running, timeout=left)
        if running:
            log.warning("stopping with %d answers unfinished after %.0f s", len(running), SHUTDOWN_GRACE)
        await self.stop_settings_poll()
        await self.stop_health_lines()
        await self._web.aclose()
        if self._writer is not None:  # what it holds is written, not dropped (a second at least, if time is up)
            await self._writer.close(timeout=max(deadline - time.monotonic(), 1.0))
            self._writer = None
        await super().close()
        if self._store is not None:
            await self._store.close()
            self._store = None
        gc.unfreeze()  # a process that starts another bot (the tests) lets the collector see this one's objects

    def track(self, task: asyncio.Task[Any]) -> None:
        """Wait for ``task`` on shutdown (a command's, a refusal's)."""
        self.answering.add(task)
        task.add_done_callback(self.answering.discard)

    def _interaction_create(self, data: Any) -> None:
        if not self.stopping and data.get("type") in (3, 5):
            # A button's or a form's handler is waited for on shutdown too (a Confirm commits, then edits and
            # announces): discord.py hands back no task, so it is found as the one this parse created.
            before = asyncio.all_tasks()
            self._parse_interaction(data)
            for task in asyncio.all_tasks() - before:
                self.track(task)
            return
        if not self.stopping:
            self._parse_interaction(data)
            return
        interaction: discord.Interaction[Any] = discord.Interaction(data=data, state=self._connection)
        self.health.arrive(interaction.id)
        self.track(asyncio.create_task(self._refuse(interaction), name="referee-refuse"))

    async def _refuse(self, interaction: discord.Interaction[Any]) -> None:
        """An interaction that came while stopping: a private sentence, no combat, no record (an autocomplete gets
        no choices)."""
        try:
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await interaction.response.send_message(embed=error_embed(RESTARTING), ephemeral=True)
        except discord.HTTPException as error:  # Discord closing as well: nothing more to say
            log.info("interaction %s not told of the restart: %s", interaction.id, error)
        if interaction.type is discord.InteractionType.application_command:
            data: Any = interaction.data or {}
            log_command(interaction, str(data.get("name", "?")), None, "refused: restarting")
        self.health.answer(interaction.id)

    async def start_web(self) -> None:
        from bot.web.app import serving  # noqa: PLC0415 (aiohttp's server and Jinja2 only with --web)
        from bot.web.config import WebConfig  # noqa: PLC0415

        config = WebConfig(database_url=self.settings.database_url, web_base_url=self.settings.web_base_url)
        await self._web.enter_async_context(serving(self.store, self.server_settings, config))

    def shard_list(self) -> list[int]:
        """The shards this process runs (SHARD_IDS, else every shard it connected)."""
        return list(self.shard_ids) if self.shard_ids is not None else sorted(self.shards)

    async def stop_health_lines(self, *, last_line: bool = True) -> None:
        """Stop the health lines, writing a last one for the time since the previous (a restart loses no count)."""
        lines, self._health_lines = self._health_lines, None
        if lines is not None:
            lines.cancel()
            await asyncio.gather(lines, return_exceptions=True)
            if last_line:
                self.health.write(self.shard_list(), len(self.in_flight))

    async def stop_settings_poll(self) -> None:
        poll, self._settings_poll = self._settings_poll, None
        if poll is not None:
            poll.cancel()
            await asyncio.gather(poll, return_exceptions=True)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # An interaction's clock starts here, as discord.py reads it from the gateway: the command's own task is
        # already scheduled, and an on_interaction listener would run only after that task's first slice (which
        # may be the whole resolution), so timing from there would leave it out.
        if event_name == "interaction" and args and isinstance(args[0], discord.Interaction):
            if args[0].type is discord.InteractionType.application_command:  # popped by its log line; a button's
                self.started[args[0].id] = time.perf_counter()  # or an autocomplete's would never be
            self.health.arrive(args[0].id)
        super().dispatch(event_name, *args, **kwargs)

    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: app_commands.Command[Any, ..., Any] | Any
    ) -> None:
        began = self.started.pop(interaction.id, None)
        latency = None if began is None else round((time.perf_counter() - began) * 1000, 1)
        log_command(interaction, command.qualified_name, latency, interaction.extras.get("outcome", "ok"))
        self.health.answer(interaction.id)  # a result was counted as it went out: not again


def configure_logging(level: str) -> None:
    log_lines.configure(level)  # one escaped line a record (bot/log_lines.py)
    logging.getLogger("discord.gateway").setLevel(max(logging.INFO, logging.getLevelName(level)))


async def run_bot(settings: Settings) -> None:
    """Start the bot and run until stopped. A rejected token raises discord.LoginFailure.

    SIGTERM (systemd's stop, a rolling restart) and SIGINT (Ctrl-C) stop it gracefully: interactions arriving from
    then on are refused privately, commands and answers still being recorded are finished (written and edited, up to
    SHUTDOWN_GRACE seconds), a league sweep in progress finishes, the gateway is closed cleanly, then the store. A
    second signal exits at once (status 128 + the signal's number)."""
    bot = RefereeBot(settings)
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []

    def stop(signal_number: int) -> None:
        name = signal.Signals(signal_number).name
        if not stopping:
            log.info("%s received: stopping (answers being recorded are finished first)", name)
            stopping.append(asyncio.create_task(bot.close(), name="referee-stop"))
            return
        # A second signal: the operator will not wait. Exit now, unclean (answers still open are lost), with the
        # shell's status for death by that signal (128 + its number), so systemd and scripts see it was forced.
        log.warning("%s received again: exiting at once, without finishing the answers still open", name)
        logging.shutdown()
        os._exit(128 + signal_number)

    for signal_number in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows' event loop
            loop.add_signal_handler(signal_number, stop, signal_number)
    async with bot:
        await bot.start(settings.discord_token.get_secret_value())
    if stopping:
        await stopping[0]
    log.info("stopped")


async def sync_commands(settings: Settings) -> int:
    """Sync the global commands once (never from several processes at the same time); the number synced."""
    bot = RefereeBot(settings)
    try:
        await bot.login(settings.discord_token.get_secret_value())  # runs setup_hook: store, cogs, dev guild
        return len(await bot.tree.sync())
    finally:
        await bot.stop_health_lines(last_line=False)  # `referee sync` answers nobody: no health line
        # Stopped as the bot stops: the cogs (the league sweep started on the store at login) before the store, so
        # no connection outlives it, nor the event loop (an aiosqlite thread answering a closed loop dies loudly).
        await bot.close()
