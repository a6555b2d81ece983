"""What the agent sees of the page on each run: the page as it is when the run starts. A message's first run takes
the context read as its turn began; a run after a tool's result reads the page afresh. Driven through Reflex's event
processor and the real run loop (copilot_ui.testing), the agent scripted; the app is the testing guide's
(tests/testing_kit/dashboard.py)."""

from __future__ import annotations

import json

from ag_ui.core import RunAgentInput

from tests.testing_kit.dashboard import DashboardState


def city_seen(run_input: RunAgentInput) -> str:
    [dashboard] = [item for item in run_input.context if item.description == "The dashboard"]
    return json.loads(dashboard.value)["city"]


def test_each_run_sees_the_page_as_it_is_when_the_run_starts(copilot):
    copilot.click(DashboardState.pick("Paris"))  # the person filters the page, then writes
    copilot.agent.calls("filter_orders", city="Berlin").says("Now the orders from Berlin.")
    copilot.say("show the orders from Berlin")
    first, follow_up = copilot.agent.inputs
    assert city_seen(first) == "Paris"
    assert city_seen(follow_up) == "Berlin"  # the tool changed the page before the follow-up

    copilot.click(DashboardState.pick("Paris"))
    copilot.agent.says("Paris it is.")
    copilot.say("and now?")
    assert city_seen(copilot.agent.last_input) == "Paris"
    assert copilot.replies[-1] == "Paris it is."
