"""What was streamed stays: a reply cut off by the server stopping keeps the words the person read, and Retry goes on.

The agent is the tests' story teller (`_app_extras`): a word every 100 ms, and, like a model that sees its own reply
cut off, it goes on from where that reply ends. The server is stopped while it tells the story, gracefully (SIGTERM:
every word shown is kept), asked to stop and killed 2 s later, as dev mode's reload kills a worker that has not
exited by then (every word shown is kept too), or killed (SIGKILL: what the store had kept; a streaming reply is kept
every KEPT_EVERY).
After the restart the reply is there as far as it went, with "Interrupted" after it; Retry has the agent go on, and
the two parts are the story, each word once.
"""

from __future__ import annotations

import signal

import pytest
from playwright.sync_api import Page, expect

from ._kept import kept_texts, thread_id, until_kept
from ._person import TURN_TIMEOUT, ask, copilot, hydrated, idle, kinds, replies, text_of
from ._story import STORY
from .conftest import Tabs

# seconds: dev mode's reload kills a worker this long after asking it to stop
KILLED_AFTER = 2.0
INTERRUPTED = "Interrupted: the server stopped while the copilot was working on this. Retry to go on."


@pytest.mark.parametrize(
    ("stop", "killed_after"),
    [(signal.SIGTERM, None), (signal.SIGTERM, KILLED_AFTER), (signal.SIGKILL, None)],
    ids=["restart", "killed-while-stopping", "crash"],
)
def test_a_reply_cut_off_by_the_server_stopping_keeps_its_words_and_retry_goes_on_from_them(
    page: Page, tabs: Tabs, demo_server, stop: signal.Signals, killed_after: float | None
):
    tabs.allowed.append(lambda text: "ERR_CONNECTION_REFUSED" in text or "ERR_CONNECTION_RESET" in text)
    page.goto("/")
    hydrated(page)  # (a choice or a message made before the page is the server's is lost)
    page.get_by_role("combobox", name="Agent").select_option("story")
    ask(page, "tell me a story")
    live = page.locator('[data-kind="live"]')
    expect(live).to_contain_text("blue book", timeout=TURN_TIMEOUT)
    read = text_of(live)
    until_kept(demo_server.env["COPILOT_STORE_URL"], thread_id(page), read)  # (kept while it streams: no turn ended)
    shown = text_of(live)
    assert len(shown) < len(STORY) - 20, "the story ended before the server stopped: nothing to cut off"
    demo_server.restart(stop, killed_after=killed_after)

    page.reload()
    interrupted = copilot(page).locator('[data-kind="error"]')
    expect(interrupted).to_contain_text(INTERRUPTED, timeout=TURN_TIMEOUT)
    expect(replies(page)).to_have_count(1)
    kept = text_of(replies(page).first)
    assert kept.startswith(shown if stop == signal.SIGTERM else read), (  # (the store is read only when it fails)
        f"words read were lost: {kept!r} (stored: {kept_texts(demo_server.env['COPILOT_STORE_URL'], thread_id(page))})"
    )
    assert STORY.startswith(kept)
    assert kinds(page) == ["user", "assistant", "error"]  # the notice follows the words

    interrupted.get_by_role("button", name="Retry").click()
    expect(replies(page)).to_have_count(2, timeout=TURN_TIMEOUT)  # (Send shows until the retry's run has started)
    idle(page)
    assert kinds(page) == ["user", "assistant", "assistant"]
    assert text_of(replies(page).first) == kept  # the person keeps the words they read
    assert kept + text_of(replies(page).last) == STORY  # and the agent went on from them: each word once
    expect(interrupted).to_have_count(0)  # answered by the retry
