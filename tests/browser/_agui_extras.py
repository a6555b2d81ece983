"""What the AG-UI browser tests add to the demo app (COPILOT_EXTRA_MODULES): a document the agent shares, the
dojo's confirm tool for predictive state updates, and an app's card for "progress" activities.

The page /document shows the document (a Reflex state bound as the agent's state) beside the copilot,
as the AG-UI dojo's predictive_state_updates page does; the agent writes it with write_document_local
and asks the person with confirm_changes whether to keep the change.
"""

from __future__ import annotations

import reflex as rx

import copilot_ui as cui

FIRST_DRAFT = "A first draft."


class DocumentState(rx.State):
    """The document the person and the agent write."""

    document: str = FIRST_DRAFT

    @rx.event
    def write(self, text: str) -> None:
        """The person edits the document."""
        self.document = text


cui.agent_state(DocumentState)


@cui.frontend_tool
async def write_document_local(document: str) -> str:
    """Write the document (the page shows it while it is written).

    Args:
        document: The whole document.
    """
    return "Document written."


@cui.frontend_tool(approval="always", title="Rewrite the document")
async def write_document(document: str) -> str:
    """Rewrite the document, once the person approves (the page shows it while it is written).

    Args:
        document: The whole document.
    """
    return "Document rewritten."


def confirm_card(call: cui.ToolCallView) -> rx.Component:
    """The dojo's ConfirmChanges: Confirm keeps what the agent wrote, Reject puts the document back."""
    accepted = call.result_json["accepted"].to(bool)
    return rx.el.section(
        rx.heading("Confirm Changes", size="3", as_="h3"),
        rx.text("Do you want to accept the changes?"),
        rx.cond(
            call.status == "awaiting_input",
            rx.hstack(
                rx.button("Reject", variant="soft", on_click=call.respond({"accepted": False}), type="button"),
                rx.button("Confirm", on_click=call.respond({"accepted": True}), type="button"),
            ),
            rx.cond(call.is_done, rx.text(rx.cond(accepted, "✓ Accepted", "✗ Rejected"), class_name="confirm-status")),
        ),
        aria_label="Confirm Changes",
    )


@cui.human_in_the_loop(render=confirm_card)
def confirm_changes() -> None:
    """Ask the person whether to keep the changes just made to the document."""


@cui.render_activity("progress")
def progress_card(activity: cui.ActivityView) -> rx.Component:
    """A progress activity: its label, and a bar."""
    percent = activity.value("percent", 0, int)
    return rx.el.section(
        rx.text(activity.value("label", ""), class_name="progress-label"),
        rx.el.progress(value=percent, max=100),
        rx.text(percent.to(str) + "%", class_name="progress-percent"),
        aria_label="Progress",
    )


@rx.page(route="/document", title="Document · copilot_ui")
def document_page() -> rx.Component:
    """The shared document beside the copilot."""
    return cui.sidebar(
        rx.el.main(
            rx.heading("Document", size="6", as_="h1"),
            rx.el.p(DocumentState.document, id="document", style={"white_space": "pre-wrap"}),
            rx.el.textarea(
                value=DocumentState.document,
                on_change=DocumentState.write,
                aria_label="Edit the document",
                rows=4,
                style={"width": "100%"},
            ),
            style={"padding": "1.5rem", "flex": "1"},
        )
    )
