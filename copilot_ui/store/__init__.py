"""Conversations that last: threads and their messages in SQL (a SQLite file by default). No Reflex here."""

from ..errors import OverLimit, ThreadExists, ThreadNotFound
from ._attachments import AttachmentStore, MemoryAttachments
from ._base import ANONYMOUS_OWNER, Rating, StoredThread, ThreadStore, ThreadSummary
from ._sql import SQLThreadStore

__all__ = [
    "ANONYMOUS_OWNER",
    "AttachmentStore",
    "MemoryAttachments",
    "OverLimit",
    "Rating",
    "SQLThreadStore",
    "StoredThread",
    "ThreadExists",
    "ThreadNotFound",
    "ThreadStore",
    "ThreadSummary",
]
