"""A person shows the agent a screenshot or a CSV: pasted, dropped on the copilot, or picked with the paperclip.

Each file goes up over HTTP as soon as it is taken, shows in the composer until the message goes, reaches the agent
as binary content (the demo model says what it got), shows in the person's message, and is still there after a
reload. A file over the limit, or of a type the app does not take, is refused with the reason; what was typed stays.
"""

from __future__ import annotations

import base64
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Page, expect

from tests.attachment_files import ORDERS_CSV, png

from ._person import TURN_TIMEOUT, ServerFrames, ask, copilot, idle, replies
from .test_accessibility import axe_source, violations  # noqa: F401 - axe_source is a fixture
from .test_conversations_list import conversations

# A File made in the page from base64 bytes, handed over in a DataTransfer as a paste or a drop would.
MAKE_FILES = """(files) => {
    const transfer = new DataTransfer();
    for (const [name, type, data] of files) {
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], name, {type}));
    }
    return transfer;
}"""
PASTE = f"""([selector, files]) => {{
    const transfer = ({MAKE_FILES})(files);
    const paste = new ClipboardEvent("paste", {{clipboardData: transfer, bubbles: true, cancelable: true}});
    document.querySelector(selector).dispatchEvent(paste);
}}"""
DROP = f"""([selector, files]) => {{
    const transfer = ({MAKE_FILES})(files);
    const target = document.querySelector(selector);
    for (const type of ["dragenter", "dragover", "drop"]) {{
        target.dispatchEvent(new DragEvent(type, {{dataTransfer: transfer, bubbles: true, cancelable: true}}));
    }}
}}"""
BIG_DROP = """(selector) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(12_400_000)], "big.png", {type: "image/png"}));
    const target = document.querySelector(selector);
    for (const type of ["dragover", "drop"]) {
        target.dispatchEvent(new DragEvent(type, {dataTransfer: transfer, bubbles: true, cancelable: true}));
    }
}"""


def encoded(name: str, mime: str, data: bytes) -> list[str]:
    return [name, mime, base64.b64encode(data).decode()]


def attached(page: Page, name: str) -> None:
    """The composer shows the file, uploaded (its Remove button is there and it no longer says Uploading…)."""
    chip = page.locator(".cui-attach-file").filter(has=page.get_by_role("button", name=f"Remove {name}"))
    expect(chip).to_have_attribute("data-uploading", "false", timeout=TURN_TIMEOUT)


def image_shown(page: Page, name: str) -> None:
    """The person's message shows the image, loaded (not a broken picture)."""
    image = copilot(page).locator('[data-kind="user"]').get_by_role("img", name=name)
    expect(image).to_be_visible(timeout=TURN_TIMEOUT)
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=image.element_handle())


def ready_to_attach(page: Page) -> Page:
    """The page opened, its copilot able to take files."""
    page.goto("/")
    expect(page.get_by_role("button", name="Attach files")).to_be_visible(timeout=TURN_TIMEOUT)
    return page


@pytest.fixture
def ready(page: Page) -> Page:
    return ready_to_attach(page)


def test_a_pasted_image_reaches_the_agent_and_stays_in_the_message(ready: Page):
    page = ready
    page.evaluate(PASTE, ["#cui-message", [encoded("screenshot.png", "image/png", png())]])
    attached(page, "screenshot.png")

    ask(page, "what is on my screen?")
    idle(page)

    expect(replies(page).last).to_have_text("I got a PNG image of 34 KB.")
    image_shown(page, "screenshot.png")
    expect(page.locator(".cui-attach-file")).to_have_count(0)  # the composer is empty again

    page.reload()
    expect(replies(page).last).to_have_text("I got a PNG image of 34 KB.", timeout=TURN_TIMEOUT)
    image_shown(page, "screenshot.png")


def test_a_dropped_csv_reaches_the_agent_and_stays_in_the_message(ready: Page):
    page = ready
    page.evaluate(DROP, [".cui-conversation", [encoded("orders.csv", "text/csv", ORDERS_CSV)]])
    attached(page, "orders.csv")

    ask(page, "sum these up")
    idle(page)

    expect(replies(page).last).to_have_text("I got a CSV file, orders.csv, 3 rows.")
    sent = copilot(page).locator('[data-kind="user"] [data-file="orders.csv"]')
    expect(sent).to_contain_text("orders.csv")
    expect(sent).to_contain_text("68 bytes")

    page.reload()
    expect(replies(page).last).to_have_text("I got a CSV file, orders.csv, 3 rows.", timeout=TURN_TIMEOUT)
    expect(copilot(page).locator('[data-kind="user"] a[data-file="orders.csv"]')).to_be_visible()


