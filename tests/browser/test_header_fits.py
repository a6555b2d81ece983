"""The copilot's header never overlaps itself, at any width from 320 px, in each layout and on a phone: with a long
title (cut with an ellipsis, said whole by its tooltip), a long model name, the agent picker, every button, and the
notice that the connection is lost, no two of its parts cover each other and none leaves the header.

Served: the demo app with the trip planner of tests/browser/_words_app.py (its pages /header-sidebar, /header-popup,
/header-chat; two agents, so the header offers a picker).
"""

from __future__ import annotations

import contextlib
import itertools
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from ._connection import ConnectionCut
from ._words_said import LONG_MODEL, LONG_TITLE
from .conftest import ServedApp, Tabs

WIDTHS = (320, 390, 420)
DESKTOP = {"width": 1280, "height": 800}
PAGES = {
    "docked sidebar": "/header-sidebar",
    "inline chat": "/header-chat",
    "sidebar on a phone": "/header-sidebar",
    "popup on a phone": "/header-popup",
}
LAYOUTS = tuple(PAGES)

# The header's parts as a person sees them: the icon, the title, the model's name, each button and the picker, the
# notice; a part inside another (an icon in its button) is the other's.
MEASURE = """(header) => {
  const box = (element) => {
    const { left, top, right, bottom } = element.getBoundingClientRect();
    return { left, top, right, bottom };
  };
  const shown = [...header.querySelectorAll("svg, h2, .cui-model, [role='status'], button, select")].filter(
    (element) => element.checkVisibility() && element.getBoundingClientRect().width > 0,
  );
  const parts = shown.filter((element) => !shown.some((other) => other !== element && other.contains(element)));
  const named = (element) =>
    element.getAttribute("aria-label") || element.textContent.trim() || element.getAttribute("class") || element.tagName;
  return {
    header: box(header),
    viewport: { right: window.innerWidth, bottom: window.innerHeight },
    parts: parts.map((element) => ({ name: named(element), ...box(element) })),
  };
}"""
EPSILON = 0.5  # px: sub-pixel rounding


@pytest.mark.parametrize(("layout", "width"), list(itertools.product(LAYOUTS, WIDTHS)))
def test_the_header_fits_with_a_long_title_a_long_model_name_and_the_reconnecting_notice(
    tabs: Tabs, words_app: ServedApp, layout: str, width: int
):
    page = _opened(tabs, words_app, layout, width)
    cut = ConnectionCut(page)
    page.goto(PAGES[layout])
    _show(page, layout, width)
    header = page.locator(".cui-header")
    expect(header.get_by_text(LONG_MODEL)).to_be_visible()  # the session has told the page its model
    _fits(page, f"{layout} at {width} px")

    cut.cut()
    expect(header.get_by_role("status")).to_have_text("⟦Reconnecting…⟧", timeout=20_000)
    _fits(page, f"{layout} at {width} px, reconnecting")


def test_the_popup_header_fits_on_a_desktop_while_reconnecting(tabs: Tabs, words_app: ServedApp):
    page = tabs.open(words_app.url, viewport=DESKTOP)
    cut = ConnectionCut(page)
    page.goto("/header-popup")
    page.locator(".cui-popup-launcher").click()
    expect(page.locator(".cui-header").get_by_text(LONG_MODEL)).to_be_visible()
    cut.cut()
    expect(page.locator(".cui-header").get_by_role("status")).to_be_visible(timeout=20_000)
    _fits(page, "popup on a desktop, reconnecting")


def test_a_cut_title_says_itself_whole_and_so_does_the_model(tabs: Tabs, words_app: ServedApp):
    page = _opened(tabs, words_app, "sidebar on a phone", 320)
    page.goto("/header-sidebar")
    _show(page, "sidebar on a phone", 320)
    title = page.locator(".cui-header h2")
    expect(title).to_have_text(LONG_TITLE)
    expect(title).to_have_attribute("title", LONG_TITLE)
    expect(title).to_have_css("text-overflow", "ellipsis")
    assert title.evaluate("(h2) => h2.scrollWidth > h2.clientWidth"), "the long title is not cut at 320 px"
    model = page.locator(".cui-header .cui-model")
    expect(model).to_have_attribute("title", f"⟦The model that answers: {LONG_MODEL}⟧")


def _opened(tabs: Tabs, app: ServedApp, layout: str, width: int) -> Page:
    """A tab for this layout: a phone's screen of this width, or a desktop's (the sidebar docked this wide)."""
    if "phone" in layout:
        return tabs.open(app.url, viewport={"width": width, "height": 780}, has_touch=True, is_mobile=True)
    page = tabs.open(app.url, viewport=DESKTOP)
    if layout == "docked sidebar":
        page.add_init_script(f"localStorage.setItem('cui-sidebar:width', '{width}')")
    return page


def _show(page: Page, layout: str, width: int) -> None:
    """Open the copilot in this layout, at this width."""
    if layout == "inline chat":
        page.locator("#chat-box").evaluate(f"(box) => {{ box.style.width = '{width}px'; }}")
    elif layout == "popup on a phone":
        page.locator(".cui-popup-launcher").click()
    elif layout == "sidebar on a phone":
        page.locator(".cui-dock-open").click()
    panel = page.locator(".cui-panel")
    expect(panel).to_be_visible()
    # (the docked sidebar takes its remembered width once the page has read it: it may be drawn at the default first)
    about = f"(panel) => Math.abs(panel.getBoundingClientRect().width - {width}) <= 8"  # (its border, its edge)
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(f"({about})(document.querySelector('.cui-panel'))", timeout=5_000)
    shown = panel.evaluate("(panel) => panel.getBoundingClientRect().width")
    assert abs(shown - width) <= 8, f"the {layout} is {shown} px wide, not about {width}"


def _fits(page: Page, where: str) -> None:
    measured: dict[str, Any] = page.locator(".cui-header").evaluate(MEASURE)
    header, parts = measured["header"], measured["parts"]
    names = [part["name"] for part in parts]
    assert len(parts) >= 5, f"{where}: the header shows only {names}"
    assert header["right"] <= measured["viewport"]["right"] + EPSILON, f"{where}: the header is wider than the screen"
    for part in parts:
        inside = all(
            (
                part["left"] >= header["left"] - EPSILON,
                part["right"] <= header["right"] + EPSILON,
                part["top"] >= header["top"] - EPSILON,
                part["bottom"] <= header["bottom"] + EPSILON,
            )
        )
        assert inside, f"{where}: {part['name']!r} leaves the header: {part} in {header}"
    for one, other in itertools.combinations(parts, 2):
        assert not _overlap(one, other), f"{where}: {one['name']!r} and {other['name']!r} overlap: {one}, {other}"


def _overlap(one: dict[str, float], other: dict[str, float]) -> bool:
    return (
        one["left"] < other["right"] - EPSILON
        and other["left"] < one["right"] - EPSILON
        and one["top"] < other["bottom"] - EPSILON
        and other["top"] < one["bottom"] - EPSILON
    )


@pytest.fixture(autouse=True)
def _reconnecting_is_quiet(tabs: Tabs) -> None:
    """The page reports the cut connection in the console: expected here."""
    tabs.allowed.append(ConnectionCut.expected)
