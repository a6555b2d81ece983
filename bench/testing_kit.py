"""What a copilot flow costs in the testing kit (copilot_ui.testing): no server, no browser, no model.

Each figure is the median of RUNS, on the testing guide's app (tests/testing_kit/dashboard.py):
- kit_session_open_close: a `copilot_session` set up (a store of its own, Reflex's event processor in
  its thread) and closed, with nothing done in it.
- kit_tool_turn: `copilot.say(...)` for a turn whose agent calls a tool and answers (the page opened
  first, its on_load and the copilot's open included).
- kit_approval_turn: a turn whose tool waits for approval, then `copilot.approve()` and the follow-up.
- kit_task_with_approval: an app button running an agent task whose tool needs approval, approved.

Run from the project root: .venv/bin/python -m bench.testing_kit
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from copilot_ui.testing import CopilotSession, copilot_session
from tests.testing_kit.dashboard import DashboardState

RUNS = 10


def main() -> None:
    print(f"kit_session_open_close: {_median(lambda _copilot: None):.0f} ms")
    print(f"kit_tool_turn: {_median(_tool_turn):.0f} ms")
    print(f"kit_approval_turn: {_median(_approval_turn):.0f} ms")
    print(f"kit_task_with_approval: {_median(_task_with_approval):.0f} ms")


def _tool_turn(copilot: CopilotSession) -> None:
    copilot.agent.calls("filter_orders", city="Berlin").says("Showing Berlin.")
    copilot.say("filter to Berlin")
    assert copilot.state(DashboardState).city == "Berlin"


def _approval_turn(copilot: CopilotSession) -> None:
    copilot.agent.calls("refund_order", order_id="#1042", reason="late").says("Refunded.")
    copilot.say("refund 1042")
    copilot.approve()
    assert copilot.state(DashboardState).refunded == ["#1042"]


def _task_with_approval(copilot: CopilotSession) -> None:
    copilot.agent.calls("refund_order", order_id="#1041", reason="late").says("Refunded.")
    copilot.click(DashboardState.summarize)
    copilot.approve()
    assert copilot.state(DashboardState).summary == "Refunded."


def _median(flow: Callable[[CopilotSession], None]) -> float:
    """Milliseconds of a whole session doing `flow`, median of RUNS (the session's set-up and close included)."""
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        with copilot_session(Path(tempfile.mkdtemp())) as copilot:
            flow(copilot)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


if __name__ == "__main__":
    main()