def test_a_file_over_the_limit_is_refused_with_the_reason_and_nothing_typed_is_lost(ready: Page, tabs):
    page = ready
    tabs.allowed.append(lambda text: "status of 422" in text)  # the server's refusal of the .exe, in the console
    box = page.get_by_role("textbox", name="Ask the copilot")
    box.fill("here is the big one")

    page.evaluate(BIG_DROP, ".cui-panel")
    page.evaluate(DROP, [".cui-panel", [encoded("report.exe", "application/x-msdownload", b"MZ" * 100)]])

    refusals = page.locator(".cui-composer").get_by_role("alert")
    expect(refusals).to_contain_text("report.exe: this type of file is not accepted", timeout=TURN_TIMEOUT)
    page.evaluate(BIG_DROP, ".cui-panel")
    expect(refusals).to_have_text("big.png is 12.4 MB; the limit is 10 MB")
    expect(box).to_have_value("here is the big one")
    expect(page.locator(".cui-attach-file")).to_have_count(0)


def test_a_file_taken_can_be_removed_before_sending(ready: Page):
    page = ready
    page.evaluate(DROP, [".cui-panel", [encoded("orders.csv", "text/csv", ORDERS_CSV), encoded("chart.png", "image/png", png())]])
    attached(page, "orders.csv")
    attached(page, "chart.png")

    page.get_by_role("button", name="Remove orders.csv").click()

    expect(page.get_by_role("button", name="Remove orders.csv")).to_have_count(0)
    ask(page, "and this?")
    idle(page)
    expect(replies(page).last).to_have_text("I got a PNG image of 34 KB.")


def test_files_in_the_composer_and_in_a_message_have_no_serious_violation(ready: Page, axe_source: str):  # noqa: F811
    page = ready
    page.evaluate(DROP, [".cui-panel", [encoded("orders.csv", "text/csv", ORDERS_CSV)]])
    attached(page, "orders.csv")
    ask(page, "look")
    idle(page)
    page.evaluate(PASTE, ["#cui-message", [encoded("chart.png", "image/png", png())]])
    attached(page, "chart.png")

    assert violations(page, axe_source) == []


def test_a_conversation_opened_from_the_list_shows_its_files_and_deleting_it_deletes_them(ready: Page):
    page = ready
    page.evaluate(DROP, [".cui-panel", [encoded("orders.csv", "text/csv", ORDERS_CSV)]])
    attached(page, "orders.csv")
    ask(page, "sum these up")
    idle(page)
    file_url = copilot(page).locator('a[data-file="orders.csv"]').get_attribute("href")
    assert page.request.get(file_url).body() == ORDERS_CSV

    page.get_by_role("button", name="New conversation").first.click()
    expect(page.locator('[data-kind="user"]')).to_have_count(0)
    listed = conversations(page)
    listed.get_by_role("button", name="sum these up").first.click()
    expect(copilot(page).locator('a[data-file="orders.csv"]')).to_be_visible(timeout=TURN_TIMEOUT)

    listed = conversations(page)
    listed.get_by_role("button", name="Delete sum these up").click()
    listed.get_by_role("button", name="Delete", exact=True).click()

    expect(page.locator('[data-kind="user"]')).to_have_count(0, timeout=TURN_TIMEOUT)
    for _ in range(50):
        if page.request.get(file_url).status == 404:
            break
        page.wait_for_timeout(100)
    assert page.request.get(file_url).status == 404


def test_the_paperclip_picks_files_and_a_files_name_is_only_text(ready: Page, tmp_path):
    page = ready
    named = tmp_path / "<img src=x onerror=alert(1)>.csv"
    named.write_bytes(ORDERS_CSV)
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Attach files").click()
    chooser.value.set_files(str(named))
    attached(page, named.name)

    ask(page, "what is in it?")
    idle(page)

    expect(replies(page).last).to_have_text(f"I got a CSV file, {named.name}, 3 rows.")
    chip = copilot(page).locator(".cui-sent-file")
    expect(chip.locator(".cui-attach-name")).to_have_text(named.name)
    expect(copilot(page).locator('[data-kind="user"] img')).to_have_count(0)  # the name made no element


def test_sending_while_a_file_is_still_uploading_waits_for_it(ready: Page):
    page = ready
    held = []
    page.route("**/copilot/attachments?*", lambda route: held.append(route))  # the upload waits until let go
    page.evaluate(DROP, [".cui-panel", [encoded("orders.csv", "text/csv", ORDERS_CSV)]])
    expect(page.locator(".cui-attach-file")).to_have_attribute("data-uploading", "true")
    box = page.get_by_role("textbox", name="Ask the copilot")
    box.fill("sum these up")
    box.press("Enter")

    expect(page.locator(".cui-composer").get_by_role("alert")).to_have_text("Wait for the files to finish uploading, then send.")
    expect(copilot(page).locator('[data-kind="user"]')).to_have_count(0)
    expect(box).to_have_value("sum these up")

    held[0].continue_()
    attached(page, "orders.csv")
    box.press("Enter")
    idle(page)
    expect(replies(page).last).to_have_text("I got a CSV file, orders.csv, 3 rows.", timeout=TURN_TIMEOUT)


