"""Regenerate the last reply, or edit one of the person's messages and send it again: what followed is replaced."""

from __future__ import annotations

import asyncio

import pytest

from copilot_ui.agents import Pause
from copilot_ui.agents import scripts as s
from copilot_ui.core import Thread, UserMessageAdded

from .conftest import make_loop, results


async def test_regenerate_replaces_the_last_reply_with_a_new_one(thread):
    loop, agent, _ = make_loop(s.text_reply("first answer"), s.text_reply("second answer"))
    await loop.send(thread, "hello")
    outcome = await loop.regenerate(thread)

    assert outcome.status == "done"
    assert [(m.role, m.content) for m in thread.messages] == [("user", "hello"), ("assistant", "second answer")]
    assert [m.content for m in agent.inputs[1].messages] == ["hello"]  # the agent saw the question, not the old answer


async def test_regenerate_also_replaces_the_tool_calls_that_followed(thread):
    def lookup(q: str) -> str:
        """Look up."""
        return f"found {q}"

    loop, _, _ = make_loop(
        s.tool_calls_reply(("lookup", {"q": "a"}, "c1")), s.text_reply("with a"), s.text_reply("plain"), tools=[lookup]
    )
    await loop.send(thread, "find a")
    assert results(thread) == {"c1": "found a"}
    await loop.regenerate(thread)
    assert results(thread) == {}
    assert [m.content for m in thread.messages] == ["find a", "plain"]


async def test_regenerate_without_a_message_of_the_persons_says_so(thread):
    loop, _, _ = make_loop()
    with pytest.raises(RuntimeError, match="nothing to regenerate"):
        await loop.regenerate(thread)


async def test_editing_a_message_replaces_it_and_everything_after_it(thread):
    loop, agent, recorder = make_loop(s.text_reply("one"), s.text_reply("two"), s.text_reply("three, edited"))
    await loop.send(thread, "first question", message_id="m1")
    await loop.send(thread, "second question", message_id="m2")

    outcome = await loop.edit(thread, "m1", "the first question, put better", new_message_id="m1b")
    assert outcome.status == "done"
    assert [m.content for m in thread.messages] == ["the first question, put better", "three, edited"]
    assert [m.content for m in agent.inputs[-1].messages] == ["the first question, put better"]
    assert recorder.of(UserMessageAdded)[-1].message_id == "m1b"


async def test_editing_a_message_that_is_not_the_persons_is_refused(thread):
    loop, _, _ = make_loop(s.text_reply("reply"))
    await loop.send(thread, "hi")
    reply_id = thread.messages[-1].id
    with pytest.raises(KeyError):
        await loop.edit(thread, reply_id, "changed")


async def test_regenerating_or_editing_on_a_loop_busy_with_another_thread_leaves_that_thread_as_it_was(thread):
    slow = s.run(s.text("thinking about it"))
    slow.insert(1, Pause(5))
    loop, _, _ = make_loop(s.text_reply("other answer"), slow)
    other = Thread()
    await loop.send(other, "first question", message_id="q1")
    before = [(m.id, m.content) for m in other.messages]
    drive = asyncio.create_task(loop.send(thread, "this one is slow"))
    await asyncio.sleep(0.01)

    with pytest.raises(RuntimeError, match="already running"):
        await loop.regenerate(other)
    with pytest.raises(RuntimeError, match="already running"):
        await loop.edit(other, "q1", "changed")
    assert [(m.id, m.content) for m in other.messages] == before  # nothing removed by a refused request

    loop.abort()
    await asyncio.wait_for(drive, 2)
