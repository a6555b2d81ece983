"""The built-in agent with the tools of MCP servers: a notes server of the tests' own (tests/mcp_server.py), a real
process started over stdio or served over streamable HTTP on 127.0.0.1, driven through the real run loop on the
demo model (which calls any offered tool whose name starts the message: `add_note milk`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ag_ui.core import ToolMessage

import copilot_ui as cui
from copilot_ui.agents import Agent
from copilot_ui.core import Approve, AwaitingPerson, Deny, RunLoop, Thread, Toolbox, TurnOutcome, tool_from_function
from copilot_ui.server import agent_from_environment, builtin_agent, demo_model, read_mcp_servers

from .._processes import free_port
from ..mcp_server import HttpNotes, NotesFolder, start_http_notes

TURN_TIMEOUT = 30.0
TOKEN = "notes-token-5f2c9a71e4"


@pytest.fixture
def folder(tmp_path: Path) -> NotesFolder:
    return NotesFolder(tmp_path)


@pytest.fixture
def served(folder: NotesFolder) -> Iterator[HttpNotes]:
    with start_http_notes(folder, free_port(), token=TOKEN) as server:
        yield server


class Page:
    """The page's side: its own tool (the theme), the run loop, what waited for the person."""

    def __init__(self, agent: Agent) -> None:
        self.theme = "light"
        self.asked: list[AwaitingPerson] = []
        self.outcome: TurnOutcome | None = None

        async def set_theme(mode: str) -> str:
            """Switch the page between light and dark."""
            self.theme = mode
            return f"Theme is now {mode}."

        self.loop = RunLoop(agent, Toolbox([tool_from_function(set_theme)]), ask_person=True, emit=self._seen)
        self.thread = Thread()

    def _seen(self, event: Any) -> None:
        if isinstance(event, AwaitingPerson):
            self.asked.append(event)

    async def say(self, text: str) -> str:
        """The person writes; how the turn ended (done, waiting, error)."""
        outcome = self.outcome = await asyncio.wait_for(self.loop.send(self.thread, text), TURN_TIMEOUT)
        return outcome.status

    async def decide(self, decision: Approve | Deny) -> str:
        waiting = self.asked[-1]
        assert self.loop.decide(self.thread, waiting.call_id, decision, waiting.digest)
        outcome = await asyncio.wait_for(self.loop.resume(self.thread), TURN_TIMEOUT)
        return outcome.status

    def said(self) -> list[str]:
        """The agent's words since the person's last message (notices included)."""
        last_user = max(index for index, message in enumerate(self.thread.messages) if message.role == "user")
        return [m.content for m in self.thread.messages[last_user + 1 :] if m.role == "assistant" and m.content]

    def results(self) -> list[str]:
        return [message.content for message in self.thread.messages if isinstance(message, ToolMessage)]


def page_with(*servers: cui.McpServer) -> Page:
    return Page(builtin_agent(demo_model(0), toolsets=servers))


# Tools offered, called, shown


async def test_an_mcp_tool_over_stdio_runs_in_the_agent_and_its_result_is_in_the_conversation(folder: NotesFolder):
    page = page_with(cui.mcp_server("notes", **folder.stdio()))

    assert await page.say("add_note buy milk") == "done"

    assert folder.notes() == ["buy milk"]
    assert page.results() == ["Noted: buy milk (1 notes)."]
    assert page.said() == ["Done: Noted: buy milk (1 notes)."]


async def test_an_mcp_tool_over_streamable_http_runs_with_the_configured_token(served: HttpNotes):
    page = page_with(cui.mcp_server("notes", url=served.url, headers={"Authorization": f"Bearer {TOKEN}"}))

    assert await page.say("add_note over http") == "done"

    assert page.results() == ["Noted: over http (1 notes)."]  # the server refuses a request without the token


async def test_turns_with_a_streamable_http_server_read_the_certificate_authorities_once(served: HttpNotes, ca_bundle_reads):
    # pydantic-ai connects to the server anew at every run, and each new client of its own read them
    page = page_with(cui.mcp_server("notes", url=served.url, headers={"Authorization": f"Bearer {TOKEN}"}))

    for number in range(3):
        assert await page.say(f"add_note note {number}") == "done"

    assert page.results() == [f"Noted: note {number} ({number + 1} notes)." for number in range(3)]
    assert len(ca_bundle_reads) <= 1


