"""Streaming at the wire's limit, as the person sees it: the text on screen is what the agent sent, always.

The reply reaches the browser as appended pieces; a tab that reloads or reconnects gets the whole
text so far and goes on. The agent is the hostile server's `!pieces <ms> <size> <text>`.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from ._person import ask, copilot, idle, replies
from .conftest import ServedApp, Tabs

# What a person types ends without spaces (the message box trims them), so these do too.
ASCII = ("The quick brown fox jumps over the lazy dog. " * 12).strip()
MULTIBYTE = ("Grüße aus Köln, Ærøskøbing und Łódź — naïve café, 東京と大阪、서울. " * 6).strip()
EMOJI = ("Launch 🚀 done ✅, team 👩‍💻👨‍🔬 happy 🎉; flags 🇩🇪🇫🇷, skin 👍🏽. " * 6).strip()


def final_text(page: Page) -> str:
    """The finished reply's text as the browser holds it (what it shows, before any cut)."""
    tid = replies(page).last.locator("[data-tid]").first.get_attribute("data-tid")
    return page.evaluate(f"window.__cuiText({tid!r})")


@pytest.mark.parametrize("text", [ASCII, MULTIBYTE, EMOJI], ids=["ascii", "multibyte", "emoji"])
@pytest.mark.parametrize(("delay", "size"), [(1, 1), (20, 3)], ids=["1ms", "20ms"])
def test_the_text_on_screen_is_exactly_what_the_agent_sent(hostile_page: Page, text: str, delay: int, size: int):
    hostile_page.goto("/")
    sent = text[: 200 if delay == 20 else len(text)].strip()  # ~1.3 s at 20 ms per piece
    ask(hostile_page, f"!pieces {delay} {size} {sent}")
    idle(hostile_page, timeout=60_000)
    assert final_text(hostile_page) == sent
    expect(replies(hostile_page).last).to_have_text(sent.strip())


def test_a_reload_while_the_reply_streams_shows_all_of_it(hostile_page: Page):
    hostile_page.goto("/")
    ask(hostile_page, f"!pieces 15 2 {MULTIBYTE}")
    expect(hostile_page.locator('[data-kind="live"]')).to_contain_text("Grüße", timeout=20_000)
    hostile_page.reload()
    idle(hostile_page, timeout=60_000)
    assert final_text(hostile_page) == MULTIBYTE
    expect(replies(hostile_page)).to_have_count(1)


def test_a_dropped_connection_mid_stream_loses_nothing(hostile_page: Page, tabs: Tabs):
    tabs.allowed.append(lambda text: "WebSocket" in text)  # the page's sends on the connection the test closed
    sockets: list[tuple[WebSocketRoute, WebSocketRoute]] = []

    def route(socket: WebSocketRoute) -> None:
        sockets.append((socket, socket.connect_to_server()))

    hostile_page.route_web_socket(re.compile(r".*/_event/.*"), route)
    hostile_page.goto("/")
    ask(hostile_page, f"!pieces 15 2 {EMOJI}")
    expect(hostile_page.locator('[data-kind="live"]')).to_contain_text("Launch", timeout=20_000)
    for end in reversed(sockets[-1]):  # the connection drops, at both ends; the page reconnects by itself
        end.close()
    idle(hostile_page, timeout=60_000)
    assert len(sockets) >= 2, "the page did not reconnect"
    assert final_text(hostile_page) == EMOJI


