"""Generative UI and the person's decisions, on the demo: each phrase the offline demo model knows, as a person sees it."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ._person import ServerFrames, ask, card, copilot, dialog, idle, order_status, replies


def orders_table(page: Page):
    return page.get_by_role("table", name="Orders")


def test_show_orders_from_berlin_filters_the_orders_table(page: Page):
    page.goto("/")
    expect(orders_table(page).locator("[data-order]")).to_have_count(7)
    ask(page, "show orders from Berlin")
    expect(replies(page).last).to_have_text("Done: the Orders table shows 3 orders from Berlin.", timeout=20_000)
    rows = orders_table(page).locator("[data-order]")
    expect(rows).to_have_count(3)
    for row in rows.all():
        expect(row).to_contain_text("Berlin")


def test_the_revenue_question_is_answered_from_the_pages_context(page: Page):
    page.goto("/")
    ask(page, "what is our revenue this month?")
    expect(replies(page).last).to_have_text("Revenue this month is $48,210 (+12% vs last month).", timeout=20_000)
    expect(copilot(page).locator("[data-tool]")).to_have_count(0)


ARGUMENTS_WHILE_STREAMING = """
window.__card = {drawnWhileStreaming: false, defaultCardShown: false};
new MutationObserver(() => {
  const drawn = document.querySelector('[data-tool="show_order"]');
  const streaming = drawn && drawn.dataset.status === 'streaming';
  if (streaming && drawn.querySelector('[role="region"]')) window.__card.drawnWhileStreaming = true;
  if (document.querySelector('.cui-tool-card[data-tool="show_order"]')) window.__card.defaultCardShown = true;
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


def test_show_order_draws_the_apps_own_card_from_the_first_arguments(page: Page):
    page.add_init_script(ARGUMENTS_WHILE_STREAMING)
    page.goto("/")
    ask(page, "show order 1042")
    order = copilot(page).get_by_role("region", name="Order #1042")
    expect(order).to_be_visible(timeout=20_000)
    expect(order).to_contain_text("CustomerAda LovelaceCityBerlinTotal$120.00", timeout=20_000)  # fields, not JSON
    expect(order).to_contain_text("Shipped")  # its status badge
    expect(replies(page).last).to_have_text("Here is order #1042: Ada Lovelace, Berlin, $120.00, Shipped.", timeout=20_000)
    seen = page.evaluate("window.__card")
    assert seen == {"drawnWhileStreaming": True, "defaultCardShown": False}, seen


def test_a_refund_approved_with_an_edited_reason_runs_with_it_and_counts(page: Page):
    page.goto("/")
    ask(page, "refund order 1042")
    approval = dialog(page)
    expect(approval).to_contain_text("Refund order #1042: the money goes back to the customer.", timeout=20_000)
    reason = approval.get_by_role("textbox", name="reason", exact=True)
    expect(reason).to_have_value("asked for in the chat")
    reason.fill("parcel lost in transit")
    approval.get_by_role("button", name="Approve").click()

    expect(order_status(page, "#1042")).to_have_text("Refunded", timeout=20_000)
    expect(page.locator('[data-kpi="Refunds"]')).to_have_text("24")
    expect(card(page, "refund_order").get_by_label("Arguments")).to_contain_text('"reason": "parcel lost in transit"')


def test_the_approval_dialog_works_with_the_keyboard_alone(page: Page):
    page.goto("/")
    ask(page, "refund order 1041")
    approval = dialog(page)
    expect(approval).to_be_visible(timeout=20_000)
    expect(approval.get_by_role("button", name="Approve")).to_be_focused()  # focus moved into the dialog

    page.keyboard.press("Escape")  # closed, nothing decided
    expect(approval).to_have_count(0)
    expect(card(page, "refund_order")).to_have_attribute("data-status", "awaiting_approval")
    review = card(page, "refund_order").get_by_role("button", name="Review")
    review.focus()
    page.keyboard.press("Enter")
    expect(approval).to_be_visible()
    page.keyboard.press("Shift+Tab")  # from Approve back through "Not now" to the reason
    page.keyboard.press("Shift+Tab")
    page.keyboard.type(" (by keyboard)")
    page.keyboard.press("Enter")
    expect(order_status(page, "#1041")).to_have_text("Refunded", timeout=20_000)
    expect(page.get_by_role("textbox", name="Ask the copilot")).to_be_focused()
    expect(card(page, "refund_order").get_by_label("Arguments")).to_contain_text("(by keyboard)")


def test_a_plan_is_confirmed_in_a_checklist_card_and_the_reply_names_the_chosen_steps(page: Page):
    page.goto("/")
    ask(page, "plan a product launch")
    plan = copilot(page).get_by_role("region", name="Proposed plan")
    expect(plan.get_by_role("checkbox")).to_have_count(5, timeout=20_000)
    plan.get_by_role("checkbox", name="Prepare the demo").uncheck()
    plan.get_by_role("checkbox", name="Publish the launch post").uncheck()

    page.reload()  # the question waits through a reload
    plan = copilot(page).get_by_role("region", name="Proposed plan")
    expect(plan.get_by_role("checkbox")).to_have_count(5)
    plan.get_by_role("checkbox", name="Prepare the demo").uncheck()
    plan.get_by_role("checkbox", name="Publish the launch post").uncheck()
    plan.get_by_role("button", name="Confirm").click()
    expect(replies(page).last).to_have_text(
        "Great: the plan has 3 steps: Pick a date, Write the announcement and Brief the sales team.", timeout=20_000
    )


REPORT_FILLING = """
window.__report = [];
setInterval(() => {
  const box = document.querySelector('[role="region"][aria-labelledby="report-heading"] textarea');
  if (box && box.value.length && box.value.length !== window.__report.at(-1)) window.__report.push(box.value.length);
}, 50);
"""


def test_the_report_fills_its_panel_as_the_agent_writes_and_the_next_run_starts_from_the_persons_edit(page: Page):
    page.add_init_script(REPORT_FILLING)
    server = ServerFrames(page)
    page.goto("/")
    ask(page, "draft a weekly report")
    expect(replies(page).last).to_have_text("The weekly report draft is in the Report draft panel.", timeout=30_000)
    panel = page.get_by_role("region", name="Report draft").get_by_role("textbox")
    expect(panel).to_have_value(re.compile(r"^Weekly report\n\nRevenue this month is \$48,210"))
    assert len(page.evaluate("window.__report")) >= 3, "the panel did not fill while the agent wrote"

    with server.carrying("Edited by Ada: revenue up"):  # the edit reached the page's state (it was debounced)
        panel.fill("Edited by Ada: revenue up, refunds down, Berlin ahead. The rest is for next week and beyond.")
    ask(page, "shorten the report")
    expect(replies(page).last).to_contain_text("It began: “Edited by Ada: revenue up, refunds down,", timeout=30_000)
    expect(panel).not_to_have_value(re.compile("The rest is for next week and beyond"), timeout=10_000)


def test_compare_runs_two_calls_side_by_side_and_answers_once(page: Page):
    page.goto("/")
    ask(page, "compare Berlin and Paris")
    expect(replies(page).last).to_have_text(
        "Berlin: $18,420 from 3 orders. Paris: $15,310 from 2 orders. Berlin sells more.", timeout=20_000
    )
    expect(card(page, "city_sales")).to_have_count(2)
    expect(replies(page)).to_have_count(1)


PROGRESS_BEFORE_RESULT = """
window.__progress = {shownAt: null, doneAt: null};
new MutationObserver(() => {
  const rate = document.querySelector('[data-tool="lookup_rate"]');
  if (!rate) return;
  const seen = window.__progress, now = performance.now();
  if (seen.shownAt === null && rate.querySelector('.cui-tool-progress')) seen.shownAt = now;
  if (seen.doneAt === null && rate.dataset.status === 'complete') seen.doneAt = now;
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
"""


def test_a_slow_lookup_shows_its_progress_before_its_result(page: Page):
    page.add_init_script(PROGRESS_BEFORE_RESULT)
    page.goto("/")
    ask(page, "look up the EUR exchange rate")
    expect(card(page, "lookup_rate")).to_contain_text("Reading the EUR rate", timeout=20_000)
    expect(replies(page).last).to_have_text("The exchange rate: 1 EUR = 1.08 USD.", timeout=20_000)
    seen = page.evaluate("window.__progress")
    assert seen["shownAt"] is not None and seen["shownAt"] < seen["doneAt"], seen


def test_copying_the_revenue_runs_in_the_browser_and_fills_the_clipboard(page: Page):
    page.goto("/")
    ask(page, "copy the revenue to my clipboard")
    expect(replies(page).last).to_have_text("I copied $48,210 to your clipboard.", timeout=20_000)
    expect(card(page, "copy_to_clipboard").get_by_label("Result")).to_have_text("Copied 7 characters to the clipboard.")
    assert page.evaluate("navigator.clipboard.readText()") == "$48,210"


def test_reasoning_shows_collapsed_above_the_answer(page: Page):
    page.goto("/")
    ask(page, "think it through: which city sells most?")
    expect(replies(page).last).to_have_text(
        "Berlin sells most: $18,420, ahead of Paris ($15,310) and London ($14,480).", timeout=20_000
    )
    thought = copilot(page).locator('[data-kind="reasoning"]')
    expect(thought.locator("summary")).to_have_text(re.compile(r"^Thought for \d+ s$"))
    expect(thought).not_to_have_attribute("open", "")
    kinds = copilot(page).locator("[data-kind]").evaluate_all("items => items.map(item => item.dataset.kind)")
    assert kinds == ["user", "reasoning", "assistant"], kinds
    thought.locator("summary").click()
    expect(thought).to_contain_text("Berlin")


def test_the_demo_says_what_it_can_do(page: Page):
    page.goto("/")
    ask(page, "what can you do?")
    idle(page)
    reply = replies(page).last
    for phrase in ("show orders from Berlin", "refund order 1042", "draft a weekly report", "copy the revenue to my clipboard"):
        expect(reply.get_by_role("listitem").filter(has_text=phrase)).to_have_count(1)
