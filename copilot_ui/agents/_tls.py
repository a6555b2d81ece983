"""The TLS settings of the clients that talk to agents, built once per process.

httpx builds a new SSL context for every client it creates, reading the whole CA bundle on the event
loop while every tab of the worker waits; the context is the same each time (httpx's default: the
file or folder named by SSL_CERT_FILE or SSL_CERT_DIR, else certifi's bundle), so it is made once.
"""

from __future__ import annotations

import ssl
import threading

import httpx

_lock = threading.Lock()
_context: ssl.SSLContext | None = None


def tls_context() -> ssl.SSLContext:
    """httpx's default SSL context, made at the first call and shared by every client made after it."""
    global _context
    if _context is None:
        with _lock:
            if _context is None:
                _context = httpx.create_ssl_context()
    return _context


def new_client(timeout: httpx.Timeout) -> httpx.AsyncClient:
    """An httpx client for one request to an agent, with the shared TLS settings."""
    return httpx.AsyncClient(timeout=timeout, verify=tls_context())
