"""A huge reply never freezes the page: its first part shows at once, and "Show all" reveals the rest while clicks
are still answered.

The hostile agent replies with a one-megabyte line (`!big`) or with 10,000 numbered lines (`!lines`).
The page records, in itself, every main-thread task over 50 ms and how long each click waited
(tests/browser/_responsiveness.py); the clicks are real mouse input, sent while the text arrives or
is revealed. The page runs four times slower than here (Chromium's CPU throttling), as on a modest
laptop or a phone. A task may run, and a click wait, as long as the page's tasks for an ordinary exchange, measured
in the same page just before (and once more just after, if the huge reply's tasks ran longer than that), and half
as long again: this machine's speed swings, even between two measures a few seconds apart, and a huge reply must
cost no more than any reply (shown whole, it blocks the page for seconds).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.hostile_agent import numbered_lines

from ._person import ask, copilot, idle
from ._responsiveness import WATCH, Waits, click_the_message_box, now, run_slower, waits_since

LONGEST_TASK = 200  # ms: no main-thread task may run longer (unless an ordinary exchange's does, on a slow minute)
SWING = 1.5  # how much longer a task may run than the ordinary exchange's longest, measured just before
CLICK_WAIT = 100  # ms: no click may wait longer to be answered (unless one in an ordinary exchange may, as for tasks)
LIMIT = 20_000  # characters of a text shown before "Show all" (cui.copilot.text_limit)

HUGE_REPLIES = [
    pytest.param("!big 1000000", ("0123456789" * 100_000), id="a one-megabyte line"),
    pytest.param("!lines 10000", numbered_lines(10_000), id="10,000 lines"),
]

# The reply's last characters, as a person sees them: their box inside the conversation's visible part.
END_IN_VIEW = """([tid, end]) => {
  const box = document.querySelector(`[data-tid="${tid}"]`);
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  let last = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.data.includes(end)) last = node;
  if (last === null) return false;
  const range = document.createRange();
  range.setStart(last, last.data.lastIndexOf(end));
  range.setEnd(last, last.data.lastIndexOf(end) + end.length);
  const shown = range.getBoundingClientRect(), log = document.querySelector('[role="log"]').getBoundingClientRect();
  return shown.height > 0 && shown.top >= log.top && shown.bottom <= log.bottom;
}"""


@pytest.mark.parametrize(("command", "reply"), HUGE_REPLIES)
def test_the_first_part_of_a_huge_reply_shows_without_blocking(hostile_page: Page, command: str, reply: str):
    hostile_page.add_init_script(WATCH)
    hostile_page.goto("/")
    idle(hostile_page)
    run_slower(hostile_page)
    ordinary = longest_task_of_an_ordinary_exchange(hostile_page)
    ask(hostile_page, command)
    # Up to the limit it is an ordinary reply, in Markdown; past it, its first part is shown, cut.
    hostile_page.wait_for_function("window.__cutAt !== null", timeout=60_000)
    cut_at = hostile_page.evaluate("window.__cutAt")
    click_the_message_box(hostile_page, times=6)  # while the rest arrives
    idle(hostile_page, timeout=60_000)
    answer = hostile_page.locator('[data-kind="assistant"]').last
    expect(answer.get_by_role("button", name="Show all")).to_be_visible()
    shown = len(first_part(reply))
    expect(answer).to_contain_text(f"{len(reply) - shown:,} more characters")
    expect(answer).to_contain_text(reply[shown - 30 : shown])
    click_the_message_box(hostile_page, times=3)  # once it is there

    assert_never_blocked(hostile_page, since=cut_at, ordinary=ordinary)


@pytest.mark.parametrize(("command", "reply"), HUGE_REPLIES)
def test_show_all_reveals_a_huge_reply_while_clicks_are_answered(hostile_page: Page, command: str, reply: str):
    hostile_page.add_init_script(WATCH)
    hostile_page.goto("/")
    idle(hostile_page)
    run_slower(hostile_page)
    ordinary = longest_task_of_an_ordinary_exchange(hostile_page)
    run_slower(hostile_page, rate=1)  # (the huge reply arrives at full speed: only its reveal is measured)
    ask(hostile_page, command)
    idle(hostile_page, timeout=60_000)
    answer = hostile_page.locator('[data-kind="assistant"]').last
    tid = answer.locator("[data-tid]").first.get_attribute("data-tid")
    hostile_page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")  # laid out
    run_slower(hostile_page)

    start = now(hostile_page)
    answer.get_by_role("button", name="Show all").click()
    click_the_message_box(hostile_page, times=8)  # while it is revealed
    expect(answer.get_by_role("button", name="Show all")).to_have_count(0)
    expect(answer).not_to_contain_text("more characters")
    hostile_page.wait_for_function(
        '([tid, length]) => document.querySelector(`[data-tid="${tid}"]`).textContent.length === length',
        arg=[tid, len(reply)],
        polling=100,  # not on every frame: reading a megabyte of text is work the page would not do otherwise
    )
    copilot(hostile_page).evaluate("(log) => { log.scrollTop = log.scrollHeight; }")  # the person scrolls to its end
    hostile_page.wait_for_function(END_IN_VIEW, arg=[tid, reply[-19:]], polling=100)
    click_the_message_box(hostile_page, times=3)  # once it is all there

    assert hostile_page.evaluate(f"window.__cuiText({tid!r})") == reply  # what Copy copies
    assert_never_blocked(hostile_page, since=start, ordinary=ordinary)


def first_part(reply: str) -> str:
    """What the page shows of a reply past the limit: up to a line end near the limit, if there is one."""
    newline = reply.rfind("\n", 0, LIMIT)
    return reply[: newline if newline > LIMIT * 0.8 else LIMIT]


def longest_task_of_an_ordinary_exchange(page: Page) -> float:
    """The longest task of sending a message and showing a short reply, in this page now (ms)."""
    start = now(page)
    ask(page, "hello")
    idle(page)
    return waits_since(page, start).longest_task


def assert_never_blocked(page: Page, *, since: float, ordinary: float) -> None:
    """No task ran, and no click waited, longer than the limits or than an ordinary exchange's longest task in this
    page (`ordinary`, ms: a click lands in one at worst), with SWING to spare. Past them, an ordinary exchange is
    measured once more, now: a machine that slowed meanwhile slows it as much (a huge reply shown whole still blocks
    for seconds)."""
    waits = waits_since(page, since)
    if not within_limits(waits, ordinary):
        ordinary = max(ordinary, longest_task_of_an_ordinary_exchange(page))
    longest_task, click_wait = limits(ordinary)
    assert waits.longest_task < longest_task, f"a task blocked the page for {waits.longest_task:.0f} ms: {waits.tasks}"
    assert waits.clicks, "no click reached the page"
    assert waits.longest_click < click_wait, f"a click waited {waits.longest_click:.0f} ms: {waits.clicks}"


def limits(ordinary: float) -> tuple[float, float]:
    """The longest a task may run, and a click may wait (ms), given an ordinary exchange's longest task."""
    return max(LONGEST_TASK, ordinary) * SWING, max(CLICK_WAIT, ordinary * SWING)


def within_limits(waits: Waits, ordinary: float) -> bool:
    longest_task, click_wait = limits(ordinary)
    return waits.longest_task < longest_task and waits.longest_click < click_wait
