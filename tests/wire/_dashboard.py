"""The demo dashboard as the app shows it to the agent: its context (one item) and the tools the page offers."""

from __future__ import annotations

import json
from typing import Any

from ag_ui.core import Context, Tool

ORDERS = [
    ("#1042", "Ada Lovelace", "Berlin", "$120.00", "Shipped"),
    ("#1041", "Alan Turing", "London", "$89.50", "Processing"),
    ("#1040", "Grace Hopper", "Paris", "$310.25", "Delivered"),
    ("#1039", "Edsger Dijkstra", "Berlin", "$45.00", "Refunded"),
    ("#1038", "Margaret Hamilton", "Paris", "$210.00", "Shipped"),
    ("#1037", "Linus Torvalds", "Berlin", "$75.00", "Delivered"),
    ("#1036", "Barbara Liskov", "London", "$150.00", "Shipped"),
]
PAGE: dict[str, Any] = {
    "theme": "light",
    "kpis": {"Revenue": "$48,210", "Orders": "1,284", "Refunds": "23"},
    "kpi_changes": {"Revenue": "+12% vs last month", "Orders": "+4%", "Refunds": "-8%"},
    "orders_filter": "",
    "orders": [dict(zip(("id", "customer", "city", "total", "status"), order, strict=True)) for order in ORDERS],
    "sales_by_city": {"Berlin": "$18,420", "Paris": "$15,310", "London": "$14,480"},
}


def _tool(name: str, description: str, **properties: Any) -> Tool:
    schema = {"type": "object", "properties": properties, "required": list(properties)}
    return Tool(name=name, description=description, parameters=schema)


STRING = {"type": "string"}
PAGE_TOOLS = [
    _tool("set_theme", "Switch the dashboard between light and dark", mode={"type": "string", "enum": ["light", "dark"]}),
    _tool("filter_orders", "Show only the orders from a city ('' shows all)", city=STRING),
    _tool("show_order", "Show one order as a card", order_id=STRING),
    _tool("refund_order", "Refund an order (the person approves first)", order_id=STRING, reason=STRING),
    _tool("cancel_order", "Cancel an order that has not shipped (the person approves first)", order_id=STRING, reason=STRING),
    _tool("orders_with_status", "Show only the orders with one status, and list them", status=STRING),
    _tool("confirm_plan", "Let the person choose the steps of a plan", steps={"type": "array", "items": STRING}),
    _tool("city_sales", "The sales of one city", city=STRING),
    _tool("lookup_rate", "Look up an exchange rate to USD", currency=STRING),
    _tool("copy_to_clipboard", "Copy a text to the person's clipboard", text=STRING),
    _tool("ask_user", "Ask the person a question", question=STRING),
]


def dashboard(**changes: Any) -> list[Context]:
    """The page's one context item, as the demo app sends it, with some values changed."""
    return [Context(description="What the user sees on the dashboard", value=json.dumps({**PAGE, **changes}))]
