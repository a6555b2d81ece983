"""An app's own test suite loads the kit as the testing guide says (`pytest_plugins` in its conftest.py) and runs
its copilot flows with pytest: a right expectation passes, a wrong one fails saying what the app's state was."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.testing_kit._suite import run_suite

FLOWS = """
from dashboard import DashboardState


def test_the_refund_runs_once_approved(copilot):
    copilot.agent.calls("refund_order", order_id="#1043", reason="lost").says("Refunded.")
    copilot.say("refund 1043")
    copilot.approve()
    assert copilot.state(DashboardState).refunded == ["#1043"]


def test_a_wrong_expectation(copilot):
    copilot.agent.calls("filter_orders", city="Paris").says("Paris.")
    copilot.say("filter to Paris")
    assert copilot.state(DashboardState).city == "Berlin"
"""


def test_an_apps_own_suite_runs_its_copilot_flows_with_the_plugin(tmp_path):
    shutil.copy(Path(__file__).parent / "dashboard.py", tmp_path / "dashboard.py")
    printed = run_suite(tmp_path, {"test_flows.py": FLOWS})
    assert "1 failed, 1 passed" in printed, printed
    assert "test_a_wrong_expectation" in printed
    assert "assert 'Paris' == 'Berlin'" in printed
