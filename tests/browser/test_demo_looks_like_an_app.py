"""The demo is an app people would show: cards drawn as UI, every suggestion answered, replies laid out, and the
small things a person notices (a dialog titled in words, notices that go once answered, a reload mid-reply)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from copilot_ui.state.sink import append_script
from copilot_ui.state.view import whole_texts_script

from ._person import ask, card, copilot, dialog, idle, order_status, replies


def orders_shown(page: Page) -> list[str]:
    return page.get_by_role("table", name="Orders").locator("[data-order]").evaluate_all("rows => rows.map(r => r.dataset.order)")


def test_an_order_that_is_not_there_shows_not_found(page: Page):
    page.goto("/")
    ask(page, "show order 1043")
    order = copilot(page).get_by_role("region", name="Order #1043")
    expect(order).to_contain_text("Not found", timeout=20_000)
    expect(order).to_contain_text("There is no order #1043 on the dashboard.")
    expect(order).not_to_contain_text("Found")  # the badge that said so above the error is gone
    expect(order).not_to_contain_text("Error")
    expect(replies(page).last).to_contain_text("That did not happen: there is no order #1043", timeout=20_000)


def test_every_suggestion_gets_a_real_answer(page: Page):
    page.goto("/")
    chips = copilot(page).get_by_role("button").filter(has_not_text="Show earlier messages")
    suggestions = page.locator(".cui-welcome .cui-chip").all_text_contents()
    assert suggestions, "the empty conversation offers no suggestions"
    for suggestion in suggestions:
        page.get_by_role("button", name="New conversation").first.click()
        page.locator(".cui-welcome .cui-chip").filter(has_text=suggestion).click()
        expect(copilot(page).locator('[data-kind="user"]')).to_have_text([suggestion], timeout=20_000)
        answered = replies(page).or_(dialog(page))  # words, or the approval the suggestion asks for
        expect(answered.first).to_be_visible(timeout=20_000)
        if dialog(page).count():
            expect(dialog(page)).to_contain_text("Refund order #1042")
            dialog(page).get_by_role("button", name="Not now").click()
        else:
            idle(page)
            expect(replies(page).last).not_to_contain_text("I can't answer that one")
    assert chips.count() > 0


def test_which_orders_are_still_processing_shows_and_lists_them(page: Page):
    page.goto("/")
    ask(page, "which orders are still processing?")
    expect(replies(page).last).to_have_text(
        "2 orders are still processing: #1041 (Alan Turing, London) and #1036 (Barbara Liskov, London). "
        "The Orders table shows them.",
        timeout=20_000,
    )
    assert orders_shown(page) == ["#1041", "#1036"]


def test_cancel_order_asks_in_words_and_cancels_only_what_has_not_shipped(page: Page):
    page.goto("/")
    ask(page, "cancel order 1041")
    asked = dialog(page)
    expect(asked.get_by_role("heading")).to_have_text("Cancel an order?", timeout=20_000)
    expect(asked).to_contain_text("Cancel order #1041: it will not be shipped.")
    asked.get_by_role("button", name="Approve").click()
    expect(order_status(page, "#1041")).to_have_text("Cancelled", timeout=20_000)
    expect(replies(page).last).to_contain_text("Done: Cancelled order #1041 (Alan Turing, $89.50).", timeout=20_000)
    idle(page)

    ask(page, "cancel order 1042")
    dialog(page).get_by_role("button", name="Approve").click()
    expect(replies(page).last).to_contain_text("order #1042 is shipped, so it cannot be cancelled", timeout=20_000)
    expect(order_status(page, "#1042")).to_have_text("Shipped")


def test_the_approval_dialog_is_titled_in_words(page: Page):
    page.goto("/")
    ask(page, "refund order 1042")
    expect(dialog(page).get_by_role("heading")).to_have_text("Refund an order?", timeout=20_000)
    expect(dialog(page)).not_to_contain_text("refund_order?")


def test_a_reply_is_laid_out_with_space_between_its_blocks_and_its_code_can_be_copied(hostile_page: Page):
    hostile_page.goto("/")
    ask(hostile_page, "!markdown 1")
    reply = replies(hostile_page).last
    expect(reply).to_contain_text("That is all.", timeout=20_000)
    gaps = reply.locator(".cui-md > *").evaluate_all(
        """blocks => blocks.slice(1).map((block, i) => {
            const above = blocks[i].getBoundingClientRect(), box = block.getBoundingClientRect();
            return [block.tagName, Math.round(box.top - above.bottom)];
        })"""
    )
    assert len(gaps) >= 5, gaps
    assert all(gap >= 6 for _, gap in gaps), f"blocks touch: {gaps}"  # headings, paragraphs, the list, code, the table
    items = reply.locator("li").evaluate_all("items => items.map(item => getComputedStyle(item.parentElement).listStyleType)")
    assert items == ["disc"] * 3, items
    code = reply.locator('[data-streamdown="code-block"]')
    expect(code).to_contain_text("total = sum([18420, 15310, 14480])")
    expect(code.get_by_role("button", name="Copy Code")).to_be_visible()


def test_stopped_goes_once_regenerate_has_answered(page: Page):
    page.goto("/")
    ask(page, "hello")
    expect(page.locator('[data-kind="live"]')).to_contain_text("demo copilot", timeout=20_000)
    page.locator(".cui-composer").get_by_role("button", name="Stop").click()
    notice = copilot(page).locator('[data-kind="notice"]')
    expect(notice).to_have_text("Stopped.", timeout=20_000)
    idle(page)
    page.get_by_role("button", name="Regenerate").click()
    expect(replies(page).last).to_contain_text("COPILOT_AGENT_URL to the address of your AG-UI server.", timeout=30_000)
    idle(page)
    expect(notice).to_have_count(0)


def test_a_reload_while_a_reply_streams_reports_no_error(page: Page):
    page.goto("/")
    ask(page, "hello")
    expect(page.locator('[data-kind="live"]')).to_contain_text("demo copilot", timeout=20_000)
    failed_scripts: list[str] = []  # Reflex logs a script that throws as "_call_script <error>" (not as an error)
    page.on("console", lambda message: failed_scripts.append(message.text) if "_call_script" in message.text else None)
    page.reload()
    expect(replies(page).last).to_contain_text("COPILOT_AGENT_URL to the address of your AG-UI server.", timeout=30_000)
    assert failed_scripts == []
    expect(card(page, "show_order")).to_have_count(0)


def test_text_scripts_that_reach_a_page_before_its_text_store_do_nothing(page: Page):
    page.goto("about:blank")  # a page whose copilot module has not loaded yet
    page.evaluate(append_script("abc1", 0, "Hello"))
    page.evaluate(whole_texts_script({"abc1": [0, "Hello"]}))
