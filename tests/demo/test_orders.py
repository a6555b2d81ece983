"""The demo's orders in a real SQLite file: people whose first pages open at the same moment each see their orders."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from copilot_ui.demo import orders as orders_db

PEOPLE = 8


@pytest.fixture
def fresh_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A database file the demo has not opened yet, as after a server's start."""
    path = tmp_path / "demo.db"
    monkeypatch.setenv(orders_db.URL_VARIABLE, f"sqlite:///{path}")
    monkeypatch.setattr(orders_db, "_engine", None)
    return path


def test_people_whose_first_pages_open_at_once_each_see_the_seven_orders(fresh_database: Path):
    # Before: the second page's query made the table again, failed on "table demo_orders already exists",
    # and that person's dashboard stayed empty ("there are no orders from Berlin; the cities are ").
    workspaces = [orders_db.new_workspace() for _ in range(PEOPLE)]
    together = threading.Barrier(PEOPLE)

    def first_page(workspace: str) -> list[orders_db.Order]:
        together.wait()
        return orders_db.orders_of(workspace)

    with ThreadPoolExecutor(PEOPLE) as pool:
        seen = list(pool.map(first_page, workspaces))

    assert [[order.id for order in orders] for orders in seen] == [[order.id for order in orders_db.FIRST_ORDERS]] * PEOPLE
    assert fresh_database.exists()


def test_a_refund_is_kept_in_the_file_for_the_next_page(fresh_database: Path):
    workspace = orders_db.new_workspace()
    orders_db.orders_of(workspace)
    orders_db.set_status(workspace, "#1042", "Refunded")
    orders_db._engine = None  # the server restarted: the file is opened anew

    (order,) = [order for order in orders_db.orders_of(workspace) if order.id == "#1042"]
    assert order.status == "Refunded"
    assert orders_db.refunds(orders_db.orders_of(workspace)) == orders_db.REFUNDS_BEFORE + 2  # #1039 was refunded already


def test_a_new_browser_sees_the_seven_orders_and_its_first_two_changes_at_once_are_both_kept(fresh_database: Path):
    workspace = orders_db.new_workspace()
    assert [order.id for order in orders_db.orders_of(workspace)] == [order.id for order in orders_db.FIRST_ORDERS]
    together = threading.Barrier(2)

    def change(order_id: str, status: str) -> None:
        together.wait()  # two tabs of the same browser act at the same moment, before the workspace has rows
        orders_db.set_status(workspace, order_id, status)

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(change, ("#1042", "#1041"), ("Refunded", "Cancelled")))

    statuses = {order.id: order.status for order in orders_db.orders_of(workspace)}
    assert statuses == {order.id: order.status for order in orders_db.FIRST_ORDERS} | {"#1042": "Refunded", "#1041": "Cancelled"}