async def test_the_servers_tools_are_offered_next_to_the_pages_own(folder: NotesFolder):
    page = page_with(cui.mcp_server("notes", **folder.stdio()))

    await page.say("add_note call the bank")
    await page.say("set_theme dark")

    assert folder.notes() == ["call the bank"]
    assert page.theme == "dark"
    assert page.said() == ["Done: Theme is now dark."]


async def test_a_prefix_goes_before_the_servers_tool_names(folder: NotesFolder):
    page = page_with(cui.mcp_server("notes", **folder.stdio(), prefix="notes"))

    await page.say("notes_add_note pay rent")

    assert folder.notes() == ["pay rent"]


async def test_a_tool_named_as_one_of_the_pages_is_left_out_and_the_person_reads_how_to_offer_both(folder: NotesFolder):
    page = page_with(cui.mcp_server("notes", **folder.stdio()))

    async def add_note(text: str) -> str:
        """The page's own note-taking."""
        return "the page noted it."

    page.loop.toolbox.add(tool_from_function(add_note))

    await page.say("add_note from the page")

    assert folder.notes() == []  # the page's add_note ran, not the server's
    assert page.said() == [
        "The MCP server \"notes\" has tools named as the page's (add_note): the page's are used. "
        'Give the server a prefix (prefix="notes") to offer both.',
        "Done: the page noted it.",
    ]


async def test_two_servers_with_tools_of_one_name_are_told_apart_by_a_prefix(tmp_path: Path):
    first, second = NotesFolder(tmp_path / "first"), NotesFolder(tmp_path / "second")
    first.path.mkdir()
    second.path.mkdir()
    clashing = page_with(cui.mcp_server("notes", **first.stdio()), cui.mcp_server("todo", **second.stdio()))
    apart = page_with(cui.mcp_server("notes", **first.stdio()), cui.mcp_server("todo", **second.stdio(), prefix="todo"))

    assert await clashing.say("add_note x") == "error"
    await apart.say("todo_add_note y")

    assert clashing.outcome is not None
    assert clashing.outcome.message.endswith('Give the MCP server "todo" (or the other) a prefix, e.g. prefix="todo".')
    assert second.notes() == ["y"]


async def test_a_stdio_server_keeps_running_from_one_turn_to_the_next(folder: NotesFolder):
    page = page_with(cui.mcp_server("notes", **folder.stdio()))

    await page.say("add_note one")
    first = folder.pid()
    await page.say("set_theme dark")  # a turn with a follow-up run: two more runs of the agent
    await page.say("add_note two")

    assert folder.pid() == first
    assert folder.notes() == ["one", "two"]


# Approval, per tool or per server


async def test_a_call_needing_approval_waits_for_the_person_and_runs_once_when_approved(folder: NotesFolder):
    page = page_with(cui.mcp_server("notes", **folder.stdio(), approval=["erase_notes"]))
    await page.say("add_note keep me")

    assert await page.say("erase_notes") == "waiting"
    assert folder.calls() == ["add_note"]  # not run while it waits
    assert page.asked[-1].tool_name == "erase_notes" and page.asked[-1].kind == "approval"
    [interrupt] = page.thread.interrupts
    assert interrupt.metadata == {"mcp_server": "notes", "description": "Erase every note."}

    assert await page.decide(Approve()) == "done"

    assert folder.calls() == ["add_note", "erase_notes"]
    assert folder.notes() == []
    assert page.said() == ["Done: Erased 1 notes."]
    await page.say("read_notes")
    assert folder.calls().count("erase_notes") == 1  # the next turns do not run it again


async def test_a_denied_call_is_refused_and_never_runs(folder: NotesFolder):
    page = page_with(cui.mcp_server("notes", **folder.stdio(), approval=["erase_notes"]))
    await page.say("add_note keep me")
    await page.say("erase_notes")

    assert await page.decide(Deny("not today")) == "done"

    assert "erase_notes" not in folder.calls()
    assert folder.notes() == ["keep me"]
    assert page.results()[-1] == "not today"
    assert page.said() == ["That did not happen: not today."]


async def test_approval_per_tool_leaves_the_servers_other_tools_unasked(folder: NotesFolder):
    page = page_with(cui.mcp_server("notes", **folder.stdio(), approval=["erase_notes"]))

    assert await page.say("add_note no need to ask") == "done"

    assert page.asked == []


