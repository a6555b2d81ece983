"""Secrets kept out of what a person or a log sees: the credentials an app gives its agents, and its environment's.

A Scrubber replaces each secret with a marker, and with it every form a server may echo it back
in: percent-encoded, JSON-escaped, and base64 in either alphabet, padded or not, at any of the
three byte alignments inside a longer base64 text (an encoded "Authorization: Bearer …" header, a
JSON object holding the token). Secrets shorter than MIN_SECRET_CHARS characters are ignored: they
would match ordinary words and ids, and scrubbing them would hide little.

A StreamScrubber does the same to text that arrives in pieces (a streamed reply): it passes each
piece on at once, holding back only a tail that could be the start of a secret, so that a secret
split across two pieces is caught as if the text had come whole.
"""

from __future__ import annotations

import base64
import functools
import json
import os
import re
from collections.abc import Iterable, Mapping
from typing import TypeAlias
from urllib.parse import quote, quote_plus

MARKER = "[redacted]"
MIN_SECRET_CHARS = 8
# Environment variables whose values are secrets, by the end of their name (compared in upper case).
SECRET_VARIABLE_SUFFIXES = ("_API_KEY", "_TOKEN", "_SECRET", "_PASSWORD", "_SECRET_KEY", "_ACCESS_KEY")

_URLSAFE = str.maketrans("+/", "-_")
_END = ""  # in a trie node: a form ends here (no character is empty)
_Trie: TypeAlias = "dict[str, _Trie]"


class Scrubber:
    """Replaces secrets, and their encoded forms, with a marker. Cheap to call often: one compiled pattern."""

    def __init__(self, secrets: Iterable[str | None] = (), *, marker: str = MARKER) -> None:
        self.marker = marker
        self._secrets: tuple[str, ...] = tuple(
            dict.fromkeys(secret for secret in secrets if isinstance(secret, str) and len(secret) >= MIN_SECRET_CHARS)
        )
        forms = {form for secret in self._secrets for form in _forms_of(secret)}
        self._longest = max(map(len, forms), default=0)
        self._prefixes = _trie(forms)
        # Where a form could begin: its first two characters, or its first one at the text's end (a regular
        # expression finds them in C; the trie is walked only from there).
        firsts = "".join(sorted({re.escape(form[0]) for form in forms}))
        pairs = "|".join(sorted({re.escape(form[:2]) for form in forms if len(form) > 1}))
        self._starts = re.compile(f"(?=(?:{pairs})|[{firsts}]\\Z)") if forms else None
        # One pattern shaped as the trie of the forms (a few times faster than their alternation); its greedy
        # branches take the longest form that matches at a place, so a secret holding another is replaced whole.
        self.pattern = re.compile(_trie_pattern(self._prefixes)) if forms else None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ, *, marker: str = MARKER) -> Scrubber:
        """The values of the variables named like secrets: `*_API_KEY`, `*_TOKEN`, `*_SECRET`, `*_PASSWORD`
        (and `*_SECRET_KEY`, `*_ACCESS_KEY`), in any case."""
        return cls(environment_secrets(environ), marker=marker)

    def with_secrets(self, secrets: Iterable[str]) -> Scrubber:
        """A scrubber for these secrets as well as this one's."""
        return Scrubber((*self._secrets, *secrets), marker=self.marker)

    def __repr__(self) -> str:  # never the secrets themselves
        return f"Scrubber({len(self._secrets)} secrets)"

    def scrub(self, text: str) -> str:
        """The text with every secret, in every form this scrubber knows, replaced by the marker."""
        if self.pattern is None:
            return text
        return self.pattern.sub(self._replace, text)

    def stream(self) -> StreamScrubber:
        """A scrubber for one text that arrives in pieces."""
        return StreamScrubber(self)

    def _replace(self, _match: re.Match[str]) -> str:
        return self.marker

    def partial_start(self, text: str) -> int:
        """Where the longest tail of the text that could be a form cut short begins (len(text) if none could)."""
        end = len(text)
        if self._starts is None:
            return end
        for candidate in self._starts.finditer(text, max(0, end - self._longest + 1)):
            start = candidate.start()
            node = self._prefixes
            for index in range(start, end):  # indexing, not slicing: this runs on every streamed piece
                node = node.get(text[index])
                if node is None:
                    break
            else:
                if len(node) > (_END in node):  # the tail is a form cut short, not a whole form nothing extends
                    return start
        return end


