"""An app's own test suite loads the kit as the testing guide says (`pytest_plugins` in its conftest.py) and runs
its copilot flows with pytest: a right expectation passes, a wrong one fails saying what the app's state was."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]

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
    app = tmp_path / "shop"
    app.mkdir()
    shutil.copy(Path(__file__).parent / "dashboard.py", app / "dashboard.py")
    (app / "conftest.py").write_text('pytest_plugins = ["copilot_ui.testing"]\n')
    (app / "test_flows.py").write_text(FLOWS)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(app), str(ROOT)])}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_flows.py"],
        cwd=app, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert "1 failed, 1 passed" in run.stdout, run.stdout + run.stderr
    assert "test_a_wrong_expectation" in run.stdout
    assert "assert 'Paris' == 'Berlin'" in run.stdout