async def test_approval_always_holds_every_tool_of_the_server(folder: NotesFolder):
    page = page_with(cui.mcp_server("notes", **folder.stdio(), approval="always"))

    assert await page.say("add_note ask first") == "waiting"
    assert folder.notes() == []
    assert await page.decide(Approve()) == "done"
    assert folder.notes() == ["ask first"]


async def test_approval_may_depend_on_the_arguments(folder: NotesFolder):
    risky = cui.mcp_server("notes", **folder.stdio(), approval=lambda tool, arguments: "secret" in arguments.get("text", ""))
    page = page_with(risky)

    assert await page.say("add_note plain words") == "done"
    assert await page.say("add_note a secret plan") == "waiting"


async def test_an_approval_function_that_fails_or_answers_no_true_or_false_asks(folder: NotesFolder):
    page = page_with(cui.mcp_server("notes", **folder.stdio(), approval=lambda tool, arguments: arguments["txt"]))

    assert await page.say("add_note not without asking") == "waiting"
    assert folder.notes() == []

    vague = page_with(cui.mcp_server("notes", **folder.stdio(), approval=lambda tool, arguments: None))
    assert await vague.say("add_note nor this") == "waiting"


async def test_an_approval_list_naming_a_tool_the_server_lacks_makes_every_call_ask_and_says_so(folder: NotesFolder, caplog):
    page = page_with(cui.mcp_server("notes", **folder.stdio(), approval=["erase_note"]))  # the tool is erase_notes

    assert await page.say("erase_notes") == "waiting"  # the tool the misspelt name meant does not run unasked
    assert await page.decide(Deny("no")) == "done"
    assert await page.say("add_note ask me too") == "waiting"  # nor does any other of the server's
    assert folder.notes() == []
    told = [record.getMessage() for record in caplog.records if record.levelname == "ERROR"]
    assert told[0].startswith(
        'MCP server \'notes\': approval= names "erase_note" (did you mean "erase_notes"?), which it has no tool of; '
        "until that is fixed every call of the server waits for a person's approval."
    )


async def test_a_call_needing_approval_waits_on_a_page_without_tools_of_its_own(folder: NotesFolder):
    loop = RunLoop(
        builtin_agent(demo_model(0), toolsets=[cui.mcp_server("notes", **folder.stdio(), approval="always")]), ask_person=True
    )

    outcome = await asyncio.wait_for(loop.send(Thread(), "erase_notes"), TURN_TIMEOUT)

    assert outcome.status == "waiting"


# A server that does not start, or stops: named, with what to check; the copilot goes on


async def test_a_server_whose_command_does_not_exist_is_named_and_the_agent_still_answers():
    page = page_with(cui.mcp_server("notes", command="no-such-notes-server"))

    assert await page.say("set_theme dark") == "done"

    assert page.said() == [
        'The MCP server "notes" is not available: there is no command "no-such-notes-server". Check its command. '
        "Until it is back, the copilot goes on without its tools.",
        "Done: Theme is now dark.",  # said once a turn: not again on the follow-up run
    ]
    assert page.theme == "dark"


async def test_a_server_that_exits_as_it_starts_is_named(folder: NotesFolder):
    folder.refuse_to_start()
    page = page_with(cui.mcp_server("notes", **folder.stdio()))

    await page.say("add_note milk")

    notice, reply = page.said()
    assert notice == (
        'The MCP server "notes" is not available: it exited as it started. Check its command, its arguments and its '
        "environment (the server log shows what it said). Until it is back, the copilot goes on without its tools."
    )
    assert reply.startswith("I can't answer that one.")  # its tools are not offered; the agent answers anyway


async def test_a_server_that_does_not_answer_in_time_is_named(tmp_path: Path):
    silent = cui.mcp_server("notes", command="sleep", args=["30"], timeout=1)
    page = page_with(silent)

    await page.say("hello")

    assert page.said()[0].startswith('The MCP server "notes" is not available: it did not answer within 1 s. ')


async def test_the_notice_comes_again_on_the_next_turn_while_the_server_is_down(tmp_path: Path):
    page = page_with(cui.mcp_server("notes", command="no-such-notes-server"))

    await page.say("hello")
    await page.say("hello again")

    assert page.said()[0].startswith('The MCP server "notes" is not available')


