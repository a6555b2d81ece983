"""The order of events in a stream: the sequence rules of the reference client (verifyEvents).

A stream that breaks a rule is rejected at the first event that breaks it, with an error naming
the rule, the event's index in the stream and its type. Streams the reference client accepts
(several runs in a row, a late RUN_ERROR, a closed id opened again, ...) are accepted here too.
"""

from __future__ import annotations

import inspect
import re

import pytest
from ag_ui.core import (
    ActivityDeltaEvent,
    ActivitySnapshotEvent,
    AssistantMessage,
    CustomEvent,
    MessagesSnapshotEvent,
    ReasoningEncryptedValueEvent,
    ReasoningEndEvent,
    ReasoningMessageContentEvent,
    ReasoningMessageEndEvent,
    ReasoningMessageStartEvent,
    ReasoningStartEvent,
    RunErrorEvent,
    StateSnapshotEvent,
    StepFinishedEvent,
    StepStartedEvent,
    SubagentErrorEvent,
    SubagentFinishedEvent,
    SubagentStartedEvent,
    TextMessageChunkEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)

from copilot_ui.protocol import Rule, _chunks, _verify

from ._streams import feed, in_one_run, rejection, run_finished, run_started


def text_start(message_id="m1", **fields):
    return TextMessageStartEvent(message_id=message_id, **fields)


def text_content(message_id="m1", delta="hi", **fields):
    return TextMessageContentEvent(message_id=message_id, delta=delta, **fields)


def text_end(message_id="m1", **fields):
    return TextMessageEndEvent(message_id=message_id, **fields)


def call_start(call_id="c1", **fields):
    return ToolCallStartEvent(tool_call_id=call_id, tool_call_name="search", **fields)


def call_args(call_id="c1", delta="{}", **fields):
    return ToolCallArgsEvent(tool_call_id=call_id, delta=delta, **fields)


def call_end(call_id="c1", **fields):
    return ToolCallEndEvent(tool_call_id=call_id, **fields)


def reasoning_start(message_id="r1"):
    return ReasoningMessageStartEvent(message_id=message_id, role="reasoning")


def subagent_started(run_id="s1", **fields):
    return SubagentStartedEvent(subagent_run_id=run_id, name="researcher", **fields)


def subagent_finished(run_id="s1"):
    return SubagentFinishedEvent(subagent_run_id=run_id)


