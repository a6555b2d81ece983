"""Every word the copilot shows, in one place: set them for the whole app (`cui.copilot.labels`) or for one layout
(`cui.sidebar(labels=...)`), to rename a button or to speak another language.

    cui.copilot.labels = cui.Labels(placeholder="Ask Acme…", greeting="Hello! What shall we look at?")

The defaults are the copilot's own words. Notices written while a run goes ("Thinking…", "Stopped.", "Waiting for the
agent… 12 s") are made on the server, for whichever page shows the conversation: they follow the app's labels
(`cui.copilot.labels`), not a layout's.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from ...core._attachments import REFUSALS, SIZE_WORDS, fill_template

DEFAULT_ICONS = {
    "copilot": "sparkles",  # before the title in the header
    "open": "sparkles",  # the button that opens the sidebar or the popup
    "close_popup": "x",  # the popup's button while it is open
    "new_conversation": "message-square-plus",
    "conversations": "history",
    "close": "panel-right-close",
    "send": "send",
    "stop": "square",
    "copy": "copy",
    "copied": "check",
    "edit": "pencil",
    "regenerate": "refresh-cw",
    "good_response": "thumbs-up",
    "bad_response": "thumbs-down",
    "tool": "wrench",
    "error": "triangle-alert",
}
STATUS_WORDS = {
    "streaming": "Preparing",
    "pending": "Waiting",
    "running": "Running",
    "awaiting_approval": "Needs approval",
    "awaiting_input": "Needs your answer",
    "complete": "Done",
    "error": "Failed",
    "denied": "Denied",
    "aborted": "Stopped",
    "skipped": "Not run",
    "dropped": "Discarded",
}


@dataclass(frozen=True, kw_only=True)
class Labels:
    """The copilot's words. Texts with `{…}` are templates whose fields the copilot fills (`{minutes} min ago`): a
    translation may use them or leave them out, but a field the label does not have, or a name `Labels` does not
    have, is refused at once, with the close matches."""

    # The header
    title: str = "Copilot"
    new_conversation: str = "New conversation"
    conversations: str = "Conversations"
    close: str = "Close the copilot"
    close_tooltip: str = "Close"
    open: str = "Open the copilot"  # the popup's button, and the sidebar's when it is collapsed
    with_keys: str = "{label} ({keys})"  # the tooltip of a button that has a shortcut ("Open the copilot (Ctrl+/)")
    keys_or: str = "{one} or {other}"  # a shortcut with Ctrl or ⌘ ("Ctrl+/ or ⌘/"; the keys keep their names)
    model: str = "The model that answers: {model}"  # the model's name's tooltip
    demo_model: str = "Demo model"  # the offline demo model's name
    demo_model_hint: str = (
        "Scripted answers from the offline demo model. "
        "Set COPILOT_MODEL (e.g. openai:gpt-4o-mini) or COPILOT_AGENT_URL for a real one."
    )
    reconnecting: str = "Reconnecting…"
    agent_picker: str = "Agent"
    resize: str = "Resize the copilot"  # the docked sidebar's edge
    # The conversation
    conversation: str = "Conversation"
    greeting: str = "Ask about the page, or ask the copilot to change it."  # an empty conversation's first words
    suggestions: str = "Suggestions"
    show_earlier: str = "Show earlier messages"
    jump_to_latest: str = "↓ Jump to latest"
    more_characters: str = "{count} more characters"  # under a long text, cut
    show_all: str = "Show all"
    you: str = "You"  # the group of a message of the person's
    assistant: str = "Copilot"  # the group of a reply
    queued: str = "Queued"
    thinking: str = "Thinking…"
    thought_for: str = "Thought for {seconds} s"
    thoughts: str = "Thoughts"
    retry: str = "Retry"
    # The list of conversations
    just_now: str = "just now"  # when a conversation last changed, in the list
    minutes_ago: str = "{minutes} min ago"
    hours_ago: str = "{hours} h ago"
    months: tuple[str, ...] = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
    day_and_month: str = "{day} {month}"  # a conversation last changed a day ago or more
    no_such_agent: str = "There is no agent {agent} here; this copilot can use: {agents}."
    search_conversations: str = "Search conversations"
    no_match: str = "No match"
    no_conversations: str = "No conversations yet."
    rename: str = "Rename {title}"
    delete: str = "Delete {title}"
    new_title: str = "New title"
    save: str = "Save"
    confirm_delete: str = "Delete “{title}”?"
    delete_button: str = "Delete"
    keep: str = "Keep"
    # The composer
    placeholder: str = "Ask the copilot…"
    composer: str = "Ask the copilot"  # the message box's accessible name
    send: str = "Send"
    stop: str = "Stop"
    # Files in the composer and in a message (`cui.attachment_endpoint()`); {name}, {size}, {limit}, {count},
    # {status} are filled in the browser
    attach_files: str = "Attach files"
    attached_files: str = "Attached files"  # the list of files waiting in the composer
    sent_files: str = "Files"  # the list of a message's files
    remove_file: str = "Remove {name}"
    uploading: str = "Uploading…"
    one_byte: str = SIZE_WORDS["one_byte"]  # a file's size, as the composer and a message show it
    bytes_size: str = SIZE_WORDS["bytes_size"]
    kilobytes: str = SIZE_WORDS["kilobytes"]
    megabytes: str = SIZE_WORDS["megabytes"]
    # Why a file is refused ({size}, {limit} and {held} are sizes, written with the four labels above)
    file_type_refused: str = REFUSALS["file_type_refused"]
    file_empty: str = REFUSALS["file_empty"]
    file_too_big: str = REFUSALS["file_too_big"]
    too_many_files: str = REFUSALS["too_many_files"]
    conversation_full: str = REFUSALS["conversation_full"]
    too_many_unsent: str = REFUSALS["too_many_unsent"]
    upload_permission_renewed: str = (
        "{name} was not uploaded: this page's permission to attach files had run out and is renewed now. Attach it again."
    )
    upload_failed: str = "{name}: the upload failed ({status})"
    wait_for_uploads: str = "Wait for the files to finish uploading, then send."
    # A message whose files cannot go is not sent; the conversation says why ({names}: the files, by name)
    not_sent_over_limit: str = (
        "The message was not sent: its files would take this conversation past its limit of {limit} of files "
        "(it holds {held}). Remove some, or start a new conversation."
    )
    not_sent_file_gone: str = (
        "The message was not sent: {names} is no longer here for you (files not sent within a day are forgotten, "
        "and logging out leaves them behind). Attach it again, then send."
    )
    not_sent_files_gone: str = (
        "The message was not sent: {names} are no longer here for you (files not sent within a day are forgotten, "
        "and logging out leaves them behind). Attach them again, then send."
    )
    # A message's actions
    copy: str = "Copy message"
    copied: str = "Copied"
    edit: str = "Edit message"
    edit_box: str = "Edit your message"
    cancel: str = "Cancel"
    regenerate: str = "Regenerate"
    good_response: str = "Good response"
    bad_response: str = "Bad response"
    feedback_comment: str = "What was wrong? (optional)"
    send_feedback: str = "Send feedback"
    feedback_thanks: str = "Thanks for your feedback"
    # Tool cards and the approval dialog
    arguments: str = "Arguments"
    result: str = "Result"
    approve: str = "Approve"
    deny: str = "Deny"
    not_now: str = "Not now"
    editable_arguments: str = "Arguments (you can change them)"
    deny_reason: str = "Reason (optional)"
    deny_placeholder: str = "Why not? The agent reads it."
    review: str = "Review"
    answer: str = "Answer"
    your_answer: str = "Your answer"
    runs_once_approved: str = "This call runs only once you approve it."
    answer_not_used: str = "Your answer “{answer}” could not be used; the copilot was told why."  # {answer}: theirs
    approval_sentence: str = "Run {tool}."  # what the dialog says a tool with no description does
    not_a_number: str = "{name}: “{value}” is not a number"  # an argument changed in the dialog that does not fit
    not_json: str = "{name}: “{value}” is not valid JSON"
    not_run: str = "Not run: you wrote a new message instead"
    activity_content: str = "Content"
    tool_call_card: str = "Tool call {tool}"  # a tool card's accessible name
    activity_card: str = "Activity {type}"
    statuses: dict[str, str] = field(default_factory=lambda: dict(STATUS_WORDS))  # a tool card's status -> its word
    # The task panel (`cui.task_panel()`): an app's agent tasks; it says approve, deny, answer and your_answer too
    task_panel: str = "Agent tasks"  # its title (a region's name)
    working: str = "Working…"  # while a task of the tab's runs
    task_deny_placeholder: str = "Why not? (optional)"
    task_deny_reason: str = "Reason to deny"  # the reason box's accessible name
    task_waiting: str = "Waiting for you"  # a card's status while its call waits for the person
    task_ended: str = "Ended"  # a card's status when it ended in a way `statuses` does not name
    # Notices written on the server (the app's labels only: see the module's docstring)
    running_tool: str = "Running {tool}…"
    waiting: str = "Waiting for the agent… {seconds} s"
    stopped: str = "Stopped."
    stopped_because: str = "Stopped: {reason}"
    interrupted: str = "Interrupted: the server stopped while the copilot was working on this. Retry to go on."
    # For the app's developers (`copilot.dev_console`): its log lines are the protocol's own names, not translated
    dev_console: str = "Dev console: this run's events, what was sent, timings"

    def __new__(cls, *args: Any, **given: Any) -> Labels:
        # (names are checked here: the dataclass's __init__ would refuse a misspelt one without naming close matches)
        unknown = sorted(set(given) - {entry.name for entry in dataclasses.fields(cls)})
        if unknown:
            raise TypeError(_no_such_labels(unknown))
        return super().__new__(cls)

    def __post_init__(self) -> None:
        for entry in dataclasses.fields(self):
            checked = _checked(entry, getattr(self, entry.name))
            if checked is not getattr(self, entry.name):
                object.__setattr__(self, entry.name, checked)

    def said(self, key: str, **fields: str | int) -> str:
        """The label `key` with its {placeholders} filled (in one pass: braces in a filled-in name stay as they are)."""
        return fill_template(getattr(self, key), fields)

    def but(self, **changes: Any) -> Labels:
        """These labels with some changed: `cui.copilot.labels.but(placeholder="Ask Acme…")`."""
        return dataclasses.replace(self, **changes)


_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


def _no_such_labels(names: list[str]) -> str:
    known = [entry.name for entry in dataclasses.fields(Labels)]
    hints = []
    for name in names:
        close = difflib.get_close_matches(name, known, n=3)
        hints.append(f"{name} (did you mean {' or '.join(close)}?)" if close else name)
    return f"Labels has no {', '.join(hints)}; see the fields of copilot_ui.Labels"


def _checked(entry: dataclasses.Field[Any], value: Any) -> Any:
    """A label's value as given, once checked against its default (its type, its template's fields)."""
    name = entry.name
    if name == "months":
        if not isinstance(value, (tuple, list)) or len(value) != 12 or not all(isinstance(m, str) for m in value):
            raise TypeError(f"Labels(months={value!r}): months takes the twelve months' names, January first, as texts")
        return tuple(value)
    if name == "statuses":
        return _checked_statuses(value)
    if not isinstance(value, str):
        raise TypeError(f"Labels({name}={value!r}): {name} is a text (str), not {type(value).__name__}")
    _check_fields(name, value, str(entry.default))  # (every other label has a text default)
    return value


def _checked_statuses(value: Any) -> dict[str, str]:
    """The statuses' words: those given over the defaults (a status left out keeps its English word)."""
    if not isinstance(value, dict):
        raise TypeError(f"Labels(statuses={value!r}): statuses takes a dict of a status to its word")
    for status, word in value.items():
        if status not in STATUS_WORDS:
            close = difflib.get_close_matches(str(status), list(STATUS_WORDS), n=3)
            hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
            raise ValueError(f"Labels(statuses=...): {status!r} is no status{hint}; the statuses are {', '.join(STATUS_WORDS)}")
        if not isinstance(word, str):
            raise TypeError(f"Labels(statuses=...): the word for {status!r} is a text (str), not {type(word).__name__}")
        _check_fields(f"statuses[{status!r}]", word, STATUS_WORDS[status])
    return {**STATUS_WORDS, **value}


def _check_fields(name: str, value: str, default: str) -> None:
    """A template may use its default's fields, and no other: a misspelt field would show as it is."""
    takes = _PLACEHOLDER.findall(default)
    for used in _PLACEHOLDER.findall(value):
        if used in takes:
            continue
        close = difflib.get_close_matches(used, takes, n=1)
        hint = f" (did you mean {{{close[0]}}}?)" if close else ""
        fields = ", ".join(f"{{{known}}}" for known in takes) if takes else "no fields"
        raise ValueError(f"Labels({name}={value!r}): {{{used}}} is no field of {name}{hint}; it takes {fields}")
