"""The kit on a whole app: the demo dashboard, whose page loads its orders from its database when it opens (on_load,
a cookie naming the browser's workspace), refunds through an approval, and has a button that runs an agent task."""

from __future__ import annotations

from tests.testing_kit._suite import run_suite

FLOWS = """
import pytest

from copilot_ui.copilot_ui import DashboardState


def status_of(copilot, order_id):
    return next(order.status for order in copilot.state(DashboardState).orders if order.id == order_id)


def test_a_refund_in_the_chat_changes_the_order_once_approved(copilot):
    copilot.agent.calls("refund_order", order_id="#1042", reason="damaged").says("Refunded.")
    copilot.say("refund order 1042")
    assert status_of(copilot, "#1042") == "Shipped"
    copilot.approve()
    assert status_of(copilot, "#1042") == "Refunded"


def test_an_approval_takes_only_the_edits_its_dialog_allows(copilot):
    copilot.agent.calls("refund_order", order_id="#1042", reason="damaged").says("Refunded.")
    copilot.say("refund order 1042")
    with pytest.raises(AssertionError, match="lets the person edit reason, not order_id"):
        copilot.approve(order_id="#1041")  # the dialog shows order_id, but does not let it be changed
    assert copilot.waiting == "refund_order"  # nothing ran: the call still waits
    copilot.approve(reason="arrived broken")  # reason is editable: the call runs with it
    assert status_of(copilot, "#1042") == "Refunded"
    assert copilot.tool_calls[0].status == "complete"
    assert '"arrived broken"' in copilot.tool_calls[0].arguments


def test_the_summarize_button_shows_the_tasks_answer(copilot):
    copilot.agent.calls("orders_with_status", status="Processing").says("2 orders are still processing.")
    copilot.click(DashboardState.summarize_orders)
    dashboard = copilot.state(DashboardState)
    assert dashboard.summary == "2 orders are still processing."
    assert dashboard.status == "Processing"
    assert copilot.conversation == []
"""


def test_the_kit_drives_the_demo_app_its_page_loaded_as_a_browser_would(tmp_path):
    printed = run_suite(tmp_path, {"test_demo_flows.py": FLOWS})
    assert "3 passed" in printed, printed
