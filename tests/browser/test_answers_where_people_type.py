"""People answer where they type: the agent's question takes a message written in the message box.

While a question waits, the next message is its answer: the card shows it and the agent goes on. While
an approval waits, a message still goes to the agent, and the card says it did not run. A checklist's
answer reaches the app's question function typed, with the unticked steps.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from ._person import ask, card, copilot, dialog, idle, replies


def write(page: Page, text: str) -> None:
    box = page.get_by_role("textbox", name="Ask the copilot")
    box.fill(text)
    box.press("Enter")


def test_a_message_written_while_the_agents_question_waits_is_its_answer(page: Page):
    page.goto("/")
    ask(page, "ask me something")
    question = card(page, "ask_user")
    expect(question).to_have_attribute("data-status", "awaiting_input", timeout=20_000)
    expect(question).to_contain_text("Which region should the dashboard focus on?")

    write(page, "Paris")
    expect(question).to_have_attribute("data-status", "complete", timeout=20_000)
    expect(question).to_contain_text("Paris")  # the card shows the answer
    expect(replies(page).last).to_have_text("Done: Paris", timeout=20_000)  # and the agent went on with it
    idle(page)
    expect(copilot(page).locator('[data-kind="user"]')).to_have_text(["ask me something"])  # an answer, not a new turn
    expect(page.get_by_role("textbox", name="Ask the copilot")).to_have_value("")


def test_a_message_written_while_an_approval_waits_goes_to_the_agent_and_the_card_says_so(page: Page):
    page.goto("/")
    ask(page, "refund order 1042")
    expect(dialog(page)).to_be_visible(timeout=20_000)
    page.keyboard.press("Escape")
    ask(page, "what is our revenue this month?")
    expect(replies(page).last).to_have_text("Revenue this month is $48,210 (+12% vs last month).", timeout=20_000)
    refund = card(page, "refund_order")
    expect(refund).to_have_attribute("data-status", "skipped")
    expect(refund).to_contain_text("Not run: you wrote a new message instead")
    expect(page.locator('[data-kpi="Refunds"]')).to_have_text("23")


def test_the_steps_kept_in_a_checklist_are_the_plan_in_words(page: Page):
    page.goto("/")
    ask(page, "plan a product launch")
    plan = copilot(page).get_by_role("region", name="Proposed plan")
    expect(plan.get_by_role("checkbox")).to_have_count(5, timeout=20_000)
    plan.get_by_role("checkbox", name="Brief the sales team").uncheck()
    plan.get_by_role("button", name="Confirm").click()

    expect(replies(page).last).to_have_text(
        "Great: the plan has 4 steps: Pick a date, Write the announcement, Prepare the demo and Publish the launch post.",
        timeout=20_000,
    )
    expect(plan.get_by_role("listitem")).to_have_text(
        ["Pick a date", "Write the announcement", "Prepare the demo", "Publish the launch post"]
    )
    expect(plan).not_to_contain_text("Brief the sales team")
    expect(plan).not_to_contain_text("[")  # words, not a JSON array
