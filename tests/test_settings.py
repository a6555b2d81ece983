"""The copilot's settings in the environment: a misspelt one is named in the log with the setting meant, a variable
of another tool that shares the prefix is not, and the list of settings is every one the code reads."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from copilot_ui import _settings
from copilot_ui._settings import SETTINGS, misspelt_settings
from copilot_ui.server import agent_from_environment

PACKAGE = Path(__file__).resolve().parents[1] / "copilot_ui"


@pytest.fixture(autouse=True)
def not_warned_yet(monkeypatch):
    monkeypatch.setattr(_settings, "_warned", set())
    for name in ("COPILOT_AGENT_URL", "COPILOT_MODEL", "COPILOT_BASE_URL", "COPILOT_MCP_SERVERS"):
        monkeypatch.delenv(name, raising=False)


def test_a_misspelt_setting_is_named_in_the_log_with_the_setting_meant(monkeypatch, caplog):
    monkeypatch.setenv("COPILOT_MODLE", "openai:gpt-4o")
    with caplog.at_level(logging.WARNING, logger="copilot_ui"):
        agent_from_environment()
        agent_from_environment()  # (once a process)
    said = [record.getMessage() for record in caplog.records if "COPILOT_MODLE" in record.getMessage()]
    assert said == ["COPILOT_MODLE is set, but the copilot has no such setting and does not read it. Did you mean COPILOT_MODEL?"]


def test_variables_of_other_tools_that_share_the_prefix_are_left_alone():
    environ = {"COPILOT_GITHUB_TOKEN": "x", "COPILOT_ALLOW_ALL": "true", "COPILOT_MODEL": "demo", "COPY_TARGET": "y"}
    assert misspelt_settings(environ) == {}
    assert misspelt_settings({"copilot_model": "demo", "COPLIOT_STORE_URL": "x"}) == {
        "copilot_model": "COPILOT_MODEL",
        "COPLIOT_STORE_URL": "COPILOT_STORE_URL",
    }


def test_every_setting_the_code_reads_is_known():
    read = {
        name
        for source in PACKAGE.rglob("*.py")
        if source.name != "_settings.py"  # (its words name other tools' variables, and a misspelling)
        for name in re.findall(r"\bCOPILOT_[A-Z][A-Z_]*[A-Z]\b", source.read_text(encoding="utf-8"))
    }
    assert read <= set(SETTINGS), f"settings the code reads that _settings.SETTINGS does not list: {read - set(SETTINGS)}"
