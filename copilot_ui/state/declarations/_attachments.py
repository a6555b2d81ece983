"""Where the files people attach are kept: the app's store when it keeps them (SQLThreadStore does), else this
process's memory; and how a drive reads their bytes for its owner when the agent runs."""

from __future__ import annotations

import asyncio
from typing import Any

from ...core import Attachment, AttachmentBytes
from ...store import AttachmentStore, MemoryAttachments
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


def attachment_bytes_for(owner: str) -> AttachmentBytes:
    """How the loop of an owner's conversation reads the bytes of its files (only that owner's)."""

    async def attachment_bytes(ids: list[str]) -> dict[str, bytes]:
        return await asyncio.to_thread(attachment_store().attachment_bytes, owner, ids)

    return attachment_bytes


def attachment_ids(form: dict[str, Any]) -> list[str]:
    """The ids of the files the composer's form names (at most a message's worth, no repeats)."""
    rules = copilot.attachments
    if rules is None:
        return []
    ids = [part.strip() for part in str(form.get("attachments") or "").split(",") if part.strip()]
    return list(dict.fromkeys(ids))[: rules.max_files]


async def attached(owner: str, ids: list[str], thread_id: str) -> tuple[Attachment, ...]:
    """Attach the named files to the conversation: those that are the owner's and not another conversation's."""
    if not ids:
        return ()
    return tuple(await asyncio.to_thread(attachment_store().attach, owner, ids, thread_id))