BROKEN_STREAMS = [
    # Runs
    pytest.param([text_start()], Rule.FIRST_EVENT, 0, id="text-before-any-run"),
    pytest.param([run_finished()], Rule.FIRST_EVENT, 0, id="run-finished-before-any-run"),
    pytest.param([run_started(), run_started("run-2")], Rule.RUN_ALREADY_ACTIVE, 1, id="run-started-inside-a-run"),
    pytest.param([run_started(), text_start()], Rule.RUN_NOT_TERMINATED, 2, id="stream-ends-inside-a-run"),
    pytest.param([run_started(), run_finished(), text_start()], Rule.EVENT_AFTER_TERMINAL, 2, id="text-after-run-finished"),
    pytest.param(
        [run_started(), run_finished(), StepStartedEvent(step_name="plan")],
        Rule.EVENT_AFTER_TERMINAL,
        2,
        id="step-after-run-finished",
    ),
    pytest.param(
        [run_started(), run_finished(), StateSnapshotEvent(snapshot={})],
        Rule.EVENT_AFTER_TERMINAL,
        2,
        id="state-after-run-finished",
    ),
    pytest.param(
        [run_started(), run_finished(), CustomEvent(name="acme.ping", value=1)],
        Rule.EVENT_AFTER_TERMINAL,
        2,
        id="custom-after-run-finished",
    ),
    pytest.param([run_started(), run_finished(), run_finished()], Rule.EVENT_AFTER_TERMINAL, 2, id="run-finished-twice"),
    pytest.param(
        [run_started(), RunErrorEvent(message="boom"), text_start()], Rule.EVENT_AFTER_TERMINAL, 2, id="text-after-run-error"
    ),
    pytest.param(
        [run_started(), RunErrorEvent(message="boom"), run_finished()],
        Rule.EVENT_AFTER_TERMINAL,
        2,
        id="run-finished-after-run-error",
    ),
    pytest.param(
        [run_started(), RunErrorEvent(message="boom"), RunErrorEvent(message="again")],
        Rule.EVENT_AFTER_TERMINAL,
        2,
        id="run-error-twice",
    ),
    pytest.param(
        [run_started(), run_finished(), RunErrorEvent(message="late"), text_start()],
        Rule.EVENT_AFTER_TERMINAL,
        3,
        id="text-after-a-late-run-error",
    ),
    pytest.param([RunErrorEvent(message="boom"), text_start()], Rule.EVENT_AFTER_TERMINAL, 1, id="text-after-a-first-run-error"),
    # Text messages
    pytest.param([run_started(), text_content()], Rule.TEXT_WITHOUT_START, 1, id="text-content-without-start"),
    pytest.param(
        [run_started(), text_start("m1"), text_content("m2")], Rule.TEXT_WITHOUT_START, 2, id="text-content-for-another-id"
    ),
    pytest.param(
        [run_started(), text_start(), text_end(), text_content()], Rule.TEXT_WITHOUT_START, 3, id="text-content-after-end"
    ),
    pytest.param([run_started(), text_end()], Rule.TEXT_END_WITHOUT_START, 1, id="text-end-without-start"),
    pytest.param([run_started(), text_start(), text_start()], Rule.TEXT_ALREADY_OPEN, 2, id="text-started-twice"),
    pytest.param([run_started(), text_start(), run_finished()], Rule.TEXT_UNTERMINATED, 2, id="run-finished-with-open-text"),
    # Tool calls
    pytest.param([run_started(), call_args()], Rule.TOOL_ARGS_WITHOUT_START, 1, id="tool-args-without-start"),
    pytest.param(
        [run_started(), call_start("c1"), call_args("c2")], Rule.TOOL_ARGS_WITHOUT_START, 2, id="tool-args-for-another-id"
    ),
    pytest.param(
        [run_started(), call_start(), call_end(), call_args()], Rule.TOOL_ARGS_WITHOUT_START, 3, id="tool-args-after-end"
    ),
    pytest.param([run_started(), call_end()], Rule.TOOL_END_WITHOUT_START, 1, id="tool-end-without-start"),
    pytest.param([run_started(), call_start(), call_start()], Rule.TOOL_ALREADY_OPEN, 2, id="tool-call-started-twice"),
    pytest.param([run_started(), call_start(), run_finished()], Rule.TOOL_UNTERMINATED, 2, id="run-finished-with-open-tool-call"),
    # Reasoning
    pytest.param(
        [run_started(), ReasoningMessageContentEvent(message_id="r1", delta="hm")],
        Rule.REASONING_WITHOUT_START,
        1,
        id="reasoning-content-without-start",
    ),
    pytest.param(
        [run_started(), ReasoningMessageEndEvent(message_id="r1")],
        Rule.REASONING_WITHOUT_START,
        1,
        id="reasoning-message-end-without-start",
    ),
    pytest.param(
        [run_started(), reasoning_start("r1"), ReasoningEndEvent(message_id="r1")],
        Rule.REASONING_WITHOUT_START,
        2,
        id="reasoning-span-end-for-an-open-message",
    ),
    pytest.param(
        [run_started(), reasoning_start(), reasoning_start()],
        Rule.REASONING_ALREADY_OPEN,
        2,
        id="reasoning-message-started-twice",
    ),
    pytest.param(
        [run_started(), ReasoningStartEvent(message_id="r1"), ReasoningStartEvent(message_id="r1")],
        Rule.REASONING_ALREADY_OPEN,
        2,
        id="reasoning-span-started-twice",
    ),
    pytest.param(
        [run_started(), reasoning_start(), run_finished()],
        Rule.REASONING_UNTERMINATED,
        2,
        id="run-finished-with-open-reasoning-message",
    ),
    pytest.param(
        [run_started(), ReasoningStartEvent(message_id="r1"), run_finished()],
        Rule.REASONING_UNTERMINATED,
        2,
        id="run-finished-with-open-reasoning-span",
    ),
    # Steps
    pytest.param(
        [run_started(), StepFinishedEvent(step_name="plan")], Rule.STEP_NOT_STARTED, 1, id="step-finished-without-start"
    ),
    pytest.param(
        [run_started(), StepStartedEvent(step_name="plan"), StepStartedEvent(step_name="plan")],
        Rule.STEP_ALREADY_ACTIVE,
        2,
        id="step-started-twice",
    ),
    pytest.param(
        [
            run_started(),
            subagent_started("s1"),
            StepStartedEvent(step_name="tools"),
            StepFinishedEvent(step_name="tools", subagent_run_id="s1"),
        ],
        Rule.STEP_NOT_STARTED,
        3,
        id="parent-step-finished-by-a-subagent",
    ),
    pytest.param(
        [run_started(), StepStartedEvent(step_name="plan"), run_finished()],
        Rule.STEP_UNTERMINATED,
        2,
        id="run-finished-with-open-step",
    ),
    pytest.param(
        [
            run_started(),
            subagent_started("s1"),
            StepStartedEvent(step_name="tools", subagent_run_id="s1"),
            subagent_finished("s1"),
            run_finished(),
        ],
        Rule.STEP_UNTERMINATED,
        4,
        id="run-finished-with-a-subagents-open-step",
    ),
    # Subagents
    pytest.param(
        [run_started(), subagent_started("s1"), subagent_started("s1")], Rule.SUBAGENT_DUPLICATE, 2, id="subagent-started-twice"
    ),
    pytest.param(
        [run_started(), subagent_started("s1"), subagent_finished("s1"), subagent_started("s1")],
        Rule.SUBAGENT_DUPLICATE,
        3,
        id="subagent-id-reused-after-it-finished",
    ),
    pytest.param(
        [run_started(), subagent_finished("s1")], Rule.SUBAGENT_FINISHED_WITHOUT_START, 1, id="subagent-finished-without-start"
    ),
    pytest.param(
        [run_started(), subagent_started("s1"), subagent_finished("s1"), subagent_finished("s1")],
        Rule.SUBAGENT_FINISHED_WITHOUT_START,
        3,
        id="subagent-finished-twice",
    ),
    pytest.param(
        [run_started(), SubagentErrorEvent(subagent_run_id="s1", message="boom")],
        Rule.SUBAGENT_ERROR_WITHOUT_START,
        1,
        id="subagent-error-without-start",
    ),
    pytest.param(
        [run_started(), subagent_started("s1"), run_finished()],
        Rule.SUBAGENT_UNTERMINATED,
        2,
        id="run-finished-with-open-subagent",
    ),
    pytest.param(
        [run_started(), subagent_started("s2", parent_subagent_run_id="ghost")],
        Rule.SUBAGENT_UNKNOWN_PARENT,
        1,
        id="subagent-names-an-unknown-parent",
    ),
    # Attribution: a continuation comes from whoever opened the entity
    pytest.param(
        [run_started(), text_start(subagent_run_id="s1"), text_content(subagent_run_id="s2")],
        Rule.OWNER_MISMATCH,
        2,
        id="text-continued-by-another-subagent",
    ),
    pytest.param(
        [run_started(), text_start(), text_end(subagent_run_id="s1")],
        Rule.OWNER_MISMATCH,
        2,
        id="parent-text-ended-by-a-subagent",
    ),
    pytest.param(
        [run_started(), text_start(subagent_run_id="s1"), text_end(), text_start(subagent_run_id="s2")],
        Rule.OWNER_MISMATCH,
        3,
        id="closed-text-reopened-by-another-subagent",
    ),
    pytest.param(
        [run_started(), call_start(subagent_run_id="s1"), call_args(subagent_run_id="s2")],
        Rule.OWNER_MISMATCH,
        2,
        id="tool-args-from-another-subagent",
    ),
    pytest.param(
        [
            run_started(),
            text_start("m1", subagent_run_id="s1"),
            text_end("m1"),
            call_start("c1", parent_message_id="m1", subagent_run_id="s2"),
        ],
        Rule.OWNER_MISMATCH,
        3,
        id="tool-call-tagged-unlike-its-parent-message",
    ),
    pytest.param(
        [
            run_started(),
            call_start("c1", subagent_run_id="s1"),
            call_end("c1"),
            ReasoningEncryptedValueEvent(subtype="tool-call", entity_id="c1", encrypted_value="x", subagent_run_id="s2"),
        ],
        Rule.OWNER_MISMATCH,
        3,
        id="encrypted-value-for-another-subagents-call",
    ),
    pytest.param(
        [
            run_started(),
            ActivitySnapshotEvent(message_id="a1", activity_type="plan", content={}, subagent_run_id="s1"),
            ActivityDeltaEvent(message_id="a1", activity_type="plan", patch=[], subagent_run_id="s2"),
        ],
        Rule.OWNER_MISMATCH,
        2,
        id="activity-patched-by-another-subagent",
    ),
    pytest.param(
        [
            run_started(),
            MessagesSnapshotEvent(messages=[AssistantMessage(id="m1", content="hi", subagent_run_id="s1")]),
            text_start("m1", subagent_run_id="s2"),
        ],
        Rule.OWNER_MISMATCH,
        2,
        id="snapshot-message-reopened-by-another-subagent",
    ),
    pytest.param(
        [run_started(), {"type": "TEXT_MESSAGE_START", "messageId": "m1", "subagentRunId": None}],
        Rule.NULL_ATTRIBUTION,
        1,
        id="null-subagent-run-id-in-json",
    ),
    pytest.param(
        [run_started(), text_start(subagent_run_id=None)], Rule.NULL_ATTRIBUTION, 1, id="null-subagent-run-id-set-in-python"
    ),
    pytest.param(
        [
            run_started(),
            {
                "type": "MESSAGES_SNAPSHOT",
                "messages": [
                    {"id": "u1", "role": "user", "content": "hi"},
                    {"id": "m1", "role": "assistant", "content": "hello", "subagentRunId": None},
                ],
            },
        ],
        Rule.NULL_ATTRIBUTION,
        1,
        id="null-subagent-run-id-on-a-snapshot-message",
    ),
    pytest.param(
        [
            {
                "type": "RUN_STARTED",
                "threadId": "thread-1",
                "runId": "run-1",
                "input": {
                    "threadId": "thread-1",
                    "runId": "run-1",
                    "messages": [{"id": "u1", "role": "user", "content": "hi", "subagentRunId": None}],
                },
            }
        ],
        Rule.NULL_ATTRIBUTION,
        0,
        id="null-subagent-run-id-on-a-message-of-the-run-input",
    ),
    pytest.param(
        [
            run_started(),
            {
                "type": "RUN_FINISHED",
                "threadId": "thread-1",
                "runId": "run-1",
                "outcome": {
                    "type": "interrupt",
                    "interrupts": [{"id": "int-1", "reason": "confirmation", "subagentRunId": None}],
                },
            },
        ],
        Rule.NULL_ATTRIBUTION,
        1,
        id="null-subagent-run-id-on-an-interrupt",
    ),
    # Chunks
    pytest.param(
        [run_started(), TextMessageChunkEvent(message_id="m1", delta="a"), TextMessageChunkEvent(delta="b", role="user")],
        Rule.CHUNK_DISAGREES,
        2,
        id="chunk-changes-the-role-of-its-message",
    ),
    pytest.param(
        [run_started(), TextMessageChunkEvent(delta="a")], Rule.CHUNK_WITHOUT_ID, 1, id="first-chunk-without-message-id"
    ),
]


