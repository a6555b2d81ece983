"""The demo dashboard's script for the demo model: the phrases of README.md's table, the tool call each one makes,
and its reply once the tools have answered (the refunded order, the report written, the city that sells most).

It plugs into copilot_ui's demo model as a DemoScript (`agent_from_environment(..., demo_script=DASHBOARD)` in the
app module); the demo model itself, which any app gets, calls a tool whose name starts the message and otherwise
describes the app it is in. A phrase calls its tool only when the page offers it; otherwise the model says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from copilot_ui.server import Call, CallResult, DemoScript, ModelTurn, Move, said_about

from .writing import amount_in, and_list, best_city_sentence, in_parentheses, ranked_cities, shortened, weekly_report

PHRASES = (
    "show orders from Berlin",
    "what is our revenue this month?",
    "show order 1042",
    "refund order 1042",
    "cancel order 1041",
    "which orders are still processing?",
    "plan a product launch",
    "draft a weekly report",
    "shorten the report",
    "compare Berlin and Paris",
    "look up the EUR exchange rate",
    "copy the revenue to my clipboard",
    "think it through: which city sells most?",
    "switch to dark mode",
    "ask me something",
)
"""What a person can ask the demo model, one phrase for each thing it shows."""

DASHBOARD_TOOLS = frozenset(
    {"set_theme", "filter_orders", "show_order", "refund_order", "cancel_order", "orders_with_status", "confirm_plan"}
    | {"city_sales", "lookup_rate", "copy_to_clipboard", "ask_user", "write_report"}
)
"""The tools the phrases call: the demo dashboard's. The page's other tools are called by name."""

LAUNCH_STEPS = ("Pick a date", "Write the announcement", "Prepare the demo", "Brief the sales team", "Publish the launch post")
PLAN_STEPS = ("Agree on the goal", "Pick a date", "List what is needed", "Share the plan with the team", "Look back on it")
REFUND_REASON = "asked for in the chat"
CANCEL_REASON = "asked for in the chat"
ORDER_STATUSES = ("Processing", "Shipped", "Delivered", "Refunded", "Cancelled")
QUESTION = "Which region should the dashboard focus on?"


def dashboard_reply(turn: ModelTurn) -> Move | None:
    """The move for the dashboard's requests and its tools' results; None for the rest (the demo model's own)."""
    if turn.results:
        if not any(result.tool in _REPLIES for result in turn.results):
            return None
        return Move(text=reply_to_results(turn))
    return next((move for request in _REQUESTS if (move := request(turn)) is not None), None)


def reply_to_results(turn: ModelTurn) -> str:
    """One sentence or two for each result, in call order, and a comparison when several cities were looked up."""
    sentences = [_said_about(result, turn) for result in turn.results]
    sales = [result for result in turn.results if result.tool == "city_sales" and not result.is_error]
    if len(sales) >= 2:
        sentences.append(_which_sells_more(sales))
    return " ".join(sentences)


DASHBOARD = DemoScript(reply=dashboard_reply, phrases=PHRASES, tools=DASHBOARD_TOOLS)
"""The demo dashboard's script, as the demo model takes it."""


# The requests, in the order they are tried: each returns its move, or None when the words are not its.


def _theme(turn: ModelTurn) -> Move | None:
    if match := _THEME.search(turn.prompt):
        return _call(turn, "set_theme", mode=(match[1] or match[4]).lower())
    return None


def _refund(turn: ModelTurn) -> Move | None:
    if match := re.search(r"\brefund\b.*?#?(\d{3,})", turn.prompt, re.IGNORECASE):
        return _call(turn, "refund_order", order_id=f"#{match[1]}", reason=REFUND_REASON)
    return None


def _cancel(turn: ModelTurn) -> Move | None:
    if match := re.search(r"\bcancel\b.*?#?(\d{3,})", turn.prompt, re.IGNORECASE):
        return _call(turn, "cancel_order", order_id=f"#{match[1]}", reason=CANCEL_REASON)
    return None


def _orders_in_status(turn: ModelTurn) -> Move | None:
    """ "which orders are still processing?", "show the shipped orders": the orders with one status."""
    if not re.search(r"\borders?\b", turn.prompt, re.IGNORECASE):
        return None
    named = [status for status in ORDER_STATUSES if _word(status).search(turn.prompt)]
    return _call(turn, "orders_with_status", status=named[0]) if named else None


def _show_order(turn: ModelTurn) -> Move | None:
    if match := re.search(r"\border\s*(?:#|no\.?\s*|number\s*)?(\d{3,})\b|#(\d{3,})\b", turn.prompt, re.IGNORECASE):
        return _call(turn, "show_order", order_id=f"#{match[1] or match[2]}")
    return None


def _compare_cities(turn: ModelTurn) -> Move | None:
    if not re.search(r"\b(compare|versus|vs)\b", turn.prompt, re.IGNORECASE):
        return None
    cities = _cities_named(turn) if _known_cities(turn.page) else _compared_words(turn.prompt)
    if len(cities) < 2:
        return None
    if "city_sales" not in turn.offered:
        return _not_offered("city_sales")
    return Move(calls=tuple(Call("city_sales", {"city": city}) for city in cities))


def _clipboard(turn: ModelTurn) -> Move | None:
    if not re.search(r"\b(clipboard|copy)\b", turn.prompt, re.IGNORECASE):
        return None
    quoted = re.search(r"[\"“'‘](.+?)[\"”'’]", turn.prompt)
    text = quoted[1] if quoted else _figure_named(turn) or _figures(turn.page)
    if not text:
        return Move(text="What should I copy? Name a figure on the dashboard, such as the revenue, or put the text in quotes.")
    return _call(turn, "copy_to_clipboard", text=text)


def _filter_orders(turn: ModelTurn) -> Move | None:
    if not re.search(r"\b(orders?|filter)\b", turn.prompt, re.IGNORECASE):
        return None
    if re.search(r"\b(all|every)\b.*\borders?\b|\b(clear|reset|remove)\b.*\bfilter\b", turn.prompt, re.IGNORECASE):
        return _call(turn, "filter_orders", city="")
    cities = _cities_named(turn) if _known_cities(turn.page) else _cities_after_from(turn.prompt)
    return _call(turn, "filter_orders", city=cities[0]) if cities else None


def _exchange_rate(turn: ModelTurn) -> Move | None:
    if not re.search(r"\b(exchange|rates?|convert)\b", turn.prompt, re.IGNORECASE):
        return None
    codes = [_CURRENCY_NAMES.get(word.lower(), word.upper()) for word in re.findall(r"[A-Za-z]+", turn.prompt)]
    currency = next((code for code in codes if code in _CURRENCIES), "EUR")
    return _call(turn, "lookup_rate", currency=currency)


def _plan(turn: ModelTurn) -> Move | None:
    if not re.search(r"\bplan\b", turn.prompt, re.IGNORECASE):
        return None
    steps = LAUNCH_STEPS if re.search(r"\blaunch", turn.prompt, re.IGNORECASE) else PLAN_STEPS
    return _call(turn, "confirm_plan", steps=list(steps))


def _shorten_report(turn: ModelTurn) -> Move | None:
    if not _SHORTEN.search(turn.prompt):
        return None
    report = str(turn.state.get("report") or "").strip()
    if not report:
        return Move(text="There is no report to shorten yet. Ask me to draft a weekly report first.")
    return _call(turn, "write_report", text=shortened(report))


def _draft_report(turn: ModelTurn) -> Move | None:
    if re.search(r"\b(draft|write|prepare|create|make)\b.*\breport\b", turn.prompt, re.IGNORECASE):
        return _call(turn, "write_report", text=weekly_report(turn.page))
    return None


def _ask_me(turn: ModelTurn) -> Move | None:
    return _call(turn, "ask_user", question=QUESTION) if re.search(r"\bask me\b", turn.prompt, re.IGNORECASE) else None


def _best_city(turn: ModelTurn) -> Move | None:
    if not re.search(r"\bcit(y|ies)\b.*\b(sells?|sales|most|best|top)\b|\b(best|top)\b.*\bcity\b", turn.prompt, re.IGNORECASE):
        return None
    sales = turn.page.get("sales_by_city") or {}
    answer = best_city_sentence(sales)
    if answer is None:
        return Move(text="I can't tell: the page sent no sales by city with this request.")
    listed = ", ".join(f"{city} {value}" for city, value in sales.items())
    order = ", then ".join(city for city, _ in ranked_cities(sales))
    thought = (
        "The person wants to know which city sells most. The dashboard's context lists the sales by city: "
        f"{listed}. Ordered by amount, that is {order}. So the answer comes straight from the page, "
        "and no tool is needed."
    )
    return Move(text=answer, thought=thought)


def _figure_question(turn: ModelTurn) -> Move | None:
    kpis = turn.page.get("kpis") or {}
    name = next((name for name in kpis if _word(name).search(turn.prompt)), None)
    if name is None:
        if re.search(r"\b(revenue|refunds)\b", turn.prompt, re.IGNORECASE):
            return Move(text="I can't tell: the page sent no figures with this request.")
        return None
    value, change = kpis[name], (turn.page.get("kpi_changes") or {}).get(name)
    verb = "are" if name.lower().endswith("s") else "is"
    thought = (
        f"The person asks about {name.lower()}. The dashboard's KPIs show {name} at {value}"
        f"{f', {change}' if change else ''}. That answers it; no tool is needed."
    )
    return Move(text=f"{name} this month {verb} {value}{in_parentheses(change)}.", thought=thought)


_REQUESTS: tuple[Callable[[ModelTurn], Move | None], ...] = (
    _theme,
    _refund,
    _cancel,
    _show_order,
    _orders_in_status,
    _compare_cities,
    _clipboard,
    _filter_orders,
    _exchange_rate,
    _plan,
    _shorten_report,
    _draft_report,
    _ask_me,
    _best_city,
    _figure_question,
)


# Replies to results


def _said_about(result: CallResult, turn: ModelTurn) -> str:
    if result.is_error or result.tool not in _REPLIES:
        return said_about(result)
    return _REPLIES[result.tool](result, turn)


def _done(result: CallResult, turn: ModelTurn) -> str:
    return said_about(result)


def _theme_shown(result: CallResult, turn: ModelTurn) -> str:
    theme = turn.page.get("theme")
    return _done(result, turn) + (f" The dashboard now shows the {theme} theme." if theme else "")


def _refunded(result: CallResult, turn: ModelTurn) -> str:
    order_id = str(result.arguments.get("order_id") or "")
    order = _order_on_page(turn.page, order_id)
    listed = f" The dashboard lists order {order['id']} as {order['status']}." if order and order.get("status") else ""
    return f"Done: {result.text}{listed}"


def _filtered(result: CallResult, turn: ModelTurn) -> str:
    if result.text.startswith("Showing "):
        return f"Done: the Orders table shows {_sentence(result.text.removeprefix('Showing '))}"
    return _done(result, turn)


def _cancelled(result: CallResult, turn: ModelTurn) -> str:
    return _refunded(result, turn)


def _orders_listed(result: CallResult, turn: ModelTurn) -> str:
    orders, status = result.value, str(result.arguments.get("status") or "").lower()
    if not isinstance(orders, list):
        return _done(result, turn)
    if not orders:
        return f"No order is {status} now; the Orders table shows none."
    listed = and_list(f"{o.get('id')} ({o.get('customer')}, {o.get('city')})" for o in orders if isinstance(o, dict))
    still = "still " if status == "processing" else ""
    if len(orders) == 1:
        return f"1 order is {still}{status}: {listed}. The Orders table shows it."
    return f"{len(orders)} orders are {still}{status}: {listed}. The Orders table shows them."


def _order_shown(result: CallResult, turn: ModelTurn) -> str:
    order = result.value
    if not isinstance(order, dict):
        return f"Here is order {result.arguments.get('order_id', '')}: {_sentence(result.text)}"
    details = ", ".join(str(order[key]) for key in ("customer", "city", "total", "status") if order.get(key))
    return f"Here is order {order.get('id') or result.arguments.get('order_id', '')}: {details}."


def _plan_chosen(result: CallResult, turn: ModelTurn) -> str:
    steps = result.value
    if not isinstance(steps, list):
        return _done(result, turn)
    if not steps:
        return "No steps were chosen, so there is no plan yet."
    return f"Great: the plan has {len(steps)} step{'s' if len(steps) != 1 else ''}: {and_list(map(str, steps))}."


def _rate_found(result: CallResult, turn: ModelTurn) -> str:
    return f"The exchange rate: {_sentence(result.text)}"


def _city_sales(result: CallResult, turn: ModelTurn) -> str:
    return _sentence(result.text)


def _copied(result: CallResult, turn: ModelTurn) -> str:
    return f"I copied {result.arguments.get('text', 'it')} to your clipboard."


def _report_written(result: CallResult, turn: ModelTurn) -> str:
    if not _SHORTEN.search(turn.prompt):
        return "The weekly report draft is in the Report draft panel."
    after = len(str(result.arguments.get("text") or "").split())
    before = str(turn.state.get("report") or "").split()
    if not before:
        return f"Shortened the report to {after} words."
    opening = " ".join(before[:8]) + ("…" if len(before) > 8 else "")
    return f"Shortened the report from {len(before)} to {after} words. It began: “{opening}”"


_REPLIES: dict[str, Callable[[CallResult, ModelTurn], str]] = {
    "set_theme": _theme_shown,
    "refund_order": _refunded,
    "cancel_order": _cancelled,
    "orders_with_status": _orders_listed,
    "filter_orders": _filtered,
    "show_order": _order_shown,
    "confirm_plan": _plan_chosen,
    "city_sales": _city_sales,
    "lookup_rate": _rate_found,
    "copy_to_clipboard": _copied,
    "write_report": _report_written,
}


def _which_sells_more(sales: list[CallResult]) -> str:
    amounts = {str(result.arguments.get("city", "")): amount_in(result.text) for result in sales}
    best = max(amounts.values())
    leaders = [city for city, amount in amounts.items() if amount == best]
    if len(leaders) > 1:
        return f"{and_list(leaders)} sell the same."
    return f"{leaders[0]} sells {'more' if len(amounts) == 2 else 'most'}."


# Reading the page and the person's words


def _cities_named(turn: ModelTurn) -> list[str]:
    """The page's cities the person named, in the order they named them."""
    found = [(match.start(), city) for city in _known_cities(turn.page) if (match := _word(city).search(turn.prompt))]
    return [city for _, city in sorted(found)]


def _known_cities(page: dict[str, Any]) -> list[str]:
    cities = [str(city) for city in page.get("sales_by_city") or {}]
    cities += [str(order["city"]) for order in page.get("orders") or [] if isinstance(order, dict) and order.get("city")]
    return list(dict.fromkeys(cities))


def _cities_after_from(prompt: str) -> list[str]:  # when the page names no cities
    match = re.search(r"\b(?:from|in)\s+([A-Za-z][\w-]+)", prompt)
    return [match[1].capitalize()] if match else []


def _compared_words(prompt: str) -> list[str]:  # when the page names no cities
    match = re.search(r"\bcompare\s+([A-Za-z][\w-]+)\s+(?:and|with|to|vs\.?|versus)\s+([A-Za-z][\w-]+)", prompt, re.IGNORECASE)
    return [match[1].capitalize(), match[2].capitalize()] if match else []


def _figure_named(turn: ModelTurn) -> str | None:
    kpis = turn.page.get("kpis") or {}
    return next((str(value) for name, value in kpis.items() if _word(name).search(turn.prompt)), None)


def _figures(page: dict[str, Any]) -> str:
    return ", ".join(f"{name} {value}" for name, value in (page.get("kpis") or {}).items())


def _order_on_page(page: dict[str, Any], order_id: str) -> dict[str, Any] | None:
    orders = page.get("orders") or page.get("recent_orders") or []
    return next((order for order in orders if isinstance(order, dict) and order.get("id") == order_id), None)


# Small helpers


def _call(turn: ModelTurn, tool: str, **arguments: Any) -> Move:
    if tool not in turn.offered:
        return _not_offered(tool)
    return Move(calls=(Call(tool, arguments),))


def _not_offered(tool: str) -> Move:
    return Move(text=f"I would use the {tool} tool for that, but it is not available here, so nothing changed.")


def _sentence(text: str) -> str:
    return text.strip().rstrip(".") + "."


def _word(text: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(text)}\b", re.IGNORECASE)


_THEME = re.compile(r"\b(dark|light)\s+(mode|theme)\b|\b(switch|change|set|make|turn|use|go)\b.*\b(dark|light)\b", re.IGNORECASE)
_SHORTEN = re.compile(r"\b(shorten|shorter|condense|trim|summari[sz]e)\b.*\breport\b|\breport\b.*\bshorter\b", re.IGNORECASE)
_CURRENCIES = frozenset({"EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "CNY", "SEK", "NOK", "DKK", "PLN", "INR", "MXN", "BRL"})
_CURRENCY_NAMES = {"euro": "EUR", "euros": "EUR", "pound": "GBP", "pounds": "GBP", "sterling": "GBP", "yen": "JPY"}