class StreamScrubber:
    """Scrubs one text fed in pieces: all the outputs joined equal `scrub` of the whole text."""

    def __init__(self, scrubber: Scrubber) -> None:
        self._scrubber = scrubber
        self._held = ""

    @property
    def held(self) -> int:
        """How many characters are held back (they could begin a secret)."""
        return len(self._held)

    def feed(self, piece: str) -> str:
        """What of the text so far is safe to show now (scrubbed); a tail that could begin a secret waits."""
        scrubber = self._scrubber
        pattern = scrubber.pattern
        if pattern is None:
            return piece
        text = self._held + piece
        hold = scrubber.partial_start(text)
        shown: list[str] = []
        done = 0
        for match in pattern.finditer(text):
            if match.start() >= hold:
                break
            shown += (text[done : match.start()], scrubber.marker)
            done = match.end()
        cut = max(hold, done)  # a secret that began before the held tail is replaced whole
        shown.append(text[done:cut])
        self._held = text[cut:]
        return "".join(shown)

    def end(self) -> str:
        """The text ended: the held tail, scrubbed."""
        rest, self._held = self._held, ""
        return self._scrubber.scrub(rest)


def _forms_of(secret: str) -> set[str]:
    """The secret as a server may send it back: as is, percent-encoded, JSON-escaped, and its base64 cores."""
    escaped = json.dumps(secret)[1:-1]
    forms = {
        secret,
        quote(secret),
        quote(secret, safe=""),
        quote_plus(secret),
        escaped,
        escaped.replace("/", "\\/"),
        json.dumps(secret, ensure_ascii=False)[1:-1],
    }
    data = secret.encode()
    for offset in range(3):
        # Inside a longer base64 text, the secret starts at one of 3 byte offsets of a 3-byte group;
        # the characters from the first 6-bit group wholly within its bits to the last are its core,
        # the same whatever comes before or after it (padding included).
        encoded = base64.b64encode(b"\0" * offset + data).decode()
        core = encoded[-(-8 * offset // 6) : 8 * (offset + len(data)) // 6]
        forms |= {core, core.translate(_URLSAFE)}
    return {form for form in forms if form}


def environment_secrets(environ: Mapping[str, str] = os.environ) -> tuple[str, ...]:
    """The values of the variables named like secrets (see `Scrubber.from_environment`)."""
    return tuple(value for name, value in environ.items() if _names_a_secret(name))


@functools.lru_cache(maxsize=8)
def scrubber_for(secrets: tuple[str, ...]) -> Scrubber:
    """The scrubber of these secrets, made once: building its pattern is costly, and it never changes."""
    return Scrubber(secrets)


def _trie(forms: Iterable[str]) -> _Trie:
    """The forms as a trie: a dict per node, from a character to the next node; _END marks a form's last."""
    root: _Trie = {}
    for form in forms:
        node = root
        for char in form:
            node = node.setdefault(char, {})
        node[_END] = {}
    return root


def _trie_pattern(node: _Trie) -> str:
    """A regular expression that matches the forms of a trie, the longest one where several match."""
    branches: list[str] = []
    for char, child in node.items():
        if char == _END:
            continue
        chain = [char]
        while len(child) == 1 and _END not in child:  # a run without branches: no group, no recursion
            ((char, child),) = child.items()
            chain.append(char)
        branches.append(re.escape("".join(chain)) + _trie_pattern(child))
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if _END in node else body


def _names_a_secret(name: str) -> bool:
    return f"_{name.upper()}".endswith(SECRET_VARIABLE_SUFFIXES)  # the bare names (TOKEN) as well
