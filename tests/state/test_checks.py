"""A declaration that takes a wrong value fails when the app is imported, or its page built: the error names the
declaration, the option, the value, what the option takes and the close matches (copilot_ui/_checks.py). Each test
declares on a Copilot of its own, or restores the app's, so that nothing leaks into other tests."""

from __future__ import annotations

import logging

import pytest
import reflex as rx

import copilot_ui as cui
from copilot_ui.agents import AgentRegistry
from copilot_ui.errors import CopilotUIError, DeclarationError
from copilot_ui.state.declarations import Copilot
from copilot_ui.state.declarations._references import check_call


class BookingState(rx.State):
    nights: int = 0


def refund_order(order_id: str, reason: str) -> str:
    """Refund an order."""
    return f"Refunded {order_id}."


def card(call: cui.ToolCallView) -> rx.Component:
    return rx.text(call.name)


def error_of(declare) -> str:
    with pytest.raises(DeclarationError) as raised:
        declare()
    assert isinstance(raised.value, CopilotUIError)
    return str(raised.value)


# Options of a tool


@pytest.mark.parametrize("misspelt", ["alwys", "allways", "Always"])
def test_a_misspelt_approval_is_an_error_that_suggests_always(misspelt):
    message = error_of(lambda: Copilot().frontend_tool(approval=misspelt)(refund_order))
    assert message.startswith(f'frontend_tool refund_order: approval="{misspelt}" is not valid; it takes "always", "never"')
    assert message.endswith('Did you mean approval="always"?')


def test_an_approval_that_means_nothing_is_an_error_saying_what_it_takes():
    message = error_of(lambda: Copilot().frontend_tool(approval="sometimes")(refund_order))
    assert 'approval="sometimes" is not valid' in message
    assert "a function of the call's arguments (a dict) that returns True or False" in message
    assert "Did you mean" not in message


@pytest.mark.parametrize(("value", "meant"), [(True, "always"), (None, "never")])
def test_approval_true_or_none_is_an_error_naming_the_word_it_likely_meant(value, meant):
    message = error_of(lambda: Copilot().frontend_tool(approval=value)(refund_order))
    assert f'Did you mean approval="{meant}"?' in message


def test_an_approval_predicate_that_takes_no_arguments_is_an_error():
    message = error_of(lambda: Copilot().frontend_tool(approval=lambda: True)(refund_order))
    assert "approval=<lambda> cannot be called with one argument" in message


def test_editable_naming_no_argument_is_an_error_with_the_close_argument():
    message = error_of(lambda: Copilot().frontend_tool(approval="always", editable=["reasn"])(refund_order))
    assert message == (
        'frontend_tool refund_order: editable= names "reasn", which is no argument of the tool; its arguments are '
        'order_id, reason. Did you mean "reason"?'
    )


def test_editable_given_as_one_text_is_an_error_suggesting_a_list():
    message = error_of(lambda: Copilot().frontend_tool(approval="always", editable="reason")(refund_order))
    assert 'Did you mean editable=["reason"]?' in message


def test_an_option_no_declaration_takes_is_an_error_naming_the_close_one():
    message = error_of(lambda: Copilot().frontend_tool(aproval="always")(refund_order))
    assert message.startswith("frontend_tool refund_order: there is no option aproval=; the options are name, description")
    assert message.endswith("Did you mean approval=?")


