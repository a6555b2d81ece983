"""Conversations that last: threads and their messages in SQL (a SQLite file by default). No Reflex here."""

from ._base import StoredThread, ThreadExists, ThreadNotFound, ThreadStore, ThreadSummary
from ._sql import SQLThreadStore

__all__ = ["SQLThreadStore", "StoredThread", "ThreadExists", "ThreadNotFound", "ThreadStore", "ThreadSummary"]
