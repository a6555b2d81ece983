"""What the demo model writes from the dashboard's figures: the weekly report, a shorter one, the city that sells
most."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any


def weekly_report(page: dict[str, Any]) -> str:
    """The weekly report, from the figures the page's context shows."""
    kpis, changes = page.get("kpis") or {}, page.get("kpi_changes") or {}
    figures = []
    if revenue := kpis.get("Revenue"):
        orders = kpis.get("Orders")
        from_orders = f", from {orders} orders{in_parentheses(changes.get('Orders'))}" if orders else ""
        figures.append(f"Revenue this month is {revenue}{in_parentheses(changes.get('Revenue'))}{from_orders}.")
    if refunds := kpis.get("Refunds"):
        figures.append(f"Refunds stand at {refunds}{in_parentheses(changes.get('Refunds'))}.")
    paragraphs = ["Weekly report", " ".join(figures)]
    paragraphs.append(best_city_sentence(page.get("sales_by_city") or {}) or "")
    paragraphs.append(_orders_by_status(page.get("orders") or page.get("recent_orders") or []))
    if any(paragraphs[1:]):
        paragraphs.append("Next week: follow up on the open orders and keep refunds falling.")
    else:
        paragraphs.append("The dashboard sent no figures with this request, so this draft has none yet.")
    return "\n\n".join(paragraph for paragraph in paragraphs if paragraph)


def shortened(report: str) -> str:
    """A shorter report: the first sentence of its first three paragraphs, or its first half when that is no shorter."""
    paragraphs = [paragraph.strip() for paragraph in re.split(r"\n\s*\n", report) if paragraph.strip()]
    short = "\n\n".join(_first_sentence(paragraph) for paragraph in paragraphs[:3])
    words = report.split()
    if len(short.split()) < len(words) or len(words) < 2:
        return short
    return " ".join(words[: len(words) // 2]) + "…"


def _orders_by_status(orders: list[dict[str, Any]]) -> str:
    counts: dict[str, int] = {}
    for order in orders:
        if isinstance(order, dict) and order.get("status"):
            counts[str(order["status"])] = counts.get(str(order["status"]), 0) + 1
    if not counts:
        return ""
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    (first, count), *rest = ranked
    parts = [f"{count} {'is' if count == 1 else 'are'} {first.lower()}", *(f"{n} {status.lower()}" for status, n in rest)]
    return f"Of the {len(orders)} orders on the dashboard, {and_list(parts)}."


def best_city_sentence(sales: dict[str, Any]) -> str | None:
    """The city that sells most, and the others after it (None: the page shows no city)."""
    ranked = ranked_cities(sales)
    if not ranked:
        return None
    (best, value), *others = ranked
    if not others:
        return f"{best} is the only city on the dashboard: {value}."
    return f"{best} sells most: {value}, ahead of {and_list(f'{city} ({amount})' for city, amount in others)}."


def ranked_cities(sales: dict[str, Any]) -> list[tuple[str, Any]]:
    """The cities and their sales, the best first."""
    return sorted(sales.items(), key=lambda item: -amount_in(str(item[1])))


def _first_sentence(paragraph: str) -> str:
    match = re.match(r".+?[.!?…](?=\s|$)", paragraph, re.DOTALL)
    return match[0] if match else paragraph


def in_parentheses(text: str | None) -> str:
    return f" ({text})" if text else ""


def and_list(items: Iterable[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def amount_in(text: str) -> float:
    """The first number in a text ("€12,400" -> 12400.0; 0.0 when there is none)."""
    match = re.search(r"\d[\d,]*(?:\.\d+)?", text)
    return float(match[0].replace(",", "")) if match else 0.0