@pytest.mark.parametrize(("events", "rule", "index"), BROKEN_STREAMS)
def test_stream_breaking_a_rule_is_rejected_at_the_offending_event(events, rule, index):
    error = rejection(events)
    assert error.rule is rule
    assert error.index == index


def test_every_rule_the_verifier_and_chunk_expander_raise_has_a_broken_stream_here():
    raised = set()
    for module in (_verify, _chunks):
        raised |= {Rule[name] for name in re.findall(r"Rule\.([A-Z_]+)", inspect.getsource(module))}
    # SCHEMA is the verifier's guard for in-process events without a subagentRunId; ag_ui's models
    # already refuse to build those (see test_parse_frames for schema errors).
    raised.discard(Rule.SCHEMA)
    covered = {case.values[1] for case in BROKEN_STREAMS}
    assert raised <= covered, f"rules without a broken stream: {sorted(rule.slug for rule in raised - covered)}"


def test_nested_null_attribution_names_the_message_that_carries_it():
    error = rejection(
        [run_started(), MessagesSnapshotEvent(messages=[AssistantMessage(id="m7", content="hi", subagent_run_id=None)])]
    )
    assert error.rule is Rule.NULL_ATTRIBUTION
    assert "message 'm7'" in str(error)


def test_nested_messages_and_interrupts_without_a_subagent_run_id_are_accepted():
    thread = feed(
        [
            run_started(),
            {"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "m1", "role": "assistant", "content": "hello"}]},
            {
                "type": "RUN_FINISHED",
                "threadId": "thread-1",
                "runId": "run-1",
                "outcome": {"type": "interrupt", "interrupts": [{"id": "int-1", "reason": "confirmation"}]},
            },
        ]
    )
    assert [(message.id, message.content, message.subagent_run_id) for message in thread.messages] == [("m1", "hello", None)]
    assert thread.outcome.kind == "interrupt"
    assert [(interrupt.id, interrupt.reason, interrupt.subagent_run_id) for interrupt in thread.interrupts] == [
        ("int-1", "confirmation", None)
    ]


def test_error_names_the_rule_the_event_index_and_the_event_type():
    error = rejection([run_started(), text_start("m1"), text_content("ghost")])
    text = str(error)
    assert "text-without-start" in text
    assert "AGUI101" in text
    assert "event 2" in text
    assert "TEXT_MESSAGE_CONTENT" in text
    assert "ghost" in text
    assert error.event_type == "TEXT_MESSAGE_CONTENT"


@pytest.mark.parametrize(
    ("opening", "named"),
    [
        pytest.param([text_start("msg-7")], "msg-7", id="text-message"),
        pytest.param([call_start("lookup-42")], "lookup-42", id="tool-call"),
        pytest.param([StepStartedEvent(step_name="plan")], "plan", id="step"),
        pytest.param([reasoning_start("thought-3")], "thought-3", id="reasoning-message"),
        pytest.param([ReasoningStartEvent(message_id="span-5")], "span-5", id="reasoning-span"),
        pytest.param([subagent_started("researcher-1")], "researcher-1", id="subagent"),
        pytest.param(
            [subagent_started("s1"), StepStartedEvent(step_name="tools", subagent_run_id="s1"), subagent_finished("s1")],
            "tools (subagent 's1')",
            id="subagents-step",
        ),
    ],
)
def test_run_finished_with_something_open_names_what_is_open(opening, named):
    error = rejection([run_started(), *opening, run_finished()])
    assert error.event_type == "RUN_FINISHED"
    assert named in str(error)


def test_run_error_may_be_the_first_event():
    thread = feed([RunErrorEvent(message="the agent is down")])
    assert thread.outcome.kind == "error"


def test_runs_may_follow_one_another_in_one_stream():
    thread = feed(
        [
            *in_one_run(text_start("m1"), text_content("m1", "first"), text_end("m1")),
            run_started("run-2"),
            RunErrorEvent(message="boom"),
            run_started("run-3"),
            text_start("m2"),
            text_content("m2", "third"),
            text_end("m2"),
            run_finished("run-3"),
        ]
    )
    assert [message.content for message in thread.messages] == ["first", "third"]
    assert thread.outcome.kind == "success"


def test_each_new_run_starts_its_tracking_afresh():
    # The subagent id, the step name and the message id of the first run may be used again by the second.
    def one_run(said):
        return [
            subagent_started("s1"),
            StepStartedEvent(step_name="plan"),
            text_start("m1", subagent_run_id="s1"),
            text_content("m1", said),
            text_end("m1"),
            StepFinishedEvent(step_name="plan"),
            subagent_finished("s1"),
        ]

    thread = feed([*in_one_run(*one_run("first ")), *in_one_run(*one_run("second"))])
    assert [message.content for message in thread.messages] == ["first second"]  # m1 opened again, as a closed id may be
    assert thread.outcome.kind == "success"


def test_late_run_error_after_run_finished_is_accepted():
    thread = feed([run_started(), run_finished(), RunErrorEvent(message="cleanup failed")])
    assert thread.outcome.kind == "error"
    assert thread.outcome.message == "cleanup failed"


def test_a_closed_text_message_may_be_opened_again():
    thread = feed(
        in_one_run(text_start(), text_content(delta="a"), text_end(), text_start(), text_content(delta="b"), text_end())
    )
    assert [message.content for message in thread.messages] == ["ab"]


def test_a_closed_tool_call_may_be_started_again():
    thread = feed(in_one_run(call_start(), call_args(delta='{"q":'), call_end(), call_start(), call_args(delta="1}"), call_end()))
    assert thread.tool_call("c1").function.arguments == '{"q":1}'


def test_empty_text_message_is_accepted():
    thread = feed(in_one_run(text_start(), text_end()))
    assert thread.message("m1").content == ""


def test_reasoning_span_and_its_message_may_share_an_id():
    thread = feed(
        in_one_run(
            ReasoningStartEvent(message_id="r1"),
            reasoning_start("r1"),
            ReasoningMessageContentEvent(message_id="r1", delta="weighing the options"),
            ReasoningMessageEndEvent(message_id="r1"),
            ReasoningEndEvent(message_id="r1"),
        )
    )
    assert [(message.id, message.role, message.content) for message in thread.messages] == [
        ("r1", "reasoning", "weighing the options")
    ]
    assert thread.outcome.kind == "success"


def test_parent_and_subagent_may_each_have_a_step_of_the_same_name_open():
    both_open = [
        subagent_started("s1"),
        StepStartedEvent(step_name="tools"),
        StepStartedEvent(step_name="tools", subagent_run_id="s1"),
    ]
    thread = feed(
        in_one_run(
            *both_open,
            StepFinishedEvent(step_name="tools"),
            StepFinishedEvent(step_name="tools", subagent_run_id="s1"),
            subagent_finished("s1"),
        )
    )
    assert thread.outcome.kind == "success"
    error = rejection([run_started(), *both_open, StepFinishedEvent(step_name="tools"), run_finished()])
    assert error.rule is Rule.STEP_UNTERMINATED  # the parent's step closed, the subagent's is still open
    assert "tools (subagent 's1')" in str(error)


def test_untagged_continuation_belongs_to_whoever_opened_it():
    thread = feed(
        in_one_run(
            subagent_started("s1"),
            text_start(subagent_run_id="s1"),
            text_content(delta="from s1"),
            text_end(),
            subagent_finished("s1"),
        )
    )
    assert thread.message("m1").content == "from s1"


def test_nested_subagent_may_name_a_parent_started_in_the_run():
    thread = feed(
        in_one_run(
            subagent_started("s1"),
            subagent_started("s2", parent_subagent_run_id="s1"),
            subagent_finished("s2"),
            subagent_finished("s1"),
            subagent_started("s3", parent_subagent_run_id="s1"),
            subagent_finished("s3"),
        )
    )
    assert thread.outcome.kind == "success"
    error = rejection(in_one_run(subagent_started("s2", parent_subagent_run_id="s1")))
    assert error.rule is Rule.SUBAGENT_UNKNOWN_PARENT  # the same naming, with no s1 started in the run, is refused
    assert "parentSubagentRunId 's1' was not started in this run" in str(error)


def test_subagent_error_does_not_end_the_run():
    thread = feed(
        in_one_run(
            subagent_started("s1"),
            SubagentErrorEvent(subagent_run_id="s1", message="the researcher failed"),
            text_start(),
            text_content(delta="I will answer myself."),
            text_end(),
        )
    )
    assert thread.outcome.kind == "success"
    assert thread.message("m1").content == "I will answer myself."
