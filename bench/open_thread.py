"""Opening a stored conversation of 1,000 messages, as the person gets it: the app in production mode, in Chromium.

A tab's conversation gets 1,000 prior messages from the hostile agent (`!history 1000`, ~200
characters each; saved by the store as they arrive). Then, RUNS times, a new tab of the same
browser (the same owner; a new session, so a new conversation and no text in the page yet) opens
the long conversation from its Conversations list. Each figure is the median of the runs:
- open_1000_until_usable: from the click on the conversation's entry (its event timestamp, a click
  dispatched in the page) until the page shows the conversation's last message and its message
  box is enabled (checked on every animation frame in the page).
- open_1000_bytes: the websocket bytes the page received from the click until 0.5 s pass without
  a frame (the page holds the last 40 messages; older ones load as the person scrolls up).
- open_1000_messages_in_page: how many messages the page then holds.

Run from the project root: .venv/bin/python -m bench.open_thread
"""

from __future__ import annotations

import statistics

from playwright.sync_api import Page, sync_playwright

from bench._served import AgentProcess, ServedApp, stopped_on_sigterm
from bench.stream_wire import CHROMIUM, BenchmarkFailed, Tab
from tests._processes import CHROMIUM_ARGS
from tests.hostile_agent import history_messages

PRIOR = 1_000
RUNS = 5

# Click a conversation's entry in the open list, noting the click's timestamp; then, on every animation
# frame, whether its last message shows and the message box is enabled.
OPEN_AND_WATCH = """([title, last]) => {
  const entry = [...document.querySelectorAll('.cui-thread-open')].find((button) => button.textContent.includes(title));
  const opened = window.__opened = {clickedAt: null, usableAt: null};
  entry.addEventListener('click', (event) => { opened.clickedAt = event.timeStamp; }, {capture: true, once: true});
  entry.click();
  const check = () => {
    const box = document.getElementById('cui-message');
    const shown = [...document.querySelectorAll('[data-tid]')].some((element) => window.__cuiText(element.dataset.tid) === last);
    if (shown && box && !box.disabled) opened.usableAt = performance.now();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}"""


def main() -> None:
    with stopped_on_sigterm(), sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=str(CHROMIUM) if CHROMIUM.exists() else None, headless=True, args=CHROMIUM_ARGS
        )
        try:
            with AgentProcess() as agent, ServedApp(agent.url) as app, Tab.open(browser, app.url) as tab:
                tab.add_history(PRIOR)
                last = history_messages(PRIOR)[-1].content
                title = f"!history {PRIOR}"
                waits, sizes, shown = [], [], 0
                for _ in range(RUNS):
                    other = Tab.start(tab.page.context.new_page())  # same browser (owner), a new tab: nothing cached
                    try:
                        first = other.frame_count()
                        _open_conversations(other.page)
                        other.page.evaluate(OPEN_AND_WATCH, [title, last])
                        other.page.wait_for_function("() => window.__opened.usableAt !== null")
                        other.quiet()
                        opened = other.page.evaluate("window.__opened")
                        waits.append(opened["usableAt"] - opened["clickedAt"])
                        sizes.append(sum(frame.size for frame in other.frames_since(first)))
                        shown = other.messages_shown()
                        other.check()
                    finally:
                        other.page.close()
                print(f"open_{PRIOR}_until_usable: {statistics.median(waits):.0f} ms", flush=True)
                print(f"open_{PRIOR}_bytes: {statistics.median(sizes):.0f} B", flush=True)
                print(f"open_{PRIOR}_messages_in_page: {shown} messages", flush=True)
        finally:
            browser.close()


def _open_conversations(page: Page) -> None:
    page.get_by_role("button", name="Conversations").click()
    page.locator(".cui-thread-open").first.wait_for()
    if page.locator(".cui-thread-open", has_text=f"!history {PRIOR}").count() == 0:
        raise BenchmarkFailed("the long conversation is not in the Conversations list")


if __name__ == "__main__":
    main()
