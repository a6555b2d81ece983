"""What a person does at the copilot, and what they see: shared by the browser tests."""

from __future__ import annotations

from contextlib import AbstractContextManager

from playwright.sync_api import Locator, Page, WebSocket, expect

TURN_TIMEOUT = 20_000  # ms: a turn of the demo model, on a busy two-core machine


def ask(page: Page, text: str) -> None:
    """Type a message in the copilot's box and press Enter; returns once the copilot shows it (the run has begun)."""
    hydrated(page)  # (before React has taken over the served box, Enter there starts a new line and sends nothing)
    sent = page.locator('[data-kind="user"]')
    before = sent.count()
    box = page.get_by_role("textbox", name="Ask the copilot")
    box.fill(text)
    box.press("Enter")
    expect(sent).to_have_count(before + 1, timeout=TURN_TIMEOUT)


def hydrated(page: Page, timeout: float | None = None) -> None:
    """Wait until the page's state has come from the server (React has taken over the served HTML, which a test may
    now change, and an input's changes reach the server)."""
    page.locator('.cui-panel[data-hydrated="true"]').first.wait_for(state="attached", timeout=timeout)


class ServerFrames:
    """The frames the server sends a tab, watched from before the page opens: a change the page made has reached the
    server's state once the frame carrying it back has come (the state's new value)."""

    def __init__(self, page: Page) -> None:
        self._sockets: list[WebSocket] = []
        page.on("websocket", lambda socket: self._sockets.append(socket))

    def carrying(self, text: str) -> AbstractContextManager[object]:
        """Wait, at the end of the `with` block, for a frame from the server that carries `text`."""
        socket = next(each for each in reversed(self._sockets) if "/_event" in each.url)
        return socket.expect_event("framereceived", lambda frame: text in (frame if isinstance(frame, str) else frame.decode()))


def idle(page: Page, timeout: float = TURN_TIMEOUT) -> None:
    """Wait until the copilot is done (Send is back)."""
    page.locator(".cui-composer").get_by_role("button", name="Send").wait_for(state="attached", timeout=timeout)


def copilot(page: Page) -> Locator:
    """The copilot's conversation."""
    return page.get_by_role("log", name="Conversation")


def replies(page: Page) -> Locator:
    """The agent's finished replies."""
    return page.locator('[data-kind="assistant"]')


def text_of(reply: Locator) -> str:
    """The whole text of a reply (or any text the copilot shows) as the tab holds it, before any cut."""
    tid = reply.locator("[data-tid]").first.get_attribute("data-tid")
    return reply.page.evaluate(f"window.__cuiText({tid!r}) ?? ''")


def kinds(page: Page) -> list[str]:
    """What the conversation shows, in order: user, assistant, error, notice…"""
    return copilot(page).locator("[data-kind]").evaluate_all("shown => shown.map((each) => each.dataset.kind)")


def card(page: Page, tool: str) -> Locator:
    """The cards of a tool's calls."""
    return page.locator(f'[data-tool="{tool}"]')


def dialog(page: Page) -> Locator:
    """The approval dialog."""
    return page.get_by_role("alertdialog")


def order_status(page: Page, order_id: str) -> Locator:
    """The status cell of an order in the Orders table."""
    return page.locator(f'[data-order="{order_id}"] [data-status]')


# Records, in the page itself, when the text on screen changed and what it was: in-page timestamps,
# as reflex_perf.md advises (Playwright's own waits add ~10 ms each).
TEXT_OBSERVER = """
window.__seen = {changes: [], lengths: [], darkAt: null, followUpAt: null};
new MutationObserver(() => {
  const now = performance.now();
  const live = document.querySelector('[data-kind="live"]');
  if (live) { window.__seen.lengths.push(live.textContent.length); window.__seen.changes.push(now); }
  if (window.__seen.darkAt === null && document.documentElement.classList.contains('dark')) window.__seen.darkAt = now;
  const log = document.querySelector('[role="log"]');
  if (window.__seen.followUpAt === null && log && log.textContent.includes('Done:')) window.__seen.followUpAt = now;
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""
