"""The Scrubber: a secret, and every form a server may echo it back in, never survives it, whole or in pieces."""

from __future__ import annotations

import base64
import json
import random
import secrets

import pytest

from copilot_ui.agents import Scrubber
from copilot_ui.agents._secrets import _forms_of

from .._leaks import leaks

TOKEN = secrets.token_urlsafe(24)  # 32 characters
HEADER = f"Bearer {TOKEN}"
MARKER = "[redacted]"


def revealed(text: str, secret: str) -> bool:
    """Whether any 6 bytes of the secret can be read from the text, as is or decoded from base64."""
    return bool(leaks(text, secret, chars=6))


@pytest.mark.parametrize("before", range(3))
def test_the_check_reads_a_secret_from_its_base64_at_any_alignment(before: int):
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        assert revealed(f"x {encode(b'y' * before + TOKEN.encode()).decode()} x", TOKEN)
    assert revealed(f"x {TOKEN[3:12]} x", TOKEN)
    assert not revealed(f"x {TOKEN[3:8]} x", TOKEN)


def test_a_secret_in_a_text_is_replaced_by_the_marker():
    scrubber = Scrubber([TOKEN])

    assert scrubber.scrub(f"your key {TOKEN} is wrong; {TOKEN}!") == f"your key {MARKER} is wrong; {MARKER}!"


def test_a_text_without_secrets_comes_back_unchanged():
    assert Scrubber([TOKEN]).scrub("nothing to see here") == "nothing to see here"
    assert Scrubber().scrub("nothing to see here") == "nothing to see here"


def test_a_secret_holding_another_is_replaced_whole():
    scrubber = Scrubber([TOKEN, HEADER])

    assert scrubber.scrub(f"Authorization: {HEADER}.") == f"Authorization: {MARKER}."


def test_secrets_shorter_than_eight_characters_are_ignored():
    scrubber = Scrubber(["abc1234", "on", ""])

    assert scrubber.scrub("abc1234 on and on") == "abc1234 on and on"
    assert repr(scrubber) == "Scrubber(0 secrets)"


def test_percent_encoded_and_json_escaped_forms_are_replaced():
    secret = "s3cret/with+signs&more"
    scrubber = Scrubber([secret])

    for form in ("s3cret%2Fwith%2Bsigns%26more", "s3cret/with%2Bsigns%26more", "s3cret%2Fwith%2Bsigns%26more"):
        assert scrubber.scrub(f"?key={form}") == f"?key={MARKER}"
    assert scrubber.scrub(json.dumps({"key": secret})) == json.dumps({"key": MARKER})
    assert scrubber.scrub('{"key": "s3cret\\/with+signs&more"}') == json.dumps({"key": MARKER})


@pytest.mark.parametrize("encode", [base64.b64encode, base64.urlsafe_b64encode], ids=["standard", "urlsafe"])
@pytest.mark.parametrize("padded", [True, False], ids=["padded", "unpadded"])
@pytest.mark.parametrize("before", range(6))
@pytest.mark.parametrize("after", range(3))
def test_base64_of_a_secret_is_replaced_at_every_alignment(encode, padded, before: int, after: int):
    # A secret with bytes that base64 writes as + and /, so the two alphabets differ.
    secret = "\xfb\xff token-with-high-bits \xfe" + TOKEN
    encoded = encode(b"x" * before + secret.encode() + b"y" * after).decode()
    text = encoded if padded else encoded.rstrip("=")

    scrubbed = Scrubber([secret]).scrub(f"the header was {text}.")

    assert MARKER in scrubbed
    assert not revealed(scrubbed, secret)


@pytest.mark.parametrize(
    "blob",
    [
        f"Authorization: {HEADER}",
        json.dumps({"user": "ada", "token": TOKEN, "scopes": ["read", "write"]}),
        f"{{'auth': '{HEADER}'}}",
    ],
    ids=["header", "json", "python-repr"],
)
def test_a_secret_inside_a_longer_base64_text_is_replaced(blob: str):
    scrubber = Scrubber([TOKEN])

    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        scrubbed = scrubber.scrub(f"debug: {encode(blob.encode()).decode()}")

        assert not revealed(scrubbed, TOKEN)
        assert MARKER in scrubbed


def test_base64_forms_of_the_whole_header_are_replaced_too():
    scrubber = Scrubber([HEADER, TOKEN])

    scrubbed = scrubber.scrub(base64.b64encode(HEADER.encode()).decode())

    assert not revealed(scrubbed, HEADER)
    assert not revealed(scrubbed, TOKEN)