def test_a_question_takes_no_approval_and_says_whose_option_it_is():
    message = error_of(lambda: Copilot().human_in_the_loop(approval="always")(refund_order))
    assert "there is no option approval= (it is an option of frontend_tool)" in message


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"mode": "paralel"}, 'mode="paralel" is not valid; it takes "parallel" or "sequential". Did you mean mode="parallel"?'),
        ({"timeout": 0}, "timeout=0 is not valid; it takes the seconds a call may take"),
        ({"timeout": "30"}, 'timeout="30" is not valid'),
        ({"follow_up": "false"}, 'follow_up="false" is not valid; it takes True or False. Did you mean False?'),
        ({"completes_run": 1}, "completes_run=1 is not valid"),
        ({"name": "refund order"}, 'name="refund order" is not valid; a tool\'s name is letters, digits, _ and -'),
        ({"state": "BookingState"}, 'state="BookingState" is not valid; it takes the class of a Reflex state'),
        ({"available": True}, "available=True is not valid; it takes a function of the Session"),
        ({"describe": "Refund it."}, 'describe="Refund it." is not valid; it takes a function of the validated arguments'),
        ({"render": card, "display": lambda arguments: {}}, "display=<lambda> cannot be called with 2 arguments"),
        ({"agent": ""}, 'agent="" is not valid'),
    ],
)
def test_each_option_of_a_tool_is_checked(options, said):
    assert said in error_of(lambda: Copilot().frontend_tool(**options)(refund_order))


def test_a_question_with_state_needs_a_function_of_the_answer_to_give_it_to():
    def ask_nights(state: BookingState, trip_id: str) -> None:
        """How many nights?"""

    message = error_of(lambda: Copilot().human_in_the_loop(state=BookingState)(ask_nights))
    assert "state= gives the person's state to the function that turns their answer into the result" in message


def test_a_browser_tool_needs_a_script():
    def copy_text(text: str) -> None:
        """Copy a text."""

    assert 'script="  " is not valid' in error_of(lambda: Copilot().browser_tool(script="  ")(copy_text))


def test_a_tool_made_by_hand_is_checked_when_it_is_added():
    from copilot_ui.core import tool_from_function

    message = error_of(lambda: Copilot().add_tool(tool_from_function(refund_order, approval="alwys")))
    assert message.startswith('tool refund_order: approval="alwys" is not valid')


def test_the_declarations_the_docs_show_are_accepted():
    copilot = Copilot()

    def cancel_trip(state: BookingState, trip_id: str) -> None:
        """Cancel a trip."""

    copilot.frontend_tool(state=BookingState, approval=lambda arguments: True, editable=True, mode="sequential")(cancel_trip)
    copilot.frontend_tool(approval="never", timeout=None, follow_up=False, completes_run=True, title="Refund")(refund_order)
    assert copilot.tool("refund_order").needs_approval({}) is False


# Context, cards, shared state


def test_a_context_needs_a_description_and_a_function_of_its_state():
    assert 'description="" is not valid' in error_of(lambda: Copilot().context(BookingState, description=""))
    message = error_of(lambda: Copilot().context(BookingState, description="The trips")(lambda: {}))
    assert (
        message == 'context "The trips": <lambda> cannot be called with one argument; it is called with the page\'s BookingState.'
    )


def test_render_tool_without_the_tools_name_is_an_error():
    assert "card is no tool name" in error_of(lambda: Copilot().render_tool(card))


def test_a_card_for_no_tool_is_an_error_when_the_page_is_built():
    copilot = Copilot()
    copilot.frontend_tool(render=card)(refund_order)
    copilot.render_tool("refnud_order")(card)  # a card may come before its tool: checked once the page is built
    message = error_of(copilot.check)
    assert message == (
        'render_tool("refnud_order"): no agent has a tool "refnud_order"; the tools are refund_order. '
        'Did you mean "refund_order"?'
    )


def test_the_apps_layouts_check_its_cards(monkeypatch):
    # (only the app's own tools and a default agent without MCP servers: every tool can be known at import)
    monkeypatch.setattr(cui.copilot, "agents", AgentRegistry())
    monkeypatch.delenv("COPILOT_AGENT_URL", raising=False)
    monkeypatch.delenv("COPILOT_MCP_SERVERS", raising=False)
    monkeypatch.setitem(cui.copilot.renderers, "shwo_order", card)
    assert 'render_tool("shwo_order"): no agent has a tool "shwo_order"' in error_of(cui.sidebar)
    assert 'render_tool("shwo_order")' in error_of(cui.chat)