def test_a_reply_that_ends_while_the_connection_is_down_shows_whole_once_it_is_back(hostile_page: Page, tabs: Tabs):
    tabs.allowed.append(lambda text: "WebSocket" in text)  # the connections refused while it is down
    down_until = [0.0]
    sockets: list[tuple[WebSocketRoute, WebSocketRoute]] = []

    def route(socket: WebSocketRoute) -> None:
        if time.monotonic() < down_until[0]:  # the network is down: the page's attempts fail, it tries again
            socket.close()
            return
        sockets.append((socket, socket.connect_to_server()))

    hostile_page.route_web_socket(re.compile(r".*/_event/.*"), route)
    hostile_page.goto("/")
    ask(hostile_page, f"!pieces 15 2 {ASCII}")  # about 4 s of pieces
    expect(hostile_page.locator('[data-kind="live"]')).to_contain_text("The quick", timeout=20_000)
    down_until[0] = time.monotonic() + 8  # longer than the rest of the reply: no piece comes after to show a gap
    for end in reversed(sockets[-1]):
        end.close()
    hostile_page.wait_for_timeout(8_000)
    idle(hostile_page, timeout=60_000)
    assert len(sockets) >= 2, "the page did not reconnect"
    expect(replies(hostile_page).last).to_have_text(ASCII, timeout=10_000)
    assert final_text(hostile_page) == ASCII


def test_two_sessions_streaming_at_once_see_only_their_own_replies(tabs: Tabs, hostile_app: ServedApp):
    first, second = tabs.open(hostile_app.url), tabs.open(hostile_app.url)
    first.goto("/")
    second.goto("/")
    ask(first, f"!pieces 5 2 first {ASCII}")
    ask(second, f"!pieces 5 2 second {MULTIBYTE}")
    idle(first, timeout=60_000)
    idle(second, timeout=60_000)
    assert final_text(first) == f"first {ASCII}"
    assert final_text(second) == f"second {MULTIBYTE}"
    expect(replies(first)).to_have_count(1)
    expect(replies(second)).to_have_count(1)


