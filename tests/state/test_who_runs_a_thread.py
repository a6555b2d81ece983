"""Who runs a thread has one answer, the thread's claim: a message sent while something else holds the conversation
(a loop the app drives on it, say) waits for it to be released and is answered then, never dropped. Driven through
Reflex's event processor and the real run loop (copilot_ui.testing), the agent scripted."""

from __future__ import annotations

import asyncio

from copilot_ui.core import Claim, claims
from copilot_ui.state import CopilotState
from copilot_ui.state.turns import thread_runs
from copilot_ui.testing import CopilotSession


def test_a_message_to_a_thread_held_elsewhere_in_the_process_waits_for_it_and_is_answered(copilot: CopilotSession):
    copilot.agent.says("Hello.")
    copilot.say("hi")
    thread_id = copilot.state(CopilotState).get_value("_thread").id
    app = copilot._app

    async def hold() -> Claim:
        held = claims.claim(thread_id)
        assert held is not None, "a turn still holds the thread"
        return held

    held = app.call(hold())
    copilot.agent.says("Now that it is free: hello again.")
    sent = app.call(app.dispatch(copilot.token, CopilotState.send({"message": "again", "agent": ""}), copilot._router_data()))

    async def still_waiting() -> bool:
        await asyncio.sleep(0.3)
        return not sent.done() and thread_runs.running(thread_id) is None

    assert app.call(still_waiting()), "the message did not wait for the thread: it was dropped, or ran a turn beside its holder"

    async def release() -> None:
        held.release()
        await asyncio.wait_for(sent, 10)

    app.call(release())
    assert copilot.replies == ["Hello.", "Now that it is free: hello again."]