def test_a_card_for_a_backend_tool_of_the_builtin_agent_is_known():
    def lookup_rate(currency: str) -> str:
        """Look up an exchange rate."""
        return "1.08"

    copilot = Copilot()
    copilot.agents.register(cui.builtin_agent(tools=[lookup_rate]))
    copilot.render_tool("lookup_rate")(card)
    copilot.check()
    copilot.render_tool("lookup_rates")(card)
    assert 'Did you mean "lookup_rate"?' in error_of(copilot.check)


def test_a_card_for_a_remote_agents_tool_is_logged_and_checked_when_calls_come(caplog):
    copilot = Copilot()
    copilot.agents.register(cui.HttpAgent("http://127.0.0.1:9/agent", agent_id="research"))
    copilot.render_tool("serch_web")(card)
    with caplog.at_level(logging.WARNING, logger="copilot_ui"):
        copilot.check()  # the remote agent's tools cannot be known before it calls them
    assert "render_tool(\"serch_web\"): no tool of that name is declared here; the tools of agent 'research'" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="copilot_ui"):
        check_call(copilot, "search_web")
        check_call(copilot, "search_web")
    errors = [record.getMessage() for record in caplog.records if record.levelno == logging.ERROR]
    assert errors == [
        'the agent called "search_web", which no card of the app\'s draws, and render_tool("serch_web") draws no tool '
        "that has been called: is its name misspelt?"
    ]


def test_a_worker_that_did_not_build_the_page_checks_the_cards_at_the_first_call(caplog):
    copilot = Copilot()
    copilot.agents.register(cui.HttpAgent("http://127.0.0.1:9/agent", agent_id="research"))
    copilot.render_tool("serch_web")(card)
    with caplog.at_level(logging.WARNING, logger="copilot_ui"):
        copilot.tool_called("search_web")
    assert 'render_tool("serch_web") draws no tool that has been called' in caplog.text


def test_display_without_a_card_of_the_apps_is_an_error():
    copilot = Copilot()
    copilot.frontend_tool(display=lambda arguments, result: {})(refund_order)
    assert "display= gives the texts a card of the app's shows, and no card of the app's draws its calls" in error_of(
        copilot.check
    )


def test_a_tool_for_an_agent_that_is_not_registered_is_an_error():
    copilot = Copilot()
    copilot.agents.register(cui.HttpAgent("http://127.0.0.1:9/agent", agent_id="research"))
    copilot.frontend_tool(agent="reserch")(refund_order)
    message = error_of(copilot.check)
    assert message == (
        'tool refund_order: agent="reserch" is not valid; the agents are default, research. Did you mean "research"?'
    )


def test_a_shared_state_for_an_agent_that_is_not_registered_is_an_error():
    copilot = Copilot()
    copilot.agent_state(BookingState, agent="planner")
    assert 'agent_state BookingState: agent="planner" is not valid; the agents are default' in error_of(copilot.check)
    assert 'state="BookingState" is not valid' in error_of(lambda: Copilot().agent_state("BookingState"))


# Layouts


@pytest.mark.parametrize(
    ("layout", "options", "said"),
    [
        (cui.sidebar, {"sugestions": ["Hi"]}, "cui.sidebar: there is no option sugestions=; the options are"),
        (cui.sidebar, {"sugestions": ["Hi"]}, "Did you mean suggestions=?"),
        (cui.popup, {"lables": None, "possition": "left"}, "cui.popup: there are no options lables=, possition=; the options"),
        (cui.popup, {"lables": None, "possition": "left"}, "Did you mean labels= for lables= or "),
        (cui.sidebar, {"suggestions": "Plan a trip"}, 'suggestions="Plan a trip" is not valid; it takes a list of texts'),
        (cui.sidebar, {"width": 100}, "width=100 is not valid; it takes the sidebar's width in pixels, from 280 to 760"),
        (cui.sidebar, {"agent": "defualt"}, 'agent="defualt" is not valid; the agents are default'),
        (cui.popup, {"shortcut": "mdo+/"}, 'cui.popup: shortcut="mdo+/" is not valid; it takes keys as "mod+/"'),
        (cui.popup, {"shortcut": "mdo+/"}, 'Did you mean "mod+/"'),
        (cui.chat, {"icons": {"sned": "rocket"}}, 'cui.chat: icons= names "sned", which is no icon of the copilot'),
        (cui.chat, {"icons": {"sned": "rocket"}}, 'Did you mean "send"?'),
        (cui.chat, {"labels": {"title": "Hi"}}, "labels={'title': 'Hi'} is not valid; it takes a cui.Labels(...)"),
        (
            cui.chat,
            {"empty_state": "Nothing yet"},
            'empty_state="Nothing yet" is not valid; it takes a function of the cui.Labels',
        ),
        (cui.task_panel, {"titel": "Tasks"}, "cui.task_panel: there is no option titel=; the options are title, labels. Did you"),
    ],
)
def test_each_option_of_a_layout_is_checked(layout, options, said):
    assert said in error_of(lambda: layout(**options))


