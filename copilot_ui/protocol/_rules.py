"""The rules of an AG-UI event stream (a stream that breaks one raises copilot_ui.errors.ProtocolError).

Each rule is named for what it checks. Where the ag-ui-validate conformance checker has the same
rule, its code (AGUI###) is kept beside the name so that a person can look it up there.
"""

from __future__ import annotations

from enum import Enum


class Rule(Enum):
    """A rule of the AG-UI protocol that a stream can break."""

    # (name, code of the same rule in ag-ui-validate or "", what the rule says)
    NOT_JSON = ("not-json", "AGUI502", "every frame is one JSON object")
    SCHEMA = ("schema", "AGUI504", "a known event has the fields its type requires, with their types")
    INVALID_PATCH = ("invalid-patch", "AGUI303", "a state or activity delta is an RFC 6902 JSON Patch")
    FIRST_EVENT = ("first-event", "AGUI001", "the first event is RUN_STARTED (or RUN_ERROR)")
    RUN_ALREADY_ACTIVE = ("run-already-active", "AGUI002", "no RUN_STARTED while a run is active")
    RUN_NOT_TERMINATED = ("run-not-terminated", "AGUI003", "a run ends with RUN_FINISHED or RUN_ERROR")
    EVENT_AFTER_TERMINAL = (
        "event-after-terminal",
        "AGUI004",
        "after RUN_FINISHED only a new run or RUN_ERROR; after RUN_ERROR only a new run",
    )
    STEP_NOT_STARTED = ("step-not-started", "AGUI006", "STEP_FINISHED needs an open STEP_STARTED")
    STEP_ALREADY_ACTIVE = ("step-already-active", "", "no second STEP_STARTED for an open step")
    STEP_UNTERMINATED = ("step-unterminated", "AGUI007", "RUN_FINISHED needs every step finished")
    TEXT_WITHOUT_START = (
        "text-without-start",
        "AGUI101",
        "TEXT_MESSAGE_CONTENT needs an open TEXT_MESSAGE_START with that id",
    )
    TEXT_END_WITHOUT_START = (
        "text-end-without-start",
        "AGUI102",
        "TEXT_MESSAGE_END needs an open TEXT_MESSAGE_START with that id",
    )
    TEXT_UNTERMINATED = ("text-unterminated", "AGUI103", "RUN_FINISHED needs every text message ended")
    TEXT_ALREADY_OPEN = ("text-already-open", "AGUI106", "no second TEXT_MESSAGE_START for an open id")
    TOOL_ARGS_WITHOUT_START = (
        "tool-args-without-start",
        "AGUI201",
        "TOOL_CALL_ARGS needs an open TOOL_CALL_START with that id",
    )
    TOOL_END_WITHOUT_START = (
        "tool-end-without-start",
        "AGUI202",
        "TOOL_CALL_END needs an open TOOL_CALL_START with that id",
    )
    TOOL_UNTERMINATED = ("tool-unterminated", "AGUI203", "RUN_FINISHED needs every tool call ended")
    TOOL_ALREADY_OPEN = ("tool-already-open", "AGUI205", "no second TOOL_CALL_START for an open id")
    REASONING_WITHOUT_START = (
        "reasoning-without-start",
        "AGUI401",
        "reasoning content and ends need an open reasoning start with that id",
    )
    REASONING_ALREADY_OPEN = ("reasoning-already-open", "", "no second reasoning start for an open id")
    REASONING_UNTERMINATED = (
        "reasoning-unterminated",
        "AGUI402",
        "RUN_FINISHED needs every reasoning message and span ended",
    )
    SUBAGENT_DUPLICATE = ("subagent-duplicate", "AGUI601", "a subagent run id is started once per run")
    SUBAGENT_FINISHED_WITHOUT_START = (
        "subagent-finished-without-start",
        "AGUI602",
        "SUBAGENT_FINISHED needs an active SUBAGENT_STARTED",
    )
    SUBAGENT_ERROR_WITHOUT_START = (
        "subagent-error-without-start",
        "AGUI603",
        "SUBAGENT_ERROR needs an active SUBAGENT_STARTED",
    )
    SUBAGENT_UNTERMINATED = ("subagent-unterminated", "AGUI604", "RUN_FINISHED needs every subagent ended")
    SUBAGENT_UNKNOWN_PARENT = (
        "subagent-unknown-parent",
        "AGUI605",
        "parentSubagentRunId names a subagent started in this run",
    )
    OWNER_MISMATCH = (
        "owner-mismatch",
        "AGUI606",
        "an event continuing a message, tool call or reasoning block comes from the subagent that opened it",
    )
    NULL_ATTRIBUTION = ("null-attribution", "", "subagentRunId is absent or a string, never null")
    CHUNK_WITHOUT_ID = ("chunk-without-id", "", "the first chunk of a stream carries its id (and a tool name)")
    CHUNK_DISAGREES = ("chunk-disagrees", "", "a continuing chunk repeats its opener's role, name or parent")

    def __init__(self, slug: str, code: str, says: str) -> None:
        self.slug = slug
        self.code = code
        self.says = says

    def __str__(self) -> str:
        return f"{self.slug} ({self.code})" if self.code else self.slug