async def test_a_server_that_dies_during_a_call_gives_that_call_a_clear_error_and_starts_again(folder: NotesFolder):
    page = page_with(cui.mcp_server("notes", **folder.stdio()))
    await page.say("add_note before")
    before = folder.pid()

    await page.say("crash")

    stopped = (
        'The MCP server "notes" stopped while running crash (it exited: Connection closed). '
        "Check the server's log; it is started again with your next message."
    )
    assert page.results()[-1] == stopped
    assert page.said() == [f"That did not happen: {stopped}"]
    await page.say("add_note after")
    assert folder.notes() == ["before", "after"]
    assert folder.pid() != before


async def test_a_stdio_server_killed_between_turns_is_started_again(folder: NotesFolder):
    page = page_with(cui.mcp_server("notes", **folder.stdio()))
    await page.say("add_note before")

    folder.kill()
    await asyncio.sleep(0.2)
    await page.say("add_note after")

    assert folder.notes() == ["before", "after"]


async def test_a_stdio_server_killed_that_cannot_start_again_is_named_and_the_pages_tools_still_work(folder: NotesFolder):
    page = page_with(cui.mcp_server("notes", **folder.stdio()))
    await page.say("add_note before")

    folder.refuse_to_start()
    folder.kill()
    await asyncio.sleep(0.2)
    await page.say("set_theme dark")

    assert page.said()[0].startswith('The MCP server "notes" is not available: it exited as it started.')
    assert page.theme == "dark"


async def test_a_streamable_http_server_that_stops_is_named_and_the_pages_tools_still_work(served: HttpNotes):
    page = page_with(cui.mcp_server("notes", url=served.url, headers={"Authorization": f"Bearer {TOKEN}"}))
    await page.say("add_note before")

    served.kill()
    await page.say("set_theme dark")

    assert page.said() == [
        f'The MCP server "notes" is not available: nothing answers at {served.url}. Check that the server runs and '
        "that its URL is right. Until it is back, the copilot goes on without its tools.",
        "Done: Theme is now dark.",
    ]
    assert page.theme == "dark"


async def test_a_streamable_http_server_that_refuses_the_token_says_to_check_the_headers(served: HttpNotes):
    page = page_with(cui.mcp_server("notes", url=served.url, headers={"Authorization": "Bearer wrong-token-0b9e4c"}))

    await page.say("add_note milk")

    assert page.said()[0] == (
        f'The MCP server "notes" is not available: {served.url} refused its credentials (HTTP 401). Check its headers. '
        "Until it is back, the copilot goes on without its tools."
    )


async def test_a_url_without_an_mcp_endpoint_says_to_check_the_url(served: HttpNotes):
    wrong = served.url.replace("/mcp", "/nothing-here")
    page = page_with(cui.mcp_server("notes", url=wrong, headers={"Authorization": f"Bearer {TOKEN}"}))

    await page.say("add_note milk")

    assert page.said()[0].startswith(f'The MCP server "notes" is not available: there is no MCP endpoint at {wrong} (HTTP 404).')


# Secrets


def test_the_headers_and_environment_of_servers_are_the_agents_secrets(folder: NotesFolder):
    by_url = cui.mcp_server("search", url="http://user:pa55word-9f@127.0.0.1:1/mcp", headers={"X-Api-Key": "key-3c81f0aa"})
    by_command = cui.mcp_server("notes", **folder.stdio(), env={"NOTES_TOKEN": "tok-77e2b1d9"})

    secrets = builtin_agent(demo_model(0), toolsets=[by_url, by_command]).secrets()

    assert {"pa55word-9f", "key-3c81f0aa", "tok-77e2b1d9"} <= set(secrets)
    assert "pa55word-9f" not in repr(by_url)


async def test_a_secret_the_server_echoes_is_kept_neither_in_the_conversation_nor_for_the_model(served: HttpNotes):
    page = page_with(cui.mcp_server("notes", url=served.url, headers={"Authorization": f"Bearer {TOKEN}"}))

    await page.say("whoami")

    assert page.results() == ["You sent: [redacted]"]
    assert TOKEN not in json.dumps([message.model_dump() for message in page.thread.messages])


