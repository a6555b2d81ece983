"""The owner's conversations, listed in the copilot's header: switch, new, rename, delete (with confirmation), search.

Every operation goes through the store with the tab's owner: a thread id from the browser is only
ever looked up among that owner's own threads, so guessing or crafting ids finds nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import reflex as rx

from ._copilot import CopilotState
from ._forms import Form
from ._owner import owner_of_tab
from ._reopening import opened, run_of_another_session, runs_elsewhere
from ._tab import switch
from .declarations import copilot
from .sink import BrowserEvent, script_event
from .turns import saving, thread_runs, written

logger = logging.getLogger("copilot_ui.state")

LISTED = 50  # threads the list shows (the search finds the others)


class ThreadsState(rx.State):
    """The list of the owner's conversations, while the person has it open."""

    threads: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)  # id, title, when
    search: str = ""
    searched: bool = False  # the list shows what a search found, not all the owner's threads
    renaming: str = ""  # the thread whose title is being edited
    deleting: str = ""  # the thread whose deletion waits for confirmation
    refocus: str = ""  # "rename:<id>" or "delete:<id>": the row's button the focus goes back to when the row shows again
    _refreshes: int = 0  # refreshes begun: only the last shows what it read

    @rx.event(background=True)
    async def opened(self, is_open: bool) -> None:
        """The list opened (it shows the owner's threads now) or closed (what was being renamed or deleted is left)."""
        if is_open:
            await self._refresh()
        else:
            async with self:
                self.renaming = self.deleting = self.refocus = ""

    @rx.event(background=True)
    async def refresh(self) -> None:
        """Show the owner's threads now."""
        await self._refresh()

    @rx.event(background=True)
    async def find(self, text: str) -> None:
        """The person typed in the search box."""
        async with self:
            self.search = str(text)[:200]
        await self._refresh()

    @rx.event(background=True)
    async def select(self, thread_id: str) -> AsyncIterator[BrowserEvent]:
        """Open one of the owner's threads in this tab."""
        async with self:
            owner = await self._owner()
        store = await copilot.open_store()
        while True:
            stored = await thread_runs.load_latest(store, owner, str(thread_id)) if store is not None else None
            if stored is None:
                return
            read_while = thread_runs.running(stored.thread.id)  # (the turn that worked on it as it was read, if any)
            async with self:
                conversation_state = await self.get_state(CopilotState)
                if read_while is not None and thread_runs.running(stored.thread.id) is not read_while:
                    continue  # that turn ended since: its last words came after the copy read
                another = run_of_another_session(conversation_state, stored.thread)
                thread, conversation, texts = opened(stored)  # (as the turn working on it has it, with no await since)
                followed = another is not None or await runs_elsewhere(stored.thread)
                if followed:  # another tab's turn writes it (a closed tab's too): the tab shows it as a reload would
                    conversation_state.thread_id, conversation_state._thread = thread.id, None
                page_agent = conversation_state._page_agent
            break
        if followed:  # (as kept, going, until that turn is over; then as it ends up)
            yield CopilotState.open(page_agent)
            return
        if texts:
            yield script_event(texts)  # the texts first: the items that show them follow (the agent's words: as text)
        async with self:
            conversation_state = await self.get_state(CopilotState)
            await switch(conversation_state, thread, conversation, agent_id=stored.summary.agent)

    @rx.event
    def start_rename(self, thread_id: str) -> None:
        """The person wants to rename a thread."""
        self.renaming, self.deleting, self.refocus = str(thread_id), "", ""

    @rx.event(background=True)
    async def rename(self, form: Form) -> None:
        """The new title (empty: back to the first message)."""
        async with self:
            owner, thread_id, self.renaming = await self._owner(), str(form.get("thread") or ""), ""
            self.refocus = f"rename:{thread_id}"
        await written(thread_id)  # (its last save may be on its way: the title goes on the conversation it makes)
        await self._store_call("rename", owner, thread_id, str(form.get("title") or "").strip()[:200])
        await self._refresh()

    @rx.event
    def ask_delete(self, thread_id: str) -> None:
        """The person pressed Delete: ask for confirmation."""
        self.deleting, self.renaming, self.refocus = str(thread_id), "", ""

    @rx.event
    def cancel(self) -> None:
        """No rename, no deletion: the focus goes back to the button that began it."""
        self.refocus = f"rename:{self.renaming}" if self.renaming else f"delete:{self.deleting}" if self.deleting else ""
        self.deleting = self.renaming = ""

    @rx.event(background=True)
    async def delete(self, thread_id: str) -> None:
        """Confirmed: the thread is gone (the tab moves to a new conversation if it showed it)."""
        async with self:
            owner, self.deleting = await self._owner(), ""
        await written(str(thread_id))  # (a save on its way would bring it back)
        deleted = await self._store_call("delete", owner, str(thread_id))
        if deleted:
            async with self:
                conversation_state = await self.get_state(CopilotState)
                shown = conversation_state.get_value("_thread")
                if shown is not None and shown.id == thread_id:
                    await switch(conversation_state, type(shown)(), None)
        await self._refresh()

    async def _refresh(self) -> None:
        """The owner's threads, newest first, matching the search; again once the save of the conversation the tab
        shows has landed, when one was on its way (a new conversation is listed from its first save)."""
        async with self:
            owner, search = await self._owner(), self.search
            shown = (await self.get_state(CopilotState)).thread_id
            self._refreshes += 1
            mine = self._refreshes
        for _ in range(2):
            on_its_way = saving(shown)
            listed = await self._store_call("list", owner, search=search, limit=LISTED)
            async with self:
                if self._refreshes != mine:  # a later refresh (after a deletion, say) shows what it read
                    return
                self.threads = [_row(summary) for summary in listed or []]
                self.searched = bool(search.strip())
            if not on_its_way:
                return
            await written(shown)

    async def _owner(self) -> str:
        return await owner_of_tab(await self.get_state(CopilotState))

    async def _store_call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        store = await copilot.open_store()
        if store is None:
            return None
        try:
            return await asyncio.to_thread(getattr(store, name), *args, **kwargs)
        except LookupError:  # not the owner's (or gone): as if it never existed
            return None
        except Exception:
            logger.exception("the conversation store failed to %s", name)
            return None


def _row(summary: Any) -> dict[str, str]:
    return {"id": summary.id, "title": summary.title, "when": _when(summary.updated_at)}


def _when(moment: datetime) -> str:
    """When a thread last changed, as a person says it."""
    now = datetime.now(UTC)
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    seconds = (now - moment).total_seconds()
    words = copilot.labels  # (the app's words: the list is the same on every page)
    if seconds < 60:
        return words.just_now
    if seconds < 3600:
        return words.said("minutes_ago", minutes=int(seconds // 60))
    if seconds < 86400:
        return words.said("hours_ago", hours=int(seconds // 3600))
    month = words.months[moment.month - 1] if len(words.months) == 12 else moment.strftime("%b")
    return words.said("day_and_month", day=f"{moment.day:02d}", month=month)
