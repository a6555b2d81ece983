"""How long the page keeps a person waiting, measured in the page itself: shared by the browser tests and benchmarks.

`WATCH` (an init script, or evaluated in a loaded page) records every main-thread task over 50 ms (a
PerformanceObserver of 'longtask' entries; the browser reports no shorter ones), how long each click
waited (performance.now() - event.timeStamp at pointerdown), when each animation frame ran, and when a
text was first shown cut (its "more characters" notice appeared).
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

FROZEN = 5_000  # ms without two frames drawn: the page is frozen

WATCH = """(() => {
  window.__clicks = [];
  document.addEventListener('pointerdown', (event) => window.__clicks.push(performance.now() - event.timeStamp), true);
  window.__tasks = [];
  new PerformanceObserver((list) => list.getEntries().forEach((task) => window.__tasks.push([task.startTime, task.duration])))
    .observe({type: 'longtask'});
  window.__frames = [];
  const frame = (at) => { window.__frames.push(at); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  window.__cutAt = null;
  const cut = new MutationObserver(() => {
    if (document.querySelector('.cui-cut')) { window.__cutAt = performance.now(); cut.disconnect(); }
  });
  cut.observe(document, {childList: true, subtree: true});
})();"""


@dataclass(frozen=True)
class Waits:
    """What kept the page busy since a moment: its long tasks, its clicks' waits, the gaps between its frames."""

    tasks: list[float]  # ms each task over 50 ms ran
    clicks: list[float]  # ms each click waited to be handled
    frames: list[float]  # ms between two animation frames

    @property
    def longest_task(self) -> float:
        return max(self.tasks, default=0.0)

    @property
    def longest_click(self) -> float:
        return max(self.clicks, default=0.0)

    @property
    def longest_frame(self) -> float:
        return max(self.frames, default=0.0)


def waits_since(page: Page, since: float) -> Waits:
    """The page's waits since `since` (performance.now() in the page), tasks running then included; every click."""
    page.wait_for_timeout(300)  # the last long task, if any, is reported
    seen = page.evaluate(
        """(since) => ({
          tasks: window.__tasks.filter(([at, ran]) => at + ran >= since).map(([, ran]) => ran),
          clicks: window.__clicks,
          frames: window.__frames.filter((at) => at >= since).map((at, index, all) => index ? at - all[index - 1] : 0),
        })""",
        since,
    )
    return Waits(seen["tasks"], seen["clicks"], seen["frames"])


def run_slower(page: Page, rate: float = 4) -> None:
    """The page's main thread `rate` times slower (Chromium's CPU throttling; Lighthouse's mobile profile uses 4)."""
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


def now(page: Page) -> float:
    """performance.now() in the page."""
    return page.evaluate("performance.now()")


def message_box(page: Page) -> tuple[float, float]:
    """The centre of the message box, on screen."""
    area = page.get_by_role("textbox", name="Ask the copilot").bounding_box()
    assert area is not None
    return area["x"] + area["width"] / 2, area["y"] + area["height"] / 2


def click_the_message_box(page: Page, *, times: int, at: tuple[float, float] | None = None) -> None:
    """Real clicks on the message box, 50 ms apart, sent whatever the page is doing, as a person clicks.

    Without `at` (the box's centre, read earlier with `message_box`: reading it waits for the page), the
    page must first draw two frames, so that a frozen page fails instead of holding a click forever. With
    it, the first click goes at once and waits out the task under way, as a person's would.
    """
    if at is None:
        drawn = page.evaluate("window.__frames.length")
        try:
            page.wait_for_function("(drawn) => window.__frames.length >= drawn + 2", arg=drawn, timeout=FROZEN)
        except PlaywrightTimeout as frozen:
            raise AssertionError(f"the page drew no frame for {FROZEN} ms: it is frozen") from frozen
        at = message_box(page)
    for _ in range(times):
        page.mouse.click(*at)
        page.wait_for_timeout(50)