async def test_a_servers_credentials_in_its_url_are_not_in_what_the_person_reads():
    password = "pa55word-e1d0c4"
    page = page_with(cui.mcp_server("search", url=f"http://someone:{password}@127.0.0.1:{free_port()}/mcp?key={password}"))

    await page.say("hello")

    assert password not in page.said()[0]
    assert "nothing answers at http://127.0.0.1:" in page.said()[0]


# COPILOT_MCP_SERVERS


async def test_servers_named_by_the_environment_are_the_default_agents(folder: NotesFolder, served: HttpNotes, monkeypatch):
    monkeypatch.setenv("NOTES_TOKEN", TOKEN)
    servers = {
        "notes": {**folder.stdio(), "approval": ["erase_notes"]},
        "board": {"url": served.url, "headers": {"Authorization": "Bearer ${NOTES_TOKEN}"}, "prefix": "board"},
    }
    monkeypatch.setenv("COPILOT_MCP_SERVERS", json.dumps(servers))
    page = Page(agent_from_environment())

    await page.say("board_whoami")
    assert page.results() == ["You sent: [redacted]"]
    assert await page.say("erase_notes") == "waiting"
    assert TOKEN in page.loop.agent.secrets()


def test_the_environment_may_name_a_file_in_the_shape_other_mcp_clients_use(folder: NotesFolder, tmp_path: Path):
    file = tmp_path / "mcp.json"
    file.write_text(
        json.dumps(
            {"mcpServers": {"notes": {"type": "stdio", **folder.stdio()}, "off": {"url": "http://x/mcp", "disabled": True}}}
        )
    )

    servers = read_mcp_servers({"COPILOT_MCP_SERVERS": str(file)})

    assert [server.name for server in servers] == ["notes"]


async def test_a_wrong_variable_leaves_every_server_out_and_the_copilot_says_why(folder: NotesFolder, monkeypatch):
    servers = {"notes": {**folder.stdio(), "aproval": ["erase_notes"]}}  # misspelt: erase_notes would run unasked
    monkeypatch.setenv("COPILOT_MCP_SERVERS", json.dumps(servers))
    page = Page(agent_from_environment())

    await page.say("erase_notes")
    await page.say("set_theme dark")

    assert folder.calls() == []
    assert page.said() == [
        'The MCP servers are left out: COPILOT_MCP_SERVERS: server "notes": "aproval" is not a setting of an MCP server '
        "(they are: command, args, env, cwd, url, headers, approval, prefix, timeout, type, disabled). Until it is "
        "fixed, the copilot goes on without them.",
        "Done: Theme is now dark.",
    ]


def test_no_variable_no_servers():
    assert read_mcp_servers({}) == []


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "{notes: 1}",
            "COPILOT_MCP_SERVERS is not valid JSON (Expecting property name enclosed in double quotes, line 1 column 2)",
        ),
        (
            "/no/such/mcp.json",
            "COPILOT_MCP_SERVERS is neither a JSON object nor a file that can be read "
            "(No such file or directory: /no/such/mcp.json)",
        ),
        ('{"notes": ["python"]}', "COPILOT_MCP_SERVERS must be a JSON object of servers by name"),
        (
            '{"notes": {"command": "python", "aproval": "always"}}',
            'COPILOT_MCP_SERVERS: server "notes": "aproval" is not a setting of an MCP server',
        ),
        ('{"notes": {"command": "python", "approval": "sometimes"}}', 'COPILOT_MCP_SERVERS: server "notes": "approval'),
        (
            '{"notes": {"command": "python", "url": "http://x/mcp"}}',
            'COPILOT_MCP_SERVERS: MCP server "notes": give either command= (a server on stdio) or url= (streamable HTTP)',
        ),
        ('{"notes": {}}', 'COPILOT_MCP_SERVERS: MCP server "notes": give either command='),
        (
            '{"notes": {"url": "http://x/mcp", "headers": {"Authorization": "Bearer ${UNSET_NOTES_TOKEN}"}}}',
            'COPILOT_MCP_SERVERS: server "notes" uses ${UNSET_NOTES_TOKEN}, which is not set',
        ),
    ],
)
def test_a_wrong_variable_is_a_clear_error(value: str, message: str):
    with pytest.raises(ValueError, match=r"^COPILOT_MCP_SERVERS") as raised:
        read_mcp_servers({"COPILOT_MCP_SERVERS": value})

    assert str(raised.value).startswith(message)
