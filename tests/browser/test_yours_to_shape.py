"""A copilot shaped by its app, in Chromium: its words in French, its own greeting, placeholder and message
components, the shortcut that opens it in each layout, Up-arrow to edit, the message actions as icons shown on hover
and focus, header targets a finger can hit on a phone, and the ratings of a reply kept and told to the app.

The app is the demo with tests/browser/_shaped_app.py (written from the customizing and feedback guides), served
once for this module.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests._npm import npm_package

from .conftest import ServedApp, Tabs, _served
from .test_accessibility import AXE_VERSION, violations
from .test_attachments import BIG_DROP, DROP, encoded

TURN_TIMEOUT = 20_000


@pytest.fixture(scope="module")
def shaped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServedApp, Path, Path]]:
    """The shaped app served in production mode: its URL, where its feedback hook writes, its store's file."""
    feedback = tmp_path_factory.mktemp("shaped-feedback") / "feedback.jsonl"
    env = {"COPILOT_EXTRA_MODULES": "tests.browser._shaped_app", "SHAPED_FEEDBACK_FILE": str(feedback)}
    server = _served(tmp_path_factory, "shaped-app", ".web-test-shaped", env)
    with server as served:
        yield served, feedback, Path(server.env["COPILOT_STORE_URL"])


@pytest.fixture(scope="module")
def axe() -> str:
    """axe.min.js of the pinned axe-core (as test_accessibility installs it)."""
    return (npm_package("axe-core", AXE_VERSION) / "axe.min.js").read_text(encoding="utf-8")


@pytest.fixture
def tab(tabs: Tabs, shaped: tuple[ServedApp, Path, Path]) -> Page:
    return tabs.open(shaped[0].url, permissions=["clipboard-read", "clipboard-write"])


def ask(page: Page, text: str) -> None:
    """Type in the (French) message box and press Enter; returns once the message shows."""
    sent = page.locator('[data-kind="user"]')
    before = sent.count()
    box = page.get_by_role("textbox", name="Demandez au copilote")
    box.fill(text)
    box.press("Enter")
    expect(sent).to_have_count(before + 1, timeout=TURN_TIMEOUT)


def idle(page: Page) -> None:
    expect(page.locator(".cui-composer").get_by_role("button", name="Envoyer")).to_be_attached(timeout=TURN_TIMEOUT)


def composer(page: Page) -> Locator:
    return page.get_by_role("textbox", name="Demandez au copilote")


def last_reply(page: Page) -> Locator:
    return page.get_by_role("group", name="Copilote").last


def test_the_copilot_speaks_the_apps_words_and_draws_its_messages_with_the_apps_components(tab: Page, axe: str):
    tab.goto("/shaped")
    welcome = tab.locator(".shaped-welcome")
    expect(welcome.get_by_role("heading", name="Bonjour !")).to_be_visible()
    expect(welcome).to_contain_text("Bonjour ! Je connais les ventes d'Acme.")  # the layout's greeting
    expect(composer(tab)).to_have_attribute("placeholder", "Une question sur Acme ?")
    expect(tab.get_by_role("button", name="Nouvelle conversation")).to_be_visible()
    expect(tab.get_by_role("button", name="Fermer le copilote")).to_be_visible()
    expect(tab.get_by_role("complementary", name="Copilote")).to_be_visible()
    tab.get_by_role("button", name="Conversations").click()
    expect(tab.get_by_role("searchbox", name="Rechercher des conversations")).to_be_visible()
    expect(tab.get_by_text("Pas encore de conversation.")).to_be_visible()
    tab.keyboard.press("Escape")

    ask(tab, "hello")
    idle(tab)
    expect(tab.locator(".shaped-question")).to_contain_text("Moi : hello")
    answer = tab.locator(".shaped-answer").last
    expect(answer).to_contain_text("Acme IA")
    expect(answer).not_to_have_text("Acme IA")  # and the reply's own words after the badge
    reply = last_reply(tab)
    for name in ("Copier le message", "Régénérer", "Bonne réponse", "Mauvaise réponse"):
        expect(reply.get_by_role("button", name=name, exact=True)).to_have_count(1)
    expect(tab.get_by_role("group", name="Vous").get_by_role("button", name="Modifier le message")).to_have_count(1)
    assert violations(tab, axe) == []


