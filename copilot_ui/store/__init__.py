"""Threads and messages in SQL (SQLite by default). No Reflex here."""

from ._sqlite import ThreadStore, ThreadSummary

__all__ = ["ThreadStore", "ThreadSummary"]
