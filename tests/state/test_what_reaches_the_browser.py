"""Reflex sends every public state var to the browser: the copilot's public vars are only what its pages show."""

from __future__ import annotations

from copilot_ui.state import ApprovalState, CopilotState, LiveState, TaskState, ThreadsState

STATES = (CopilotState, LiveState, ApprovalState, ThreadsState, TaskState)


def test_the_copilot_states_send_only_what_the_copilot_shows():
    # A new public var here reaches every browser: check it holds no secret (keys, headers, URLs), then list it.
    assert sorted(CopilotState.base_vars) == [
        "agent",  # an agent id of the app's own list
        "has_older",
        "items",
        "last_reply",
        "model",  # the model's name ("gpt-4o"): a model name, never a URL or a key
        "older",
        "owner_token",  # the browser's own signed cookie
        "suggestions",
        "thread_id",  # the tab's conversation (only ever looked up among its owner's)
    ]
    assert sorted(LiveState.base_vars) == ["dev", "running", "status"]
    assert sorted(ApprovalState.base_vars) == [
        "digest",
        "editable",
        "error",
        "fields",
        "item",
        "open",
        "sentence",
        "title",
        "tool",
        "undecided",  # an item id of the tab's own conversation (where focus goes back to)
    ]
    assert sorted(ThreadsState.base_vars) == ["deleting", "refocus", "renaming", "search", "searched", "threads"]
    # An agent task's cards: its tools' names, titles, arguments and results, which the task panel shows
    assert sorted(TaskState.base_vars) == ["busy", "cards"]
    for state in STATES:
        assert state.computed_vars == {}


def test_only_the_persons_events_can_be_called_from_a_browser():
    # Every public method of a Reflex state is an event a browser can send, with any arguments: list them.
    events = {
        # setvar (Reflex's own) sets a public var of the person's own view, never a backend var
        state.__name__: sorted(name for name in state.event_handlers if name != "setvar" and not name.startswith("set_"))
        for state in STATES
    }
    assert events == {
        "CopilotState": sorted(
            [
                "answer",
                "approve",
                "approve_form",
                "browser_result",
                "deny",
                "deny_form",
                "edit",
                "load_older",
                "need_texts",
                "new_conversation",
                "open",
                "pick_agent",
                "rate",  # a reply of the tab's own conversation, by its item id; good or bad, a bounded comment
                "regenerate",
                "respond",
                "respond_form",
                "retry",
                "review",
                "send",
                "stop",
            ]
        ),
        "LiveState": [],
        "ApprovalState": ["close"],
        "TaskState": ["answer", "approve", "deny"],
        "ThreadsState": ["ask_delete", "cancel", "delete", "find", "opened", "refresh", "rename", "select", "start_rename"],
    }
