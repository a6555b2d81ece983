"""The one real person beside the simulated ones: a Chromium tab doing the same demo flow, timed in the page.

The tab types each message of the flow, presses Enter, approves in the dialog, and waits until the
copilot is done; once through the flow it says "hello" again, at the same pace, until the crowd is
done, so that its figures come from the whole of the load. For each "hello" (a reply that calls no
tool, so its first words are the first thing the agent shows) it records Enter → the first words of
the reply on screen: from the Enter keydown's event timestamp to the MutationObserver that sees
them, both in the page's clock.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

from playwright.async_api import Browser, Page
from playwright.async_api import Error as PlaywrightError

from ._person import FLOW, PAUSE, TURN_TIMEOUT, Step
from .stream_wire import FIRST_OBSERVER, IDLE, PRESS_ENTER

TIMED = "hello"  # the message whose reply's first words are timed
REPLIES = '[data-kind="assistant"]'  # the agent's finished replies
MORE_REPLIES = "([selector, count]) => document.querySelectorAll(selector).length > count"
FIRST_TEXT = "() => window.__first.reply === null ? null : window.__first.reply - window.__first.enter"


@dataclass
class TabFigures:
    """What the real tab saw: Enter → first words on screen (ms) for each timed reply, its turns, its errors."""

    first_text: list[float] = field(default_factory=list)
    turns: int = 0
    problems: list[str] = field(default_factory=list)


async def tab_flow(browser: Browser, url: str, crowd_done: asyncio.Event, rng: random.Random) -> TabFigures:
    """The flow in a new tab (a new session), then "hello" again until `crowd_done` is set."""
    figures = TabFigures()
    context = await browser.new_context(viewport={"width": 1400, "height": 900}, base_url=url)
    try:
        page = await context.new_page()
        page.on("pageerror", lambda error: figures.problems.append(f"page error: {error}"))
        page.on("console", lambda message: message.type == "error" and figures.problems.append(f"console: {message.text}"))
        page.set_default_timeout(TURN_TIMEOUT * 1000)
        await page.goto("/")
        await page.locator(".cui-composer").get_by_role("button", name="Send").wait_for()
        for step in FLOW:
            await asyncio.sleep(rng.uniform(*PAUSE))
            await _turn(page, step, figures, rng)
        while not crowd_done.is_set():
            await asyncio.sleep(rng.uniform(*PAUSE))
            await _turn(page, Step(TIMED), figures, rng)
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
    figures.turns += 1
    if step.text == TIMED:
        first = await page.evaluate(FIRST_TEXT)
        if first is None:
            figures.problems.append("a reply's first words were never seen on screen")
        else:
            figures.first_text.append(float(first))