def text_with_secrets() -> str:
    blob = base64.b64encode(json.dumps({"token": TOKEN}).encode()).decode()
    return f"reply: {TOKEN} then {HEADER}, then {blob} and {TOKEN[:20]} (only a part) and {TOKEN}"


def test_streamed_text_split_anywhere_scrubs_as_the_whole_text():
    scrubber = Scrubber([TOKEN, HEADER])
    text = text_with_secrets()
    whole = scrubber.scrub(text)

    for split in range(len(text) + 1):
        stream = scrubber.stream()
        assert stream.feed(text[:split]) + stream.feed(text[split:]) + stream.end() == whole, split


def test_streamed_text_in_many_small_pieces_scrubs_as_the_whole_text():
    scrubber = Scrubber([TOKEN, HEADER])
    text = text_with_secrets()
    chance = random.Random(7)

    for _ in range(200):
        stream, shown, start = scrubber.stream(), "", 0
        while start < len(text):
            end = start + chance.randint(0, 9)
            shown += stream.feed(text[start:end])
            start = end
        assert shown + stream.end() == scrubber.scrub(text)


def test_a_stream_holds_back_exactly_the_tails_that_could_begin_a_secret():
    # Secrets of the characters a regular expression treats apart; a tail is held back when it begins one of their
    # forms (as is, encoded) without being all of it.
    secret_chars = 'ab-]^\\[+/=%"é'
    chance = random.Random(11)
    for _ in range(40):
        scrubber = Scrubber(["".join(chance.choice(secret_chars) for _ in range(chance.randint(8, 14))) for _ in range(2)])
        forms = [form for secret in scrubber._secrets for form in _forms_of(secret)]
        for _ in range(50):
            form = chance.choice(forms)
            text = "".join(chance.choice(secret_chars + "xyz ") for _ in range(chance.randint(0, 12)))
            text += form[: chance.randint(0, len(form))]
            expected = next(
                (start for start in range(len(text)) if any(f.startswith(text[start:]) and f != text[start:] for f in forms)),
                len(text),
            )
            assert scrubber.partial_start(text) == expected, (text, forms)


def test_a_stream_normally_holds_nothing_back():
    stream = Scrubber([TOKEN]).stream()

    for piece in ("The weather ", "in Paris is ", "sunny, 21 °C. "):
        assert stream.feed(piece) == piece
        assert stream.held == 0


def test_a_stream_holds_back_the_start_of_a_secret_until_it_is_decided():
    stream = Scrubber([TOKEN]).stream()

    assert stream.feed(f"key: {TOKEN[:10]}") == "key: "
    assert stream.held == 10
    assert stream.feed(f"{TOKEN[10:]} ok.") == f"{MARKER} ok."  # (a piece ending in a letter could be held)
    assert stream.feed(f"and {TOKEN[:5]}") == "and "
    assert stream.end() == TOKEN[:5]  # it ended before the secret did: only a part, not the secret


def test_secrets_are_read_from_variables_named_like_secrets():
    environ = {
        "OPENAI_API_KEY": "sk-test-0123456789",
        "github_token": "ghp_abcdefghijkl",
        "DB_PASSWORD": "correct-horse-battery",
        "SESSION_SECRET": "session-secret-value",
        "HOME": "/home/someone-long",
        "TOKEN_URL": "https://example.com/token",
    }

    scrubber = Scrubber.from_environment(environ)

    shown = scrubber.scrub(" ".join(environ.values()))
    assert shown == f"{MARKER} {MARKER} {MARKER} {MARKER} /home/someone-long https://example.com/token"


def test_the_process_environment_is_read_by_default(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("ACME_API_KEY", "acme-key-0123456789")

    assert Scrubber.from_environment().scrub("acme-key-0123456789") == MARKER


def test_a_scrubber_grows_into_a_new_one():
    first = Scrubber(["first-secret-1"])

    assert first.with_secrets(["third-secret-3"]).scrub("first-secret-1 third-secret-3") == f"{MARKER} {MARKER}"
    assert first.scrub("third-secret-3") == "third-secret-3"  # with_secrets makes a new scrubber


def test_the_marker_can_be_chosen():
    assert Scrubber([TOKEN], marker="***").scrub(f"k={TOKEN}") == "k=***"


def test_a_scrubber_never_shows_its_secrets():
    assert TOKEN not in repr(Scrubber([TOKEN]))
    assert TOKEN not in repr(Scrubber([TOKEN]).stream())
