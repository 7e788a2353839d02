"""What a player sees: a message the bot sent through the fake Discord, drawn as Discord's dark theme draws it, then
measured or photographed in headless Chromium (Selenium driving Debian's /usr/bin/chromium).

Shared by tests/e2e/test_phone_screen.py (the quick-start result fits one phone screen) and
docs/screenshots/make.py (the pictures in the README). The theme follows the issue's measurements of Discord: a
#313338 channel, embeds on #2b2d31 with a 4 px left border in the embed's colour and 16 px padding, body text 14 px
on 18 px lines, titles 16 px, fields stacked under 600 px (a phone) and up to three a row above, buttons under the
embeds, attached images shown (at most 400 px wide, and the message's width on a phone), other files as cards.
Discord's own font (gg sans) is not free: Noto Sans stands in, a little wider, so heights err on the tall side.
"""

from __future__ import annotations

import base64
import html
import itertools
import os
import re
import shlex
import shutil
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.render.colours import (
    DISCORD_BACKGROUND,
    DISCORD_BUTTONS,
    DISCORD_CODE,
    DISCORD_EMBED,
    DISCORD_HEADER,
    DISCORD_LINK,
    DISCORD_MUTED,
    DISCORD_TEXT,
    chart,
)
from tests.e2e.fake_discord import GUILD_ID, FakeDiscord, command_interaction
from tests.waits import scaled

PHONE = 390  # px: the viewport of a common phone (iPhone 12 to 15)
DESKTOP = 820
EPHEMERAL = 64
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# Selenium's own bounds, in seconds on an idle machine (its defaults), scaled by the load whenever a page is loaded
# or a script run (tests/waits.py): on a loaded machine axe-core on a long page takes longer than 30 s
SCRIPT_TIMEOUT, PAGE_LOAD_TIMEOUT = 30.0, 300.0


@dataclass
class Shown:
    """One message as the channel shows it: what the bot sent (after its edits) and who asked for it."""

    payload: dict[str, Any]  # content, embeds, components, flags: Discord's message JSON
    files: Sequence[tuple[str, bytes]] = ()  # attached files, by name
    command: str = ""  # "/assault 40k": shown above the answer, as Discord does for a command's reply
    asked_by: str = "Ann"
    names: Mapping[str, str] = field(default_factory=dict)  # user id -> the name a mention shows


def merged(*payloads: Mapping[str, Any] | None) -> dict[str, Any]:
    """A message after its edits: each later payload replaces the keys it sends (as Discord's PATCH does)."""
    message: dict[str, Any] = {}
    for payload in payloads:
        message.update({key: value for key, value in (payload or {}).items() if value is not None})
    return message


# --- Markdown, as Discord draws it ---------------------------------------------------------------------------------


def markdown(text: str, names: Mapping[str, str] | None = None) -> str:
    """Discord's Markdown (the parts the bot uses) to HTML: code, bold, italics, underline, strike, links, mentions,
    headings, subtext (-#), quotes and lists."""
    blocks: list[str] = []

    def keep_block(match: re.Match[str]) -> str:
        blocks.append(f"<pre>{html.escape(match.group(2).strip(chr(10)))}</pre>")
        return f"\x00{len(blocks) - 1}\x00"

    text = re.sub(r"```(\w*\n)?(.*?)```", keep_block, text, flags=re.S)
    lines = []
    for line in text.split("\n"):
        kind, body = "p", line
        for prefix, tag in (("### ", "h3"), ("## ", "h2"), ("# ", "h1"), ("-# ", "small"), ("> ", "quote")):
            if line.startswith(prefix):
                kind, body = tag, line[len(prefix) :]
                break
        else:
            if re.match(r"^\s*[-*] ", line):
                kind, body = "li", re.sub(r"^\s*[-*] ", "", line)
        lines.append(f'<div class="md-{kind}">{inline(body, names or {}) or "&nbsp;"}</div>')
    out = "".join(lines)
    return re.sub(r"\x00(\d+)\x00", lambda m: blocks[int(m.group(1))], out)


