"""Huge replies, as the person gets them: the app in production mode, in Chromium, unthrottled and four times slower.

Two replies from the hostile agent: a one-megabyte line (`!big 1000000`, case `1mb_line`) and
10,000 lines (`!lines 10000`, case `10000_lines`). RUNS times each, in a new tab (a new session):
- first_part: the reply arrives; from the moment it is first shown cut (its "more characters"
  notice appears) until it is done, the person clicks the message box 6 times, 50 ms apart;
- reveal: "Show all" is clicked while the person clicks the message box 8 times, 50 ms apart, from
  just before to after it (the tests click only once the page has drawn two frames, so that a
  frozen page fails them instead of holding them); the figures are taken until the whole text is
  in the page.
What the page recorded in itself (tests/browser/_responsiveness.py), the worst of the runs:
- <phase>_<case>_longest_task: the longest main-thread task ('longtask' entries: 0 means none over
  50 ms, the browser reports no shorter ones). Goal < 200 ms.
- <phase>_<case>_longest_click_wait: the longest a click waited (performance.now() - event.timeStamp
  at pointerdown). Goal < 100 ms.
- <phase>_<case>_longest_frame: the longest time between two animation frames.
Then the same with the page's main thread four times slower (Chromium's CPU throttling, as
Lighthouse's mobile profile), named with _4x_slower.

Run from the project root: .venv/bin/python -m bench.reveal_text
"""

from __future__ import annotations

from playwright.sync_api import Browser, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bench._served import AgentProcess, ServedApp, stopped_on_sigterm
from bench.stream_wire import CHROMIUM, BenchmarkFailed, Tab
from tests._processes import CHROMIUM_ARGS
from tests.browser._responsiveness import WATCH, Waits, click_the_message_box, message_box, now, run_slower, waits_since
from tests.hostile_agent import numbered_lines

CASES = {"1mb_line": ("!big 1000000", 1_000_000), "10000_lines": ("!lines 10000", len(numbered_lines(10_000)))}
RUNS = 3
SLOWER = 4

# "Show all" is clicked in the page, 60 ms from now: Playwright's own click returns only once the page has
# handled it, so clicks sent after it could never land while the click's own task runs.
SHOW_ALL_SOON = """() => {
  const button = [...document.querySelectorAll('[data-kind="assistant"] button')].find((b) => b.textContent === 'Show all');
  setTimeout(() => button.click(), 60);
}"""


def main() -> None:
    with stopped_on_sigterm(), sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=str(CHROMIUM) if CHROMIUM.exists() else None, headless=True, args=CHROMIUM_ARGS
        )
        try:
            with AgentProcess() as agent, ServedApp(agent.url) as app:
                measure_reply(browser, app.url, "!big 30000", 30_000, slower=1)  # warm-up, not counted
                for rate, suffix in ((1, ""), (SLOWER, f"_{SLOWER}x_slower")):
                    for case, (command, length) in CASES.items():
                        runs = [measure_reply(browser, app.url, command, length, slower=rate) for _ in range(RUNS)]
                        for phase in ("first_part", "reveal"):
                            print_worst(f"{phase}_{case}{suffix}", [run[phase] for run in runs])
        finally:
            browser.close()


def measure_reply(browser: Browser, url: str, command: str, length: int, *, slower: float) -> dict[str, Waits]:
    """The waits while the reply's first part shows, and while "Show all" reveals the rest."""
    with Tab.open(browser, url) as tab:
        page = tab.page
        page.evaluate(WATCH)
        run_slower(page, slower)
        tab.send(command)
        try:
            page.wait_for_function("window.__cutAt !== null", polling=50)
        except PlaywrightTimeout:
            last = page.locator("[data-kind]").last.text_content() or ""
            raise BenchmarkFailed(f"the reply was never shown cut; the conversation ends with {last[-300:]!r}") from None
        first_part_since = page.evaluate("window.__cutAt")
        click_the_message_box(page, times=6, at=message_box(page))
        tab.idle()
        first_part = waits_since(page, first_part_since)

        page.evaluate("window.__clicks = []")
        reveal_since = now(page)
        page.evaluate(SHOW_ALL_SOON)
        click_the_message_box(page, times=8, at=message_box(page))  # from before the reveal to after it
        shown = "(length) => document.querySelector('[data-kind=assistant] [data-tid]').textContent.length === length"
        page.wait_for_function(shown, arg=length, polling=100)
        reveal = waits_since(page, reveal_since)
        if not reveal.clicks:
            raise BenchmarkFailed("no click reached the page")
        return {"first_part": first_part, "reveal": reveal}


def print_worst(name: str, runs: list[Waits]) -> None:
    print(f"{name}_longest_task: {max(run.longest_task for run in runs):.0f} ms", flush=True)
    print(f"{name}_longest_click_wait: {max(run.longest_click for run in runs):.0f} ms", flush=True)
    print(f"{name}_longest_frame: {max(run.longest_frame for run in runs):.0f} ms", flush=True)


if __name__ == "__main__":
    main()