def test_the_shortcut_opens_the_sidebar_and_puts_the_cursor_in_its_message_box(tab: Page):
    tab.goto("/")
    expect(composer(tab)).to_be_visible()
    tab.get_by_role("button", name="Fermer le copilote").click()
    expect(composer(tab)).to_be_hidden()
    opener = tab.get_by_role("button", name="Copilote", exact=True)
    expect(opener).to_have_attribute("aria-keyshortcuts", "Control+/ Meta+/")
    expect(opener).to_have_attribute("title", "Ouvrir le copilote (Ctrl+/ or ⌘/)")
    tab.locator("h1").first.click()  # focus on the page, away from the copilot
    tab.keyboard.press("Control+/")
    expect(composer(tab)).to_be_focused()


def test_the_shortcut_opens_the_popup_and_escape_closes_it(tab: Page):
    tab.goto("/popup")
    launcher = tab.get_by_role("button", name="Ouvrir le copilote")
    expect(launcher).to_have_attribute("aria-keyshortcuts", "Control+/ Meta+/")
    tab.keyboard.press("Control+/")
    expect(tab.get_by_role("dialog", name="Copilote")).to_be_visible()
    expect(composer(tab)).to_be_focused()
    tab.keyboard.press("Escape")
    expect(tab.get_by_role("dialog", name="Copilote")).to_be_hidden()
    expect(tab.get_by_role("button", name="Ouvrir le copilote")).to_be_focused()


def test_a_layouts_own_shortcut_opens_its_popup(tab: Page):
    tab.goto("/shaped-popup")
    launcher = tab.get_by_role("button", name="Ouvrir le copilote")
    expect(launcher).to_have_attribute("aria-keyshortcuts", "Control+K Meta+K")
    expect(launcher.locator("svg.lucide-message-circle")).to_have_count(1)  # the layout's own icon
    tab.keyboard.press("Control+/")  # not this page's shortcut
    expect(tab.get_by_role("dialog", name="Copilote")).to_be_hidden()
    tab.keyboard.press("Meta+k")
    expect(tab.get_by_role("dialog", name="Copilote")).to_be_visible()
    expect(composer(tab)).to_be_focused()


def test_the_shortcut_puts_the_cursor_in_the_inline_chat(tab: Page):
    tab.goto("/chat")
    expect(composer(tab)).to_be_visible()
    tab.locator("h1").first.click()
    expect(composer(tab)).not_to_be_focused()
    tab.keyboard.press("Control+/")
    expect(composer(tab)).to_be_focused()


def test_up_arrow_in_the_empty_message_box_edits_the_last_message(tab: Page):
    tab.goto("/chat")
    ask(tab, "hello")
    idle(tab)
    ask(tab, "what can you do?")
    idle(tab)
    composer(tab).focus()
    tab.keyboard.press("ArrowUp")
    editor = tab.get_by_role("textbox", name="Modifiez votre message")
    expect(editor).to_be_focused()
    expect(editor).to_have_value("what can you do?")
    tab.keyboard.press("Escape")
    composer(tab).fill("not empty")
    tab.keyboard.press("ArrowUp")  # a box with words keeps its arrow for moving the cursor
    expect(editor).to_have_count(0)


def test_a_messages_actions_show_on_hover_and_on_focus(tab: Page):
    tab.goto("/chat")
    ask(tab, "hello")
    idle(tab)
    reply = last_reply(tab)
    actions = reply.locator(".cui-actions")
    tab.mouse.move(1, 1)
    tab.locator("h1").first.click()
    expect(actions).to_have_css("opacity", "0")
    copy = reply.get_by_role("button", name="Copier le message")
    copy.focus()
    expect(actions).to_have_css("opacity", "1")
    tab.locator("h1").first.click()
    expect(actions).to_have_css("opacity", "0")
    reply.hover()
    expect(actions).to_have_css("opacity", "1")