def test_the_apps_own_look_is_checked_when_a_layout_is_built(monkeypatch):
    monkeypatch.setattr(cui.copilot, "shortcut", "ctrl+shift+")
    assert 'cui.copilot: shortcut="ctrl+shift+" is not valid' in error_of(cui.sidebar)


# MCP servers


def test_a_misspelt_mcp_approval_is_an_error_that_suggests_the_word():
    message = error_of(lambda: cui.mcp_server("notes", command="python", approval="alwys"))
    assert message.startswith('MCP server "notes": approval="alwys" is not valid; it takes "always", "never", a list')
    assert message.endswith('Did you mean approval="always"?')


def test_a_misspelt_mcp_option_is_an_error_that_names_the_close_one():
    assert "Did you mean approval=?" in error_of(lambda: cui.mcp_server("notes", command="python", aproval="always"))
    assert "prefix='my notes' is not valid" in error_of(lambda: cui.mcp_server("notes", command="python", prefix="my notes"))


# The other declarations' keywords


@pytest.mark.parametrize(
    ("declare", "said"),
    [
        (lambda: Copilot().context(BookingState, descripton="Nights"), "cui.context: there is no option descripton=; "),
        (lambda: Copilot().render_tool("refund_order", dispaly=None), "Did you mean display=?"),
        (lambda: Copilot().agent_state(BookingState, agnet="default"), "Did you mean agent=?"),
        (lambda: cui.builtin_agent(modle="test"), "cui.builtin_agent: there is no option modle=; the options are model,"),
        (lambda: cui.builtin_agent(modle="test"), "Did you mean model=?"),
        (lambda: cui.HttpAgent("http://127.0.0.1:9/agui", agent_idd="a"), "Did you mean agent_id=?"),
        (lambda: cui.LoopLimits(max_followups=3), "cui.LoopLimits: there is no option max_followups=; the options are"),
        (lambda: cui.AttachmentRules(max_file_byte=10), "Did you mean max_file_bytes="),
        (lambda: cui.agent_endpoint(orgins=["https://example.com"]), "Did you mean origins=?"),
        (lambda: cui.attachment_endpoint(pth="/files"), "Did you mean path=?"),
        (lambda: cui.content_security_policy(image_host=["cdn.example.com"]), "Did you mean image_hosts="),
        (lambda: cui.compatible_model("llama3", "http://127.0.0.1:9/v1", apikey="k"), "Did you mean api_key=?"),
        (lambda: cui.send_message("Hello", agnt="default"), "Did you mean agent=?"),
    ],
)
def test_a_misspelt_keyword_of_any_declaration_is_an_error_that_names_the_close_one(declare, said):
    assert said in error_of(declare)


def test_the_checked_declarations_take_their_keywords_as_before():
    limits = cui.LoopLimits(max_follow_ups=3)
    assert (limits.max_follow_ups, limits.max_same_call) == (3, 3)
    assert cui.HttpAgent("http://127.0.0.1:9/agui", agent_id="remote").agent_id == "remote"
    assert cui.AttachmentRules(max_files=2).max_files == 2


