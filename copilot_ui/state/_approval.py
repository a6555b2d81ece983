"""The approval dialog: what a waiting call will do, its arguments (editable where the tool allows), and the choice.

A call that needs approval opens the dialog by itself; Escape (or "Not now") closes it without
deciding, and the card's "Review" button opens it again. The dialog is bound to the call it shows
and to the digest of the arguments shown: the loop refuses a decision about anything else. Edited
arguments are checked against the tool's schema before the decision is taken. What the dialog shows
of a call is made in `view/_approval_dialog.py`.
"""

from __future__ import annotations

from typing import Any

import reflex as rx


class ApprovalState(rx.State):
    """The dialog's content: the call it shows, and the fields of its arguments."""

    open: bool = False
    item: str = ""  # the card's item id
    digest: str = ""
    tool: str = ""
    title: str = ""  # what the call does, in words: "Refund an order?"
    sentence: str = ""
    fields: rx.Field[list[dict[str, Any]]] = rx.field(default_factory=list)
    editable: bool = False
    error: str = ""
    undecided: str = ""  # the card whose dialog the person just closed without deciding: focus goes to its Review
    _dismissed: rx.Field[list[str]] = rx.field(default_factory=list)  # cards whose dialog the person closed without deciding

    @rx.event
    def close(self, is_open: bool = False) -> None:
        """Escape or "Not now": the dialog closes, nothing is decided, the card keeps its Review button."""
        if not is_open:
            if self.item and self.item not in self._dismissed:
                self._dismissed.append(self.item)
            self.undecided = self.item
        self.open = is_open

    def _open_on(self, request: dict[str, Any] | None) -> None:
        """Show this request (None: nothing waits, the dialog closes)."""
        if request is None:
            if self.open:
                self.open = False
            return
        if request["item"] != self.item or request["digest"] != self.digest:
            self.item, self.digest, self.tool, self.title = request["item"], request["digest"], request["tool"], request["title"]
            self.sentence, self.fields, self.editable = request["sentence"], request["fields"], request["editable"]
            self.error = ""
        self.open, self.undecided = True, ""

    def _review(self, item_id: str) -> None:
        """The card's Review button: its dialog may open again."""
        if item_id in self._dismissed:
            self._dismissed.remove(item_id)