def test_the_header_buttons_are_44_px_targets_on_a_phone_with_space_between_them(tabs: Tabs, shaped: tuple):
    phone = tabs.open(shaped[0].url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    phone.goto("/")
    phone.get_by_role("button", name="Copilote", exact=True).click()
    header = phone.locator(".cui-header-actions")
    buttons = header.get_by_role("button")
    expect(buttons.first).to_be_visible()
    boxes = [buttons.nth(n).bounding_box() for n in range(buttons.count())]
    assert len(boxes) >= 3
    for box in boxes:
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, boxes
    for left, right in itertools.pairwise(boxes):
        assert right["x"] - (left["x"] + left["width"]) >= 4, boxes  # apart, not glued together
    ask(phone, "hello")
    idle(phone)
    actions = last_reply(phone).locator(".cui-actions")
    expect(actions).to_have_css("opacity", "1")  # a touch screen has no hover: always shown
    for n in range(actions.get_by_role("button").count()):
        box = actions.get_by_role("button").nth(n).bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, box


def test_a_rating_is_kept_with_the_reply_told_to_the_app_and_shown_after_a_reload(
    tab: Page, shaped: tuple[ServedApp, Path, Path], axe: str
):
    _, feedback_file, store = shaped
    tab.goto("/chat")
    ask(tab, "hello")
    idle(tab)
    reply = last_reply(tab)
    good = reply.get_by_role("button", name="Bonne réponse", exact=True)
    bad = reply.get_by_role("button", name="Mauvaise réponse", exact=True)
    good.click()
    expect(good).to_have_attribute("aria-pressed", "true")
    told = wait_for_feedback(feedback_file, 1)
    assert told[-1]["rating"] == "good" and told[-1]["comment"] == ""
    assert told[-1]["agent_id"] == "default" and told[-1]["model"] == "Demo model"
    assert told[-1]["run_id"] and told[-1]["thread_id"] and told[-1]["message_id"]
    assert told[-1]["text"][:40] in reply.inner_text()  # the reply's words (the page shows them as Markdown)

    bad.click()
    expect(bad).to_have_attribute("aria-pressed", "true")
    expect(good).to_have_attribute("aria-pressed", "false")
    comment = tab.get_by_role("textbox", name="Qu'est-ce qui n'allait pas ? (facultatif)")
    expect(comment).to_be_focused()
    comment.fill("Trop court.")
    assert violations(tab, axe) == []
    tab.get_by_role("button", name="Envoyer l'avis").click()
    expect(tab.get_by_role("status").filter(has_text="Merci pour votre avis")).to_be_visible()
    told = wait_for_feedback(feedback_file, 3)
    assert [entry["rating"] for entry in told[-2:]] == ["bad", "bad"]
    assert told[-1]["comment"] == "Trop court." and told[-1]["message_id"] == told[0]["message_id"]

    with sqlite3.connect(store) as db:
        kept = db.execute("SELECT message_key, feedback FROM copilot_messages WHERE feedback IS NOT NULL").fetchall()
    assert [(key, json.loads(value)) for key, value in kept] == [
        (told[-1]["message_id"], {"rating": "bad", "comment": "Trop court."})
    ]

    tab.reload()
    expect(last_reply(tab).get_by_role("button", name="Mauvaise réponse", exact=True)).to_have_attribute(
        "aria-pressed", "true", timeout=TURN_TIMEOUT
    )
    expect(last_reply(tab).get_by_role("button", name="Bonne réponse", exact=True)).to_have_attribute("aria-pressed", "false")


def wait_for_feedback(path: Path, count: int, timeout: float = 10.0) -> list[dict]:
    """The ratings the app's hook wrote, once there are `count` of them."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        if len(lines) >= count:
            return [json.loads(line) for line in lines]
        time.sleep(0.1)
    raise AssertionError(f"the feedback hook wrote {len(lines)} ratings, not {count}")


def test_a_refused_file_is_named_in_the_apps_words_whether_the_page_or_the_server_refuses_it(tab: Page, tabs: Tabs):
    tabs.allowed.append(lambda text: "status of 422" in text)  # the server's refusal of the .exe, in the console
    tab.goto("/")
    expect(tab.get_by_role("button", name="Joindre des fichiers")).to_be_enabled(timeout=TURN_TIMEOUT)

    tab.evaluate(DROP, [".cui-panel", [encoded("rapport.exe", "application/x-msdownload", b"MZ" * 100)]])

    refusals = tab.locator(".cui-composer").get_by_role("alert")  # the server's refusal, in the page's words
    expect(refusals).to_have_text("rapport.exe : ce type de fichier n'est pas accepté", timeout=TURN_TIMEOUT)
    tab.evaluate(BIG_DROP, ".cui-panel")  # the page's own
    expect(refusals).to_have_text("big.png pèse 12.4 MB ; la limite est de 10 MB")
    expect(tab.locator(".cui-attach-file")).to_have_count(0)
