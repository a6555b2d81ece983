"""The testing guide's examples (docs/guides/testing.md), as the tests they are: each function here is the guide's,
word for word, run by pytest on the guide's app (dashboard.py) with the `copilot` fixture of copilot_ui.testing."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from pydantic_ai.toolsets import FunctionToolset

from tests.testing_kit.dashboard import DashboardState, NotesState

GUIDE = Path(__file__).parents[2] / "docs" / "guides" / "testing.md"


def test_the_copilot_filters_the_dashboard(copilot):
    copilot.agent.calls("filter_orders", city="Berlin").says("Showing the orders from Berlin.")
    copilot.say("filter to Berlin")
    assert copilot.state(DashboardState).city == "Berlin"
    assert copilot.replies == ["Showing the orders from Berlin."]


def test_a_tool_error_goes_back_to_the_agent(copilot):
    copilot.agent.calls("filter_orders", city="Rome").says("There are no orders from Rome.")
    copilot.say("filter to Rome")
    [card] = copilot.tool_calls
    assert card.status == "error"
    assert card.text == "Error: ValueError: there are no orders from Rome"
    assert copilot.state(DashboardState).city == ""


def test_a_refund_waits_for_approval(copilot):
    copilot.agent.calls("refund_order", order_id="#1042", reason="late").says("Refunded.")
    copilot.say("refund order 1042")
    assert copilot.waiting == "refund_order"
    assert copilot.state(DashboardState).refunded == []
    copilot.approve()
    assert copilot.state(DashboardState).refunded == ["#1042"]
    assert copilot.replies == ["Refunded."]


def test_a_denied_refund_changes_nothing(copilot):
    copilot.agent.calls("refund_order", order_id="#1042", reason="late").says("I left it.")
    copilot.say("refund order 1042")
    copilot.deny("not this one")
    assert copilot.state(DashboardState).refunded == []
    assert copilot.tool_calls[0].status == "denied"
    assert "not this one" in copilot.tool_calls[0].text


def test_the_person_answers_the_agents_question(copilot):
    copilot.agent.calls("confirm_city", question="Which city?").says("Berlin it is.")
    copilot.say("show me one city")
    assert copilot.waiting == "confirm_city"
    copilot.answer("Berlin")
    assert copilot.tool_calls[0].text == "Berlin"
    assert copilot.replies == ["Berlin it is."]


def test_the_agent_sees_the_dashboard(copilot):
    copilot.agent.says("You are looking at every order.")
    copilot.say("what do I see?")
    assert copilot.agent.seen_context["The dashboard"]["city"] == ""
    assert "refund_order" in copilot.agent.offered_tools


def test_the_revenue_button_asks_the_copilot(copilot):
    copilot.agent.says("Revenue grew 12% this month.")
    copilot.click(DashboardState.explain_revenue)
    assert [(item.kind, item.text) for item in copilot.conversation] == [
        ("user", "Explain the revenue chart"),
        ("assistant", "Revenue grew 12% this month."),
    ]


def test_the_summary_button_runs_a_task(copilot):
    copilot.agent.calls("refund_order", order_id="#1041", reason="damaged").says("One order refunded.")
    copilot.click(DashboardState.summarize)
    assert copilot.task_cards[0].status == "awaiting_approval"
    copilot.approve()
    assert copilot.state(DashboardState).summary == "One order refunded."
    assert copilot.conversation == []


def test_the_person_edits_the_reason_before_approving(copilot):
    copilot.agent.calls("refund_order", order_id="#1042", reason="late").says("Refunded.")
    copilot.say("refund order 1042")
    copilot.approve(reason="arrived broken")
    assert copilot.tool_calls[0].status == "complete"
    assert '"reason": "arrived broken"' in copilot.tool_calls[0].arguments


def test_a_browser_tool_says_it_needs_a_browser(copilot):
    copilot.agent.calls("copy_to_clipboard", text="#1042").says("I could not copy it.")
    copilot.say("copy the order number")
    [card] = copilot.tool_calls
    assert card.status == "error"
    assert card.text == (
        "Error: BrowserToolError: copy_to_clipboard runs in the person's browser, and no browser is connected here"
    )
    assert copilot.replies == ["I could not copy it."]


def test_the_agent_writes_the_notes_with_its_own_tool(copilot):
    copilot.model.calls("save_note", text="Call Ada back.").says("Noted.")
    copilot.say("remind me to call Ada back")
    assert copilot.state(NotesState).note == "Call Ada back."
    assert [(card.tool, card.status, card.text) for card in copilot.tool_calls] == [("save_note", "complete", "Saved.")]
    assert copilot.replies == ["Noted."]


def test_the_agent_sees_the_notes_and_the_dashboard(copilot):
    copilot.model.says("Ship #1042 first.")
    copilot.click(NotesState.set_note("Ship #1042 first."))
    copilot.say("what is on my notes?")
    assert '{"note":"Ship #1042 first."}' in copilot.model.instructions
    assert '"city": ""' in copilot.model.instructions  # the page's context
    assert "save_note" in copilot.model.offered_tools and "filter_orders" in copilot.model.offered_tools


def test_the_agent_uses_the_pages_tools(copilot):
    copilot.model.calls("filter_orders", city="Paris").says("Showing Paris.")
    copilot.say("only Paris")
    assert copilot.state(DashboardState).city == "Paris"
    assert copilot.replies == ["Showing Paris."]


def test_the_tests_toolsets_stand_in_for_the_agents_mcp_servers(copilot):
    def customer_of(order_id: str) -> str:
        """Who ordered an order."""
        return "Ada Lovelace"

    copilot.toolsets = [FunctionToolset([customer_of])]
    copilot.model.calls("customer_of", order_id="#1042").says("Ada Lovelace ordered it.")
    copilot.say("who ordered #1042?")
    assert [(item.kind, item.text) for item in copilot.conversation] == [
        ("user", "who ordered #1042?"),
        ("tool", "Ada Lovelace"),
        ("assistant", "Ada Lovelace ordered it."),
    ]


def test_the_guides_examples_are_these_tests():
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), re.DOTALL)
    tests = [
        ast.get_source_segment(block, node)
        for block in blocks
        for node in ast.parse(block).body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    ]
    here = Path(__file__).read_text()
    assert len(tests) >= 8
    assert [test for test in tests if test not in here] == []


def test_the_guides_app_is_this_app():
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), re.DOTALL)
    parts = [block for block in blocks if "cui.copilot" in block or "class DashboardState" in block]
    source = (Path(__file__).parent / "dashboard.py").read_text()
    assert len(parts) == 2  # the dashboard, and its own agent
    for part in parts:
        imports = [line for line in part.splitlines() if line.startswith(("from ", "import "))]
        code = "\n".join(line for line in part.splitlines() if line not in imports).strip()
        assert [line for line in imports if line not in source.splitlines()] == []
        assert code in source
