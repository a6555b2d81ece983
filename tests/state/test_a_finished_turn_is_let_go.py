"""A turn that is over is let go at once: its run loop, its sink and what they hold (the thread, the view) go with it,
though a timer it left behind (pydantic-ai's timeout of a model request, a minute by default) keeps a copy of its
context meanwhile. Driven through Reflex's event processor and the real run loop (copilot_ui.testing), on the app's
own agent with a scripted model, as a server's worker runs it."""

from __future__ import annotations

import gc

from copilot_ui.state.turns._thread_runs import ThreadRun


def _turns_alive() -> set[int]:
    gc.collect()
    return {id(found) for found in gc.get_objects() if isinstance(found, ThreadRun)}


def test_the_turns_of_three_messages_are_let_go_once_each_is_over(copilot):
    before = _turns_alive()
    for text in ("hello", "and again", "once more"):
        copilot.model.says(f"Reply to {text}.")
        copilot.say(text)
    assert copilot.replies[-3:] == ["Reply to hello.", "Reply to and again.", "Reply to once more."]
    assert _turns_alive() - before == set()