def inline(text: str, names: Mapping[str, str]) -> str:
    codes: list[str] = []

    def keep_code(match: re.Match[str]) -> str:
        codes.append(f"<code>{html.escape(match.group(1))}</code>")
        return f"\x01{len(codes) - 1}\x01"

    text = re.sub(r"`([^`]+)`", keep_code, text)
    text = html.escape(text, quote=False)
    text = re.sub(r"\\([*_~`|>#\[\]()\\-])", lambda m: f"&#{ord(m.group(1))};", text)  # escaped Markdown
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    text = re.sub(r"__(.+?)__", r"<u>\1</u>", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", text)
    text = re.sub(r"(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])", r"<i>\1</i>", text)
    text = re.sub(r"~~(.+?)~~", r"<s>\1</s>", text)
    text = re.sub(r"\|\|(.+?)\|\|", r'<span class="spoiler">\1</span>', text)
    text = re.sub(r"\[([^\]]+)\]\((https?://[^)\s]+)\)", r'<a href="\2">\1</a>', text)
    mention = r'<span class="mention">@{}</span>'
    text = re.sub(r"&lt;@!?(\d+)&gt;", lambda m: mention.format(names.get(m.group(1), "user")), text)
    text = re.sub(r"&lt;#(\d+)&gt;", r'<span class="mention">#battles</span>', text)
    text = re.sub(r"&lt;t:(\d+)(:\w)?&gt;", r'<span class="time">22 Nov 2026 20:00</span>', text)
    return re.sub(r"\x01(\d+)\x01", lambda m: codes[int(m.group(1))], text)


# --- the message ---------------------------------------------------------------------------------------------------


def embed_html(embed: Mapping[str, Any], names: Mapping[str, str], images: Mapping[str, str]) -> str:
    colour = chart(int(embed.get("color") or 0x1E1F22))
    parts = []
    if author := embed.get("author"):
        parts.append(f'<div class="author">{html.escape(author.get("name", ""))}</div>')
    if title := embed.get("title"):
        parts.append(f'<div class="title">{inline(title, names)}</div>')
    if description := embed.get("description"):
        parts.append(f'<div class="description">{markdown(description, names)}</div>')
    if fields := embed.get("fields"):
        cells = "".join(
            f'<div class="field{" inline" if item.get("inline") else ""}"><div class="field-name">'
            f'{inline(item["name"], names)}</div><div class="field-value">{markdown(item["value"], names)}</div></div>'
            for item in fields
        )
        parts.append(f'<div class="fields">{cells}</div>')
    if image := (embed.get("image") or {}).get("url"):
        source = images.get(image.removeprefix("attachment://"), image)
        parts.append(f'<img class="embed-image" src="{source}">')
    if footer := (embed.get("footer") or {}).get("text"):
        parts.append(f'<div class="footer">{html.escape(footer)}</div>')
    return f'<div class="embed" style="border-left-color:{colour}">{"".join(parts)}</div>'


def components_html(rows: Sequence[Mapping[str, Any]]) -> str:
    out = []
    for row in rows:
        cells = []
        for item in row.get("components", []):
            if item.get("type") == 2:
                label = html.escape(item.get("label") or "")
                emoji = html.escape((item.get("emoji") or {}).get("name") or "")
                link = " ↗" if item.get("style") == 5 else ""
                style = chart(DISCORD_BUTTONS.get(int(item.get("style") or 2), DISCORD_BUTTONS[2]))
                disabled = " disabled" if item.get("disabled") else ""
                cells.append(f'<span class="button{disabled}" style="background:{style}">'
                             f"{emoji}{' ' if emoji and label else ''}{label}{link}</span>")  # fmt: skip
            else:  # a select menu
                placeholder = html.escape(item.get("placeholder") or "Make a selection")
                cells.append(f'<span class="select">{placeholder}<span class="chevron">⌄</span></span>')
        out.append(f'<div class="row">{"".join(cells)}</div>')
    return "".join(out)


def message_html(shown: Shown) -> str:
    payload = shown.payload
    images = {name: "data:image/png;base64," + base64.b64encode(data).decode()
              for name, data in shown.files if name.lower().endswith(".png")}  # fmt: skip
    embedded = {(embed.get("image") or {}).get("url", "").removeprefix("attachment://")
                for embed in payload.get("embeds", [])}  # fmt: skip
    parts = []
    if shown.command:
        parts.append(f'<div class="reply"><span class="asker">{html.escape(shown.asked_by)}</span> used '
                     f'<span class="command">{html.escape(shown.command)}</span></div>')  # fmt: skip
    parts.append('<div class="header"><span class="avatar"></span><span class="name">Referee</span>'
                 '<span class="tag">APP</span><span class="when">Today at 20:00</span></div>')  # fmt: skip
    body = []
    if content := payload.get("content"):
        body.append(f'<div class="content">{markdown(content, shown.names)}</div>')
    body.extend(embed_html(embed, shown.names, images) for embed in payload.get("embeds", []))
    for name, data in shown.files:
        if name in images and name not in embedded:
            body.append(f'<img class="attachment" src="{images[name]}" alt="{html.escape(name)}">')
        elif name not in images:
            body.append(f'<div class="file"><span class="file-icon">▤</span><span><span class="file-name">'
                        f"{html.escape(name)}</span><br><span class=\"file-size\">{len(data) / 1024:.2f} KB</span>"
                        "</span></div>")  # fmt: skip
    body.append(components_html(payload.get("components", [])))
    if int(payload.get("flags") or 0) & EPHEMERAL:
        body.append('<div class="ephemeral">👁 Only you can see this · <a>Dismiss message</a></div>')
    parts.append(f'<div class="body">{"".join(body)}</div>')
    return f'<div class="message">{"".join(parts)}</div>'


CSS = """
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; background: BACKGROUND; }
body { font-family: "gg sans", "Noto Sans", "Helvetica Neue", Helvetica, Arial, sans-serif; color: TEXT;
       font-size: 16px; line-height: 22px; padding: 8px 0 16px; }
.message { position: relative; padding: 2px 16px 2px 72px; }
.reply { font-size: 14px; line-height: 18px; color: MUTED; margin-bottom: 2px; white-space: nowrap; overflow: hidden;
         text-overflow: ellipsis; }
.reply::before { content: ""; position: absolute; left: 36px; top: 10px; width: 30px; height: 12px;
                 border-left: 2px solid #4e5058; border-top: 2px solid #4e5058; border-top-left-radius: 6px; }
.reply .asker { color: HEADER; font-weight: 500; } .reply .command { color: LINK; }
.header { height: 22px; line-height: 22px; }
.avatar { position: absolute; left: 16px; width: 40px; height: 40px; border-radius: 50%; margin-top: 2px;
          background: radial-gradient(circle at 50% 40%, #f2f3f5 0 22%, #5865f2 23%); }
.name { color: HEADER; font-weight: 500; font-size: 16px; }
.tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600; border-radius: 3px; padding: 1px 4px;
       margin-left: 4px; position: relative; top: -2px; }
.when { color: MUTED; font-size: 12px; margin-left: 6px; }
.body { max-width: 100%; }
.content { font-size: 16px; line-height: 22px; overflow-wrap: anywhere; }
.embed { background: EMBED; border-left: 4px solid; border-radius: 4px; padding: 16px; margin-top: 4px;
         max-width: 520px; font-size: 14px; line-height: 18px; overflow-wrap: anywhere; }
.author { font-size: 14px; font-weight: 600; color: HEADER; margin-bottom: 8px; }
.title { font-size: 16px; line-height: 22px; font-weight: 600; color: HEADER; margin-bottom: 8px; }
.description { margin-bottom: 0; }
.fields { display: grid; grid-template-columns: repeat(12, 1fr); gap: 8px 16px; margin-top: 8px; }
.field { grid-column: span 12; min-width: 0; }
.field.inline { grid-column: span 4; }
.field-name { font-weight: 600; color: HEADER; margin-bottom: 2px; }
.footer { font-size: 12px; line-height: 16px; color: TEXT; margin-top: 8px; }
.embed-image { display: block; max-width: 100%; margin-top: 16px; border-radius: 4px; }
.attachment { display: block; max-width: min(100%, 400px); margin-top: 4px; border-radius: 8px; }
.file { display: flex; gap: 8px; align-items: center; max-width: 432px; margin-top: 4px; padding: 10px;
        background: EMBED; border: 1px solid #1e1f22; border-radius: 8px; font-size: 14px; line-height: 18px; }
.file-icon { font-size: 30px; color: #5865f2; }
.file-name { color: LINK; }
.file-size { color: MUTED; font-size: 12px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.button { display: inline-flex; align-items: center; height: 32px; padding: 2px 16px; border-radius: 8px;
          color: #fff; font-size: 14px; font-weight: 500; white-space: nowrap; }
.button.disabled { opacity: 0.5; }
.select { display: flex; justify-content: space-between; width: 100%; max-width: 400px; height: 40px; padding: 8px;
          background: CODE; border-radius: 4px; color: MUTED; font-size: 14px; line-height: 24px; }
.ephemeral { font-size: 12px; line-height: 16px; color: MUTED; margin-top: 4px; }
.ephemeral a { color: LINK; }
.md-p, .md-li, .md-quote, .md-small, .md-h1, .md-h2, .md-h3 { min-height: 18px; }
.md-li { padding-left: 16px; position: relative; }
.md-li::before { content: "•"; position: absolute; left: 4px; }
.md-quote { border-left: 4px solid #4e5058; padding-left: 12px; }
.md-small { font-size: 12px; line-height: 16px; color: MUTED; }
.md-h1 { font-size: 24px; line-height: 30px; font-weight: 700; color: HEADER; margin: 8px 0 0; }
.md-h2 { font-size: 20px; line-height: 26px; font-weight: 700; color: HEADER; margin: 8px 0 0; }
.md-h3 { font-size: 16px; line-height: 22px; font-weight: 700; color: HEADER; margin: 8px 0 0; }
b { font-weight: 700; color: HEADER; }
a { color: LINK; text-decoration: none; }
code { font-family: "DejaVu Sans Mono", Consolas, monospace; font-size: 85%; background: CODE; padding: 0 2px;
       border-radius: 4px; }
pre { font-family: "DejaVu Sans Mono", Consolas, monospace; font-size: 12px; line-height: 16px; background: CODE;
      border: 1px solid #1e1f22; border-radius: 4px; padding: 7px; margin: 4px 0; white-space: pre-wrap; }
.mention { background: rgba(88, 101, 242, 0.3); color: #c9cdfb; border-radius: 3px; padding: 0 2px; font-weight: 500; }
.spoiler { background: #1e1f22; color: #1e1f22; border-radius: 3px; }
.time { background: rgba(78, 80, 88, 0.5); border-radius: 3px; padding: 0 2px; }
.caption { font-size: 12px; color: MUTED; padding: 0 16px 0 72px; margin-top: 12px; }
@media (max-width: 600px) {
  .field.inline { grid-column: span 12; }  /* a phone stacks the fields */
  .message { padding-right: 16px; }
  .attachment { max-width: 100%; }
}
"""

THEME = {"BACKGROUND": DISCORD_BACKGROUND, "EMBED": DISCORD_EMBED, "TEXT": DISCORD_TEXT, "MUTED": DISCORD_MUTED,
         "HEADER": DISCORD_HEADER, "LINK": DISCORD_LINK, "CODE": DISCORD_CODE}  # fmt: skip


def page(messages: Sequence[Shown]) -> str:
    """A whole HTML page: the channel with these messages, one under the other."""
    css = CSS
    for name, colour in THEME.items():
        css = re.sub(rf"\b{name}\b", chart(colour), css)
    body = "".join(message_html(shown) for shown in messages)
    return (f'<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
            f"<style>{css}</style></head><body>{body}</body></html>")  # fmt: skip


# --- driving the bot ----------------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
OPTION_TYPES = {3: str, 4: int, 5: bool, 10: float}  # string, integer, boolean, number


def readme_command(starts: str, readme: Path = ROOT / "README.md") -> tuple[list[str], dict[str, Any]]:
    """The README's first ``referee ...`` command starting with ``starts`` (e.g. "referee assault 40k"): its words
    and its options by slash-command name (``--charge-distance 4`` -> charge_distance "4", a flag -> True)."""
    text = readme.read_text(encoding="utf-8").replace("\\\n", " ")
    for written in text.splitlines():
        line = written.strip().removeprefix(".venv/bin/")
        if not line.startswith(starts + " "):
            continue
        words = shlex.split(line)
        command = list(itertools.takewhile(lambda word: not word.startswith("--"), words))[1:]
        options: dict[str, Any] = {}
        rest = words[len(command) + 1 :]
        while rest:
            name = rest.pop(0).removeprefix("--").replace("-", "_")
            options[name] = rest.pop(0) if rest and not rest[0].startswith("--") else True
        return command, options
    raise LookupError(f"README.md has no command starting {starts!r}")


def options_for(fake: FakeDiscord, path: Sequence[str], values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``values`` as the interaction options of the synced command at ``path`` (e.g. ["assault", "40k"]), each
    converted to the type the command declares (as a Discord client would send it)."""
    declared: Sequence[Mapping[str, Any]] = next(command for command in fake.synced[f"guild:{GUILD_ID}"]
                                                 if command["name"] == path[0])["options"]  # fmt: skip
    for name in path[1:]:
        declared = next(option for option in declared if option["name"] == name)["options"]
    types = {option["name"]: option["type"] for option in declared}
    return [{"type": types[name], "name": name, "value": OPTION_TYPES[types[name]](value)}
            for name, value in values.items()]  # fmt: skip


async def shown(fake: FakeDiscord, payload: dict[str, Any], calls: int, command: str, **extra: Any) -> Shown:
    """Push an interaction, wait for the bot's ``calls`` calls about it, and the message they leave on screen."""
    answered = await fake.ask(payload, calls)
    messages = [call.payload.get("data") if call.path.endswith("/callback") else call.payload for call in answered]
    files = {name: data for call in answered for name, data in zip(call.files, call.contents, strict=True)}
    return Shown(merged(*messages), tuple(files.items()), command, **extra)


async def slash(fake: FakeDiscord, words: Sequence[str], values: Mapping[str, Any], calls: int = 1,
                **extra: Any) -> Shown:  # fmt: skip
    """``/words...`` with ``values`` as a player types them, as shown in the channel."""
    subcommand = words[1] if len(words) > 1 else None
    payload = command_interaction(words[0], options_for(fake, words, values), subcommand=subcommand)
    label = "/" + " ".join(words)
    return await shown(fake, payload, calls, label, **extra)


async def quick_start(fake: FakeDiscord, **extra: Any) -> Shown:
    """The README's quick-start 40K assault, sent as /assault 40k: its result as the channel shows it."""
    words, values = readme_command("referee assault 40k")
    return await slash(fake, words, values, calls=2, **extra)


@contextmanager
def fixed_seeds(first: int) -> Iterator[None]:
    """Resolutions take the seeds first, first + 1... instead of the system's (the same pictures every run; a player
    replays any record by its seed the same way)."""
    import rules_core.dice

    seeds = itertools.count(first)
    original = rules_core.dice.new_seed
    rules_core.dice.new_seed = lambda: next(seeds)
    try:
        yield
    finally:
        rules_core.dice.new_seed = original


# --- the browser ---------------------------------------------------------------------------------------------------


def chromium_missing() -> str | None:
    """Why no browser test can run here, or None. Under CI a missing browser is a failure, never a skip."""
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not Path(path).exists() and not shutil.which(path)]
    if not missing:
        return None
    reason = f"no headless Chromium here ({', '.join(missing)} missing: apt-get install chromium chromium-driver)"
    if os.environ.get("CI"):
        raise RuntimeError(f"CI is set but there is {reason}")
    return reason


class Browser:
    """Headless Chromium at a given width; pages are loaded from files (a data: URL has a size limit)."""

    def __init__(self, folder: Path) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--hide-scrollbars", "--force-device-scale-factor=1"):  # fmt: skip
            options.add_argument(argument)
        self.driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
        self.folder = folder
        self.loaded = 0
        self.pace()

    def pace(self) -> None:
        """Set Selenium's bounds for a page load and a script from the machine's load now (tests/waits.py)."""
        self.driver.set_script_timeout(scaled(SCRIPT_TIMEOUT))
        self.driver.set_page_load_timeout(scaled(PAGE_LOAD_TIMEOUT))

    def close(self) -> None:
        self.driver.quit()

    def load(self, html_text: str, width: int, height: int = 800) -> None:
        self.loaded += 1
        path = self.folder / f"page-{self.loaded}.html"
        path.write_text(html_text, encoding="utf-8")
        self.resize(width, height)
        self.pace()
        self.driver.get(path.as_uri())
        self.driver.execute_script("return document.fonts.ready.then(() => true)")

    def resize(self, width: int, height: int) -> None:
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)

    def height(self, selector: str = ".message") -> int:
        """The height in CSS px of the first element matching ``selector`` on the loaded page."""
        script = "return Math.ceil(document.querySelector(arguments[0]).getBoundingClientRect().height)"
        return int(self.driver.execute_script(script, selector))

    def measure(self, shown: Shown, width: int = PHONE) -> int:
        """How tall the message is at ``width``: from the line naming the command to the last button."""
        self.load(page([shown]), width)
        return self.height()

    def photograph(self, messages: Sequence[Shown], width: int, path: Path) -> int:
        """A PNG of the whole page at ``width``, full height; returns that height."""
        self.load(page(messages), width)
        height = int(self.driver.execute_script("return Math.ceil(document.body.getBoundingClientRect().height)"))
        self.resize(width, height)
        path.write_bytes(base64.b64decode(self.driver.execute_cdp_cmd(
            "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})["data"]))  # fmt: skip
        return height


@contextmanager
def browser(folder: Path) -> Iterator[Browser]:
    opened = Browser(folder)
    try:
        yield opened
    finally:
        opened.close()
