"""Reflex sends every public state var to the browser: the copilot's public vars are only what the sidebar shows."""

from __future__ import annotations

from copilot_ui.state import CopilotState, LiveState


def test_the_copilot_states_send_only_the_conversation_and_its_live_part():
    # A new public var here reaches every browser: check it holds no secret (keys, headers, URLs), then list it.
    assert sorted(CopilotState.base_vars) == ["items", "running"]
    assert sorted(LiveState.base_vars) == ["status", "text", "tools"]
    assert CopilotState.computed_vars == {}
    assert LiveState.computed_vars == {}
