"""What one simulated person received over their websocket, and the two checks on it: nothing lost, nothing crossed.

A Witness reads every update the person's tab gets, as the page would: the copilot's states (the
items, whether a run goes, the approval dialog, the conversation's id) and the scripts that fill
the page's text store (`copilot_ui/components/cui_text.jsx`): `__cuiA(tid, seq, piece)` appends
piece `seq` (from 0) to text `tid`, `__cuiS({tid: [seq, text]})` hands a whole text over.

- Lost: a piece of a streamed text the person never received. A gap in a text's pieces (the page
  would have to ask for the text again) counts the missing pieces; at the end, the whole text the
  server hands over (`need_texts`, as a reload asks for it) must be what the pieces made, up to the
  same piece, else the pieces missing (at least one) count.
- Crossed: a frame that carries anything of another person's conversation: their marker (each
  person writes a unique one in their messages), their tab token, their conversation's id or
  anonymous owner, or a text whose item the person's own conversation never listed.

State and var names are read from the app's code, so that a refactor that keeps them keeps this working.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import reflex as rx

from copilot_ui.state import ApprovalState, CopilotState, LiveState

from ._reflex_socket import Update, var_key

ROOT, HYDRATED = rx.State.get_full_name(), var_key(rx.State.is_hydrated)
COPILOT = CopilotState.get_full_name()
LIVE = LiveState.get_full_name()
APPROVAL = ApprovalState.get_full_name()
ITEMS, THREAD, OWNER = var_key(CopilotState.items), var_key(CopilotState.thread_id), var_key(CopilotState.owner_token)
RUNNING = var_key(LiveState.running)
APPROVAL_VARS = {var_key(getattr(ApprovalState, name)): name for name in ("open", "item", "digest", "fields")}

_APPEND = re.compile(r"__cuiA\?\.\(")
_WHOLE = re.compile(r"__cuiS\?\.\(")


@dataclass
class Text:
    """A text as the person's page holds it: the last piece's number, and the text so far."""

    seq: int = -1
    text: str = ""
    streamed: bool = False  # it came (at least partly) as appended pieces
    missing: int = 0  # pieces that never came before a later one did


@dataclass
class Witness:
    """Everything one person received, in order, and what it made of their page."""

    marker: str  # written in each of the person's messages
    token: str  # the tab token their socket connected with
    updates: list[Update] = field(default_factory=list)
    texts: dict[str, Text] = field(default_factory=dict)
    appends: list[tuple[float, str, int]] = field(default_factory=list)  # (time, tid, seq) of each piece
    wholes: list[tuple[float, str]] = field(default_factory=list)  # (time, tid) of each whole text handed over
    running: list[tuple[float, bool]] = field(default_factory=list)  # (time, value) of each change of LiveState.running
    item_ids: set[str] = field(default_factory=set)  # every item the conversation ever listed
    listed: dict[str, float] = field(default_factory=dict)  # when each item was first listed
    approval: dict[str, Any] = field(default_factory=dict)  # the approval dialog: open, item, digest, fields
    thread_id: str = ""  # the conversation's id, as the tab keeps it
    owner: str = ""  # the browser's anonymous owner, signed
    handed_over: dict[str, tuple[int, str]] | None = None  # the whole texts of the final check (None: not asked yet)
    hydrated: bool = False  # the page has its state

    # Reading

    def read(self, update: Update) -> None:
        """Take one update from the backend, as the page applies it."""
        self.updates.append(update)
        self._read_delta(update.time, update.delta)
        for script in update.scripts:
            for tid, seq, piece in appends(script):
                self._append(update.time, tid, seq, piece)
            for texts in wholes(script):
                for tid, (seq, text) in texts.items():
                    self._whole(update.time, tid, int(seq), str(text))

    def _read_delta(self, time: float, delta: dict[str, dict[str, Any]]) -> None:
        if delta.get(ROOT, {}).get(HYDRATED):
            self.hydrated = True
        live, copilot, approval = delta.get(LIVE, {}), delta.get(COPILOT, {}), delta.get(APPROVAL, {})
        if RUNNING in live:
            self.running.append((time, bool(live[RUNNING])))
        if isinstance(copilot.get(ITEMS), list):
            listed = [str(item.get("id")) for item in copilot[ITEMS] if isinstance(item, dict)]
            self.item_ids.update(listed)
            for item_id in listed:
                self.listed.setdefault(item_id, time)
        if copilot.get(THREAD):
            self.thread_id = str(copilot[THREAD])
        if copilot.get(OWNER):
            self.owner = str(copilot[OWNER])
        for key, name in APPROVAL_VARS.items():
            if key in approval:
                self.approval[name] = approval[key]

    def _append(self, time: float, tid: str, seq: int, piece: str) -> None:
        text = self.texts.setdefault(tid, Text())
        text.streamed = True
        self.appends.append((time, tid, seq))
        if seq <= text.seq:
            return  # already here (the page ignores it too)
        text.missing += seq - text.seq - 1
        text.seq, text.text = seq, text.text + piece

    def _whole(self, time: float, tid: str, seq: int, text: str) -> None:
        self.wholes.append((time, tid))
        if self.handed_over is not None:
            self.handed_over[tid] = (seq, text)
            return
        held = self.texts.get(tid)
        if held is None or seq >= held.seq:
            self.texts[tid] = Text(seq, text, streamed=held.streamed if held else False, missing=held.missing if held else 0)

    # What the flow asks

    def run_ended_since(self, since: float) -> float | None:
        """When the first run that began at or after `since` ended (None: none has ended yet)."""
        began = False
        for time, value in self.running:
            if time >= since and value:
                began = True
            elif began and not value:
                return time
        return None

    def first_piece_since(self, since: float) -> float | None:
        """When the first appended piece of any text came, at or after `since`."""
        first = self._first_append_since(since)
        return None if first is None else first[0]

    def first_shown_since(self, since: float) -> float | None:
        """When that piece could be seen: the page shows a text once the item that holds it is listed too (a card's
        texts are `<item>.<part>`), whichever of the two came last."""
        first = self._first_append_since(since)
        listed = None if first is None else self.listed.get(first[1].split(".")[0])
        return None if first is None or listed is None else max(first[0], listed)

    def _first_append_since(self, since: float) -> tuple[float, str] | None:
        return next(((time, tid) for time, tid, _ in self.appends if time >= since), None)

    def whole_since(self, tid: str, since: float) -> float | None:
        """When text `tid` was handed over whole, at or after `since`."""
        return next((time for time, whole in self.wholes if whole == tid and time >= since), None)

    def streamed_messages(self) -> list[str]:
        """The message texts (the replies, not a card's parts: those have a "." in their id) that came in pieces."""
        return [tid for tid, text in self.texts.items() if text.streamed and "." not in tid]

    def replies_since(self, since: float) -> list[str]:
        """The message texts whose first piece came at or after `since`."""
        first: dict[str, float] = {}
        for time, tid, _ in self.appends:
            first.setdefault(tid, time)
        return [tid for tid in self.streamed_messages() if first.get(tid, -1.0) >= since]

    # The checks

    def lost(self) -> int:
        """Pieces of the streamed texts the person never received (the final check's whole texts must be in)."""
        missing = sum(text.missing for text in self.texts.values())
        for tid in self.streamed_messages():
            held = self.texts[tid]
            whole = (self.handed_over or {}).get(tid)
            if whole is None:
                missing += 1  # the server no longer knows a text it streamed: it cannot be checked
            elif whole[0] > held.seq:
                missing += whole[0] - held.seq  # the last pieces never came
            elif whole[1] != held.text and not held.missing:
                missing += 1  # no gap, yet the pieces made another text
        return missing

    def identifiers(self) -> list[str]:
        """What marks this person's conversation in a frame."""
        return [name for name in (self.marker, self.token, self.thread_id, self.owner) if name]

    def foreign_texts(self) -> list[str]:
        """Texts the person received whose item their conversation never listed."""
        return [tid for tid in self.texts if tid.partition(".")[0] not in self.item_ids]


def crossed(witnesses: Sequence[Witness]) -> list[int]:
    """For each person, how many of their frames carried something of another person's conversation."""
    claimed: dict[str, set[int]] = {}
    for index, witness in enumerate(witnesses):
        for name in witness.identifiers():
            claimed.setdefault(name, set()).add(index)
    pattern = re.compile("|".join(re.escape(name) for name in sorted(claimed, key=len, reverse=True)))
    counts = []
    for index, witness in enumerate(witnesses):
        foreign = set(witness.foreign_texts())
        count = 0
        for update in witness.updates:
            others = any(claimed[match.group()] != {index} for match in pattern.finditer(update.raw))
            if others or (foreign and any(tid in foreign for tid in _tids(update))):
                count += 1
        counts.append(count)
    return counts


def appends(script: str) -> Iterator[tuple[str, int, str]]:
    """The `__cuiA(tid, seq, piece)` calls of a script, in order."""
    decoder = json.JSONDecoder()
    for match in _APPEND.finditer(script):
        try:
            tid, end = decoder.raw_decode(script, match.end())
            seq, end = decoder.raw_decode(script, end + 1)
            piece, _ = decoder.raw_decode(script, end + 1)
        except ValueError:
            continue
        yield str(tid), int(seq), str(piece)


def wholes(script: str) -> Iterator[dict[str, list[Any]]]:
    """The `__cuiS({tid: [seq, text]})` calls of a script, in order."""
    decoder = json.JSONDecoder()
    for match in _WHOLE.finditer(script):
        try:
            texts, _ = decoder.raw_decode(script, match.end())
        except ValueError:
            continue
        if isinstance(texts, dict):
            yield {str(tid): value for tid, value in texts.items() if isinstance(value, list) and len(value) == 2}


def _tids(update: Update) -> Iterator[str]:
    for script in update.scripts:
        yield from (tid for tid, _, _ in appends(script))
        for texts in wholes(script):
            yield from texts
