"""Controls for a turn on another worker (see `_cluster`): sent from the click's worker, acted on by the turn's."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from ...core import Attachment, Decision, decision_from_json, decision_json
from ..sink import script_event
from . import _browser_answers as browser_answers
from . import _thread_runs as thread_runs
from ._cluster import cluster, on_message

logger = logging.getLogger("copilot_ui.state")


async def stop(thread_id: str) -> bool:
    """Stop the thread's turn on another worker."""
    return await _send(thread_id, {"kind": "stop"})


async def decide(thread_id: str, call_id: str, decision: Decision, digest: str) -> bool:
    """A person's decision, for the thread's turn on another worker."""
    return await _send(thread_id, {"kind": "decide", "call": call_id, "decision": decision_json(decision), "digest": digest})


async def queue(thread_id: str, message_id: str, text: str, attachments: tuple[Attachment, ...] = ()) -> bool:
    """A message the person wrote (with the files they attached), for the thread's turn on another worker."""
    files = [dataclasses.asdict(attachment) for attachment in attachments]
    return await _send(thread_id, {"kind": "queue", "id": message_id, "text": text, "files": files})


async def texts(thread_id: str, tids: list[str]) -> bool:
    """Texts a tab lacks, from the thread's turn on another worker."""
    return await _send(thread_id, {"kind": "texts", "tids": tids})


async def browser_answer(token: str, reply: Any) -> None:
    """A browser tool's answer that no turn here waits for: to every worker."""
    group = cluster()
    if group is not None:
        await group.tell_everyone({"kind": "browser", "token": token, "reply": reply})


async def _send(thread_id: str, control: dict[str, Any]) -> bool:
    group = cluster()
    return group is not None and await group.send(thread_id, control)


async def _act(control: dict[str, Any]) -> bool:
    """A control from another worker, for a turn of this one: whether this worker acted on it (its turn took it)."""
    kind = control.get("kind")
    if kind == "browser":
        browser_answers.deliver(str(control.get("token")), control.get("reply"))
        return True
    if kind == "texts":
        writing = thread_runs.writing(str(control.get("thread")))
        if writing is None or writing.sink.closed:
            return False
        script = writing.texts(control.get("tids"))
        if script:
            writing.sink.send_event(script_event(script))
        return True
    thread_run = thread_runs.running(str(control.get("thread")))
    if thread_run is None:
        return False
    if kind == "stop":
        thread_run.loop.abort()
    elif kind == "decide":
        return thread_run.take_decision(str(control["call"]), decision_from_json(control["decision"]), str(control["digest"]))
    elif kind == "queue":
        files = tuple(Attachment(**file) for file in control.get("files") or ())
        return thread_run.take_message(str(control["id"]), str(control["text"]), files)
    return True


on_message(_act)
