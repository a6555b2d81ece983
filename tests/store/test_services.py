"""The real services the tests start: a throwaway PostgreSQL database per test, a redis-server without persistence."""

from __future__ import annotations

import redis
from sqlalchemy import create_engine, inspect, text


def test_each_test_gets_an_empty_postgresql_database(postgres_url):
    assert postgres_url.startswith("postgresql+psycopg://")
    engine = create_engine(postgres_url)
    with engine.connect() as db:
        assert db.execute(text("SELECT 1")).scalar() == 1
        assert inspect(db).get_table_names() == []
    engine.dispose()


def test_redis_answers_and_keeps_nothing_on_disk(redis_url):
    client = redis.Redis.from_url(redis_url)
    client.set("copilot:test", "value")
    assert client.get("copilot:test") == b"value"
    assert client.config_get("save") == {"save": ""}
    assert client.config_get("appendonly") == {"appendonly": "no"}
    client.delete("copilot:test")
    client.close()