MARKDOWN_SEEN = """
window.__md = {};
new MutationObserver(() => {
  const live = document.querySelector('[data-kind="live"]');
  if (!live) return;
  for (const [name, selector] of Object.entries({h1: 'h1', list: 'ul li', code: 'pre code', table: 'table td'})) {
    if (!(name in window.__md) && live.querySelector(selector)) window.__md[name] = live.textContent.length;
  }
  if (live.textContent.includes('**')) window.__md.rawStars = true;
  window.__md.lastLive = live.querySelector('[data-tid]').innerText;
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def test_markdown_renders_while_it_streams_and_stays_the_same_once_sealed(hostile_page: Page):
    hostile_page.add_init_script(MARKDOWN_SEEN)
    hostile_page.goto("/")
    ask(hostile_page, "!markdown 25")
    idle(hostile_page, timeout=60_000)
    reply = replies(hostile_page).last
    seen = hostile_page.evaluate("window.__md")
    total = len(reply.inner_text())
    for element in ("h1", "list", "code", "table"):
        assert element in seen and seen[element] < total, f"{element} did not render while streaming: {seen}"
    assert not seen.get("rawStars"), "raw ** showed while streaming"
    expect(reply.locator("h1")).to_have_text("Weekly figures")
    expect(reply.locator("strong")).to_have_text("12%")
    expect(reply.locator("table td").first).to_have_text("Berlin")
    expect(reply.get_by_role("button", name=re.compile("copy", re.IGNORECASE)).first).to_be_attached()
    sealed = reply.locator("[data-tid]").first.inner_text()
    assert seen["lastLive"].split() == sealed.split()


def test_a_reply_that_pauses_just_after_opening_bold_shows_no_raw_stars(hostile_page: Page):
    hostile_page.goto("/")
    ask(hostile_page, "!pieces 3000 15 Revenue grew **12%** today")  # 3 s after its first piece, "Revenue grew **"
    live = hostile_page.locator('[data-kind="live"]')
    expect(live).to_contain_text("Revenue grew", timeout=15_000)
    paused = live.inner_text()  # (read within the pause: the next piece comes 3 s after the first)
    assert paused.split() == ["Revenue", "grew"], f"while the reply waits for its next piece it shows {paused!r}"
    idle(hostile_page, timeout=30_000)
    reply = replies(hostile_page).last
    expect(reply.locator("strong")).to_have_text("12%")
    expect(reply).to_have_text("Revenue grew 12% today")


def test_scrolling_up_in_a_long_conversation_loads_older_items(hostile_page: Page):
    hostile_page.goto("/")
    box = hostile_page.get_by_role("textbox", name="Ask the copilot")
    box.fill("!cards 60")  # (its own message soon leaves the window, so not ask(), which waits to see it)
    box.press("Enter")
    cards = hostile_page.locator('[data-tool="lookup"]')
    expect(cards.last).to_contain_text("card 59", timeout=30_000)
    idle(hostile_page, timeout=60_000)
    shown = cards.count()
    assert shown < 60, "every item is in the page: the list is not windowed"
    expect(hostile_page.get_by_role("button", name="Jump to latest")).to_have_count(0)
    for _ in range(10):
        copilot(hostile_page).evaluate("element => element.scrollTo({top: 0})")
        hostile_page.wait_for_timeout(400)
        if cards.count() >= 60:
            break
    expect(cards).to_have_count(60)
    expect(cards.first).to_contain_text("card 0")
    expect(hostile_page.get_by_role("button", name="Jump to latest")).to_be_visible()

    # Sending a message brings the person to the end: the older items they read above are let go.
    box.fill("!pieces 5 8 back at the end")  # (not ask(): the first message leaves the page as this one comes)
    box.press("Enter")
    expect(replies(hostile_page).last).to_have_text("back at the end", timeout=30_000)
    expect(cards.first).not_to_contain_text("card 0")
    expect(hostile_page.get_by_role("button", name="Jump to latest")).to_have_count(0)


STOP_HALT = """
window.__halt = {clickedAt: null, lastChange: null, length: 0, stoppedAt: null};
document.addEventListener('pointerdown', e => {
  if (e.target.closest('button')?.textContent.includes('Stop')) window.__halt.clickedAt = e.timeStamp;
}, true);
new MutationObserver(() => {
  const reply = document.querySelector('[data-kind="live"] [data-tid], [data-kind="assistant"] [data-tid]');
  const length = reply ? reply.textContent.length : 0;
  if (length !== window.__halt.length) { window.__halt.length = length; window.__halt.lastChange = performance.now(); }
  if (window.__halt.stoppedAt === null && document.querySelector('[data-kind="notice"]')?.textContent === 'Stopped.') {
    window.__halt.stoppedAt = performance.now();
  }
}).observe(document.querySelector('body'), {subtree: true, characterData: true, childList: true});
"""
# ms: a click answered at once, as a person sees it (here about 45 ms; a busy machine's round trip takes longer)
STOPPED_WITHIN = 1_000


def test_stop_halts_the_text_on_screen_at_once(hostile_page: Page):
    """No word shows after the page says "Stopped.", which it says at once (the pieces in flight land before it)."""
    hostile_page.goto("/")
    hostile_page.evaluate(STOP_HALT)
    ask(hostile_page, f"!pieces 5 2 {ASCII * 3}")
    expect(hostile_page.locator('[data-kind="live"]')).to_contain_text("lazy dog", timeout=20_000)
    hostile_page.get_by_role("button", name="Stop").click()
    expect(hostile_page.locator('[data-kind="notice"]')).to_have_text("Stopped.")
    ask(hostile_page, "!reply after the stop")  # a later turn on the same connection: the old reply's rest came before
    expect(replies(hostile_page).last).to_have_text("after the stop", timeout=20_000)
    halt = hostile_page.evaluate("window.__halt")
    text = hostile_page.evaluate("window.__cuiText(document.querySelector('[data-kind=assistant] [data-tid]').dataset.tid)")
    assert len(text) < len(ASCII * 3)
    changed, stopped = halt["lastChange"] - halt["clickedAt"], halt["stoppedAt"] - halt["clickedAt"]
    assert changed <= stopped, f"the text changed {changed:.0f} ms after Stop, after the page said Stopped ({stopped:.0f} ms)"
    assert stopped < STOPPED_WITHIN, f"the page said Stopped {stopped:.0f} ms after the click"