def test_after_a_restart_the_tab_still_takes_and_shows_files(ready: Page, tabs, demo_server):
    page = ready
    tabs.allowed.append(lambda text: "ERR_CONNECTION_REFUSED" in text or "ERR_CONNECTION_RESET" in text)
    page.evaluate(PASTE, ["#cui-message", [encoded("screenshot.png", "image/png", png())]])
    attached(page, "screenshot.png")
    ask(page, "what is this?")
    idle(page)

    demo_server.restart()  # Reflex's state is gone; the tab reconnects without a reload

    expect(page.get_by_text("Reconnecting…")).to_have_count(0, timeout=TURN_TIMEOUT)
    image_shown(page, "screenshot.png")
    page.evaluate(DROP, [".cui-panel", [encoded("orders.csv", "text/csv", ORDERS_CSV)]])
    attached(page, "orders.csv")
    ask(page, "and this?")
    idle(page)
    expect(replies(page).last).to_have_text("I got a CSV file, orders.csv, 3 rows.", timeout=TURN_TIMEOUT)


GRANT_RESOLUTION_MS = 1100  # a grant's expiry is in whole seconds


def test_a_grant_that_ran_out_is_renewed_and_the_file_goes_up_when_attached_again(page: Page, tabs):
    server = ServerFrames(page)
    ready_to_attach(page)
    tabs.frames.until_carried(page, 'grant_rx_state_":"')  # the page's first grant came (its composer asks for one as it mounts)
    tabs.allowed.append(lambda text: "status of 403 (Forbidden)" in text)  # the refused upload, as the browser logs it
    grants: list[str] = []

    def upload_seen(request) -> None:
        if request.method == "POST" and "/copilot/attachments?" in request.url:
            grants.append(parse_qs(urlparse(request.url).query)["grant"][0])

    page.on("request", upload_seen)
    expired = {"error": "This page may no longer attach or show files: reload it."}  # what the endpoint answers then
    # A scenario's time: a grant names its expiry in whole seconds, so a renewal a second later differs from it.
    page.wait_for_timeout(GRANT_RESOLUTION_MS)
    page.route("**/copilot/attachments?*", lambda route: route.fulfill(status=403, json=expired), times=1)

    with server.carrying('grant_rx_state_":"'):  # the renewed grant came (nothing on the page shows it)
        page.evaluate(DROP, [".cui-panel", [encoded("orders.csv", "text/csv", ORDERS_CSV)]])
        expect(page.locator(".cui-composer").get_by_role("alert")).to_have_text(
            "orders.csv was not uploaded: this page's permission to attach files had run out and is renewed now. Attach it again."
        )
        expect(page.locator(".cui-attach-file")).to_have_count(0)
    page.evaluate(DROP, [".cui-panel", [encoded("orders.csv", "text/csv", ORDERS_CSV)]])
    attached(page, "orders.csv")
    assert len(grants) == 2 and grants[0] != grants[1]  # the second went up under the renewed grant
    ask(page, "sum these up")
    idle(page)
    expect(replies(page).last).to_have_text("I got a CSV file, orders.csv, 3 rows.", timeout=TURN_TIMEOUT)


def test_a_message_whose_file_is_gone_is_not_sent_and_says_why(ready: Page):
    page = ready
    uploads: list[str] = []
    page.on("response", lambda response: uploads.append(response.url) if "/copilot/attachments?" in response.url else None)
    page.evaluate(DROP, [".cui-panel", [encoded("orders.csv", "text/csv", ORDERS_CSV)]])
    attached(page, "orders.csv")
    file_id = page.locator('input[name="attachments"]').input_value()
    grant = parse_qs(urlparse(uploads[0]).query)["grant"][0]
    base = uploads[0].split("?")[0]
    # the file is forgotten meanwhile (as one unsent for a day is, or one that is another owner's after a logout)
    assert page.request.delete(f"{base}/{file_id}?grant={grant}").status == 200
    box = page.get_by_role("textbox", name="Ask the copilot")
    box.fill("sum these up")
    box.press("Enter")

    expect(copilot(page).locator('[data-kind="error"]')).to_have_text(
        "The message was not sent: orders.csv is no longer here for you (files not sent within a day are forgotten, "
        "and logging out leaves them behind). Attach it again, then send.",
        timeout=TURN_TIMEOUT,
    )
    expect(box).to_have_value("sum these up")
    expect(copilot(page).locator('[data-kind="user"]')).to_have_count(0)
    expect(replies(page)).to_have_count(0)


def test_a_long_name_is_shortened_alike_in_the_composer_and_in_the_message(ready: Page):
    page = ready
    long_name = "quarterly orders " + "x" * 300 + ".csv"
    shortened = ("quarterly orders " + "x" * 300)[:115] + "….csv"
    page.evaluate(DROP, [".cui-panel", [encoded(long_name, "text/csv", ORDERS_CSV)]])
    attached(page, shortened)

    ask(page, "sum these up")

    expect(copilot(page).locator('[data-kind="user"] .cui-sent-file')).to_have_attribute("data-file", shortened)
    idle(page)