async def test_a_misspelt_keyword_of_run_task_is_an_error_when_it_is_awaited():
    with pytest.raises(DeclarationError, match=r"cui\.run_task: there is no option shwo=.*Did you mean show=\?"):
        await cui.run_task(None, "Summarize the orders", shwo="panel")


# Limits and rules: values that would fail a turn later, or bound nothing


@pytest.mark.parametrize(
    ("declare", "said"),
    [
        (lambda: cui.LoopLimits(max_follow_ups="3"), 'max_follow_ups="3" is not valid; it takes the agent runs after'),
        (lambda: cui.LoopLimits(max_follow_ups="3"), "Did you mean max_follow_ups=3?"),
        (lambda: cui.LoopLimits(max_follow_ups=-1), "max_follow_ups=-1 is not valid"),
        (lambda: cui.LoopLimits(max_same_call=1), "max_same_call=1 is not valid; it takes how often the same call"),
        (lambda: cui.LoopLimits(max_parallel=0), "max_parallel=0 is not valid; it takes the tools that may run at once"),
        (lambda: cui.AttachmentRules(types="image/png"), 'Did you mean types=("image/png",)?'),
        (lambda: cui.AttachmentRules(types=("Image/PNG",)), 'types="Image/PNG" is not valid; it takes media types in lower'),
        (lambda: cui.AttachmentRules(max_file_bytes=0), "max_file_bytes=0 is not valid; it takes a whole number of 1 or"),
        (lambda: cui.AttachmentRules(max_files=2.5), "max_files=2.5 is not valid"),
        (lambda: setattr(Copilot(), "limits", 5), "cui.copilot.limits: 5 is not valid; it takes a cui.LoopLimits(...)."),
        (lambda: setattr(Copilot(), "attachments", {"max_files": 2}), "it takes a cui.AttachmentRules(...), or None."),
    ],
)
def test_a_limit_or_a_rule_that_would_fail_a_turn_is_an_error_when_it_is_made(declare, said):
    assert said in error_of(declare)


def test_limits_and_rules_in_range_are_taken():
    declared = Copilot()
    declared.limits = cui.LoopLimits(max_follow_ups=0, max_parallel=1)
    declared.attachments = cui.AttachmentRules(types=["image/*", "application/pdf"], max_files=1)
    assert declared.limits.max_follow_ups == 0
    assert declared.attachments.types == ("image/*", "application/pdf") and declared.attachments.accepts("image/png")
    declared.attachments = None  # no files
    assert declared.attachments is None


# Model names


@pytest.mark.parametrize(
    ("model", "meant"),
    [
        ("opnai:gpt-4o", 'Did you mean "openai:gpt-4o"'),
        ("antropic:claude-sonnet-4-5", 'Did you mean "anthropic:claude-sonnet-4-5"'),
        ("gpt-4o", 'Did you mean "openai:gpt-4o"?'),
        ("claude-sonnet-4-5", 'Did you mean "anthropic:claude-sonnet-4-5"?'),
        ("olama:llama3:8b", 'Did you mean "ollama:llama3:8b"?'),  # (an Ollama name has a colon of its own)
    ],
)
def test_a_model_name_without_a_known_provider_is_an_error_naming_the_provider_meant(model, meant):
    message = error_of(lambda: cui.builtin_agent(model))
    assert message.startswith(f'cui.builtin_agent: "{model}" names no provider pydantic-ai knows; it takes "provider:model"')
    assert meant in message


def test_a_misspelt_provider_in_copilot_model_is_an_error_naming_the_setting(monkeypatch):
    from copilot_ui.server import agent_from_environment

    monkeypatch.setenv("COPILOT_MODEL", "opnai:gpt-4o-mini")
    monkeypatch.delenv("COPILOT_AGENT_URL", raising=False)
    monkeypatch.delenv("COPILOT_BASE_URL", raising=False)
    message = error_of(agent_from_environment)
    assert message.startswith('COPILOT_MODEL: "opnai:gpt-4o-mini" names no provider pydantic-ai knows')
    assert 'Did you mean "openai:gpt-4o-mini"' in message
