"""The one real person beside the simulated ones: a Chromium tab doing the same flow, timed in the page.

The tab types each message of the flow, presses Enter, approves in the dialog, and waits until the
app is done; once through the flow it says "hello" again, at the same pace, until the crowd is
done, so that its figures come from the whole of the load. For each "hello" (a reply that calls no
tool, so its first words are the first thing the agent shows) it records Enter → the first words of
the reply on screen: from the Enter keydown's event timestamp to the MutationObserver that sees
them, both in the page's clock. The same tab on the anchor app (`anchor=True`: its message box, its
Send button, its replies) times what a plain Reflex chat shows the same way.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

from playwright.async_api import Browser, Page
from playwright.async_api import Error as PlaywrightError

from ._person import PAUSE, TURN_TIMEOUT, Step
from .stream_wire import FIRST_OBSERVER, IDLE, PRESS_ENTER

TIMED = "hello"  # the message whose reply's first words are timed
REPLIES = '[data-kind="assistant"]'  # the agent's finished replies
MORE_REPLIES = "([selector, count]) => document.querySelectorAll(selector).length > count"
FIRST_TEXT = "() => window.__first.reply === null ? null : window.__first.reply - window.__first.enter"
# The anchor app's page: its replies (".assistant" boxes, the last one appended empty as the person sends), its box.
ANCHOR_FIRST_OBSERVER = """() => {
  window.__first?.observer.disconnect();
  const known = document.querySelectorAll('.assistant').length;
  const first = window.__first = {enter: null, reply: null, observer: null};
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && event.target.name === 'message') first.enter = event.timeStamp;
  }, {capture: true, once: true});
  first.observer = new MutationObserver(() => {
    const now = performance.now();
    const replies = document.querySelectorAll('.assistant');
    for (let index = known; index < replies.length; index++) {
      if (replies[index].textContent.trim() === '') continue;
      first.reply = now;
      first.observer.disconnect();
      return;
    }
  });
  first.observer.observe(document.body, {subtree: true, childList: true, characterData: true});
}"""
ANCHOR_SEEN = "() => window.__first.reply !== null"
ANCHOR_IDLE = """() => [...document.querySelectorAll('button')].some(
  (button) => button.textContent.includes('Send') && !button.disabled)"""


@dataclass
class TabFigures:
    """What the real tab saw: Enter → first words on screen (ms) for each timed reply, its turns, its errors."""

    first_text: list[float] = field(default_factory=list)
    turns: int = 0
    problems: list[str] = field(default_factory=list)


async def tab_flow(
    browser: Browser,
    url: str,
    crowd_done: asyncio.Event,
    rng: random.Random,
    steps: tuple[Step, ...],
    *,
    anchor: bool = False,
) -> TabFigures:
    """The flow in a new tab (a new session), then "hello" again until `crowd_done` is set; on the anchor app with
    `anchor`."""
    figures = TabFigures()
    context = await browser.new_context(viewport={"width": 1400, "height": 900}, base_url=url)
    try:
        page = await context.new_page()
        page.on("pageerror", lambda error: figures.problems.append(f"page error: {error}"))
        page.on("console", lambda message: message.type == "error" and figures.problems.append(f"console: {message.text}"))
        page.set_default_timeout(TURN_TIMEOUT * 1000)
        turn = _anchor_turn if anchor else _turn
        if anchor:  # (its page says nothing when it is hydrated: the state's first frame says it)
            async with page.expect_websocket() as connecting:
                await page.goto("/")
            await (await connecting.value).wait_for_event("framereceived", lambda frame: "is_hydrated" in str(frame))
        else:
            await page.goto("/")
            await page.locator(".cui-composer").get_by_role("button", name="Send").wait_for()
        for step in steps:
            await asyncio.sleep(rng.uniform(*PAUSE))
            await turn(page, step, figures, rng)
        while not crowd_done.is_set():
            await asyncio.sleep(rng.uniform(*PAUSE))
            await turn(page, Step(TIMED), figures, rng)
    except PlaywrightError as error:
        figures.problems.append(f"the tab's flow stopped: {error.message.splitlines()[0]}")
    finally:
        await context.close()
    return figures


async def _turn(page: Page, step: Step, figures: TabFigures, rng: random.Random) -> None:
    """Type the message, press Enter, approve when asked, and wait until the copilot is done with it."""
    await page.evaluate(FIRST_OBSERVER)
    before = await page.locator(REPLIES).count()
    await page.get_by_role("textbox", name="Ask the copilot").fill(step.text)
    await page.evaluate(PRESS_ENTER)
    if step.approve:
        approve = page.get_by_role("alertdialog").get_by_role("button", name="Approve")
        await approve.wait_for()
        await asyncio.sleep(rng.uniform(*PAUSE))
        await approve.click()
    await page.wait_for_function(MORE_REPLIES, arg=[REPLIES, before], polling=50)
    await page.wait_for_function(IDLE, polling=100)
    await _timed(page, step, figures)


async def _anchor_turn(page: Page, step: Step, figures: TabFigures, _rng: random.Random) -> None:
    """The same on the anchor app: type, press Enter, wait for the reply's first words, then for Send back."""
    await page.evaluate(ANCHOR_FIRST_OBSERVER)
    box = page.get_by_placeholder("Write a message")
    await box.fill(step.text)
    await box.press("Enter")
    await page.wait_for_function(ANCHOR_SEEN, polling=50)
    await page.wait_for_function(ANCHOR_IDLE, polling=100)
    await _timed(page, step, figures)


async def _timed(page: Page, step: Step, figures: TabFigures) -> None:
    figures.turns += 1
    if step.text == TIMED:
        first = await page.evaluate(FIRST_TEXT)
        if first is None:
            figures.problems.append("a reply's first words were never seen on screen")
        else:
            figures.first_text.append(float(first))
