"""Where the files people attach are kept: the app's store when it keeps them (SQLThreadStore does), else this
process's memory; and how a turn reads their bytes for its owner when the agent runs."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from ...core import Attachment, AttachmentBytes, size_text
from ...core._attachments import shown_name
from ...store import AttachmentStore, MemoryAttachments, OverLimit
from ._copilot import copilot

_IN_MEMORY: MemoryAttachments | None = None


def attachment_store() -> AttachmentStore:
    """The app's store, if it keeps attachments; else one store in this process's memory."""
    global _IN_MEMORY
    store = copilot.store
    if isinstance(store, AttachmentStore):
        return store
    if _IN_MEMORY is None:
        _IN_MEMORY = MemoryAttachments()
    return _IN_MEMORY


def attachment_bytes_for(owner: str, thread_id: str) -> AttachmentBytes:
    """How the loop of an owner's conversation reads the bytes of its files (only those attached to it: a message
    naming another conversation's file, or an unsent one, by its id, gets nothing)."""

    async def attachment_bytes(ids: list[str]) -> dict[str, bytes]:
        return await asyncio.to_thread(lambda: attachment_store().attachment_bytes(owner, ids, thread_id))

    return attachment_bytes


def attachment_ids(form: dict[str, Any]) -> dict[str, str]:
    """The files the composer's form names, id: name (at most a message's worth, no repeats)."""
    rules = copilot.attachments
    if rules is None:
        return {}
    ids = [part.strip() for part in str(form.get("attachments") or "").split(",") if part.strip()]
    try:
        names = json.loads(str(form.get("attachment_names") or "[]"))
    except ValueError:
        names = []
    names = [str(name) for name in names] if isinstance(names, list) else []
    named = {key: shown_name(names[n]) if n < len(names) else "a file" for n, key in enumerate(ids)}
    return dict(list(named.items())[: rules.max_files])


@dataclass(frozen=True)
class Attached:
    """The files a message goes with, or why it cannot go (in words for the person; then none was attached)."""

    files: tuple[Attachment, ...] = ()
    refusal: str = ""


async def attached(owner: str, named: dict[str, str], thread_id: str) -> Attached:
    """Attach the named files (id: name) to the conversation, all of them or none: each must be the owner's, not
    another conversation's, and the conversation must not then hold more bytes of files than it may (the store
    checks that as it attaches them). When they cannot all go, the reason, and the others are forgotten (the
    composer no longer shows them)."""
    rules = copilot.attachments
    if not named or rules is None:
        return Attached()
    await copilot.open_store()  # (off the event loop: the store may be the app's, opened at first use)
    store, ids, limit = attachment_store(), list(named), rules.max_conversation_bytes
    try:
        files = await asyncio.to_thread(store.attach, owner, ids, thread_id, max_bytes=limit, every=True)
    except OverLimit as over:
        words = copilot.labels
        said = words.said("not_sent_over_limit", limit=size_text(limit, words), held=size_text(over.held, words))
        return Attached(refusal=said)
    if len(files) == len(ids):
        return Attached(tuple(files))
    found = {file.id for file in files}
    missing = [name for key, name in named.items() if key not in found]
    for key in found:
        await asyncio.to_thread(store.remove_unsent, owner, key)
    key = "not_sent_file_gone" if len(missing) == 1 else "not_sent_files_gone"
    return Attached(refusal=copilot.labels.said(key, names=", ".join(missing)))
