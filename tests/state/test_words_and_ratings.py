"""The copilot's words (cui.Labels) and the ratings of replies, without a browser: the defaults are the copilot's own
words, a layout's words win over the app's, the server's notices speak the app's language, a rating comes back with
its conversation, and the app's feedback hooks all hear it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
import reflex as rx

from copilot_ui.agents import ScriptedAgent, Scrubber
from copilot_ui.agents import scripts as s
from copilot_ui.components._looks import look_for_layout, shortcut_hint, shortcut_keys
from copilot_ui.core import RunLoop, Thread, TurnEnded, TurnStarted
from copilot_ui.state import Feedback, Labels, copilot
from copilot_ui.state.declarations import STATUS_WORDS, tell_feedback
from copilot_ui.state.sink import ViewSink, ViewUpdate
from copilot_ui.state.turns import cut_off, resumed
from copilot_ui.state.view import Conversation
from copilot_ui.store import Rating, SQLThreadStore


@pytest.fixture
def app_labels() -> Iterator[None]:
    """The app's labels are restored after the test."""
    before = copilot.labels
    yield
    copilot.labels = before


def test_the_default_words_are_the_copilots_own():
    words = Labels()
    assert (words.title, words.placeholder, words.composer) == ("Copilot", "Ask the copilot…", "Ask the copilot")
    assert words.greeting == "Ask about the page, or ask the copilot to change it."
    assert (words.send, words.stop, words.retry, words.regenerate) == ("Send", "Stop", "Retry", "Regenerate")
    assert (words.copy, words.edit, words.new_conversation) == ("Copy message", "Edit message", "New conversation")
    assert (words.good_response, words.bad_response, words.send_feedback) == ("Good response", "Bad response", "Send feedback")
    assert (words.stopped, words.thinking) == ("Stopped.", "Thinking…")
    assert words.waiting.format(seconds=12) == "Waiting for the agent… 12 s"
    assert words.statuses == STATUS_WORDS


def test_a_misspelt_word_is_refused_with_where_to_look():
    with pytest.raises(TypeError, match="Labels has no plaecholder"):
        Labels().but(plaecholder="Ask Acme…")


def test_a_misspelt_label_is_refused_naming_the_close_matches():
    with pytest.raises(TypeError, match=r"Labels has no sennd \(did you mean send\?\)"):
        Labels(sennd="Envoyer")


def test_a_templates_misspelt_field_is_refused_naming_the_fields_it_takes():
    with pytest.raises(ValueError, match=r"\{minuts\} is no field of minutes_ago \(did you mean \{minutes\}\?\); it takes"):
        Labels(minutes_ago="il y a {minuts} min")
    with pytest.raises(ValueError, match=r"\{name\} is no field of send; it takes no fields"):
        Labels().but(send="Envoyer {name}")
    assert Labels(rename="Renommer").rename == "Renommer"  # a field may be left out
    assert Labels(file_too_big="{limit} au plus : {name} pèse {size}").said("file_too_big", name="a", size=2, limit=1) == (
        "1 au plus : a pèse 2"
    )


def test_a_label_that_is_no_text_is_refused():
    with pytest.raises(TypeError, match=r"send is a text \(str\), not int"):
        Labels(send=3)
    with pytest.raises(TypeError, match="months takes the twelve months"):
        Labels(months=("janv.", "févr."))


def test_the_statuses_words_name_known_statuses_and_keep_the_others():
    with pytest.raises(ValueError, match=r"'complet' is no status \(did you mean 'complete'\?\)"):
        Labels(statuses={"complet": "Terminé"})
    words = Labels(statuses={"complete": "Terminé"})
    assert (words.statuses["complete"], words.statuses["error"]) == ("Terminé", "Failed")


def test_a_files_size_is_in_the_labels_words():
    from copilot_ui.core import AttachmentRules, size_text

    french = Labels(one_byte="1 octet", bytes_size="{count} octets", kilobytes="{size} ko", megabytes="{size} Mo")
    assert [size_text(n, french) for n in (1, 999, 34_000, 12_400_000)] == ["1 octet", "999 octets", "34 ko", "12.4 Mo"]
    refusal = AttachmentRules().refusal("big.png", "image/png", 12_400_000)
    assert refusal is not None and refusal.worded(french.but(file_too_big="{name} pèse {size} ; au plus {limit}")) == (
        "big.png pèse 12.4 Mo ; au plus 10 Mo"
    )


def test_the_header_names_the_demo_model_and_the_model_in_the_layouts_words():
    from copilot_ui.components._looks import looking
    from copilot_ui.components._panel import panel

    german = Labels(demo_model="Demo-Modell", demo_model_hint="Geskriptete Antworten", model="Das Modell: {model}")
    with looking(look_for_layout(labels=german)):
        header = str(panel("default", "Reiseassistent"))
    assert "Demo-Modell" in header and "Geskriptete Antworten" in header and "Das Modell: " in header
    assert "Scripted answers" not in header and "The model that answers" not in header


def test_a_layouts_words_win_over_the_apps(app_labels):
    copilot.labels = Labels().but(placeholder="Demandez…", send="Envoyer")
    look = look_for_layout(placeholder="Une question ?", greeting="Bonjour !")
    assert (look.labels.placeholder, look.labels.greeting, look.labels.send) == ("Une question ?", "Bonjour !", "Envoyer")
    assert look_for_layout(labels=Labels()).labels.send == "Send"  # a layout's own labels, whole


def test_a_conversation_cut_off_by_a_restart_says_so_in_the_apps_words(app_labels):
    copilot.labels = Labels().but(interrupted="Interrompu. Réessayez.")
    thread, conversation = Thread(), Conversation.of("t")
    thread.add_user_message("bonjour")
    cut_off(thread, conversation, thread.last_message_id())
    assert [note.text for note in conversation.notes] == ["Interrompu. Réessayez."]


def test_a_shortcut_is_named_for_screen_readers_and_tooltips():
    assert shortcut_keys("mod+/") == "Control+/ Meta+/"
    assert shortcut_keys("mod+k") == "Control+K Meta+K"
    assert shortcut_keys("ctrl+shift+k") == "Control+Shift+K"
    assert shortcut_hint("mod+/") == "Ctrl+/ or ⌘/"
    assert shortcut_hint("mod+/", Labels(keys_or="{one} ou {other}")) == "Ctrl+/ ou ⌘/"
    assert shortcut_hint("ctrl+k", Labels(keys_or="{one} ou {other}")) == "Ctrl+K"


def test_a_rated_reply_shows_its_rating_when_its_conversation_is_opened_again(tmp_path):
    store = SQLThreadStore(tmp_path / "threads.db")
    thread = Thread(store.create("alice", agent="default").id)
    asyncio.run(RunLoop(ScriptedAgent(s.run(s.text("Refunded.")))).send(thread, "refund order 1042"))
    reply = thread.messages[-1]
    store.save("alice", thread, notes=Conversation.of(thread.id).to_notes())

    assert store.rate("alice", thread.id, reply.id, Rating(rating="bad", comment="Wrong order"))

    _, reopened = resumed(store.load_with_notes("alice", thread.id), frozenset())
    shown = reopened.items(thread)
    assert [item.get("fb") for item in shown if item["k"] == "a"] == ["bad"]
    assert [item.get("fb") for item in shown if item["k"] == "u"] == [None]


def test_the_run_that_wrote_a_reply_is_kept_with_the_conversation():
    conversation = Conversation.of("thread-1")
    conversation.runs["reply-1"] = "run-7"
    assert Conversation.from_notes("thread-1", conversation.to_notes()).runs == {"reply-1": "run-7"}


def test_every_feedback_hook_hears_a_rating_even_when_one_fails():
    heard: list[str] = []

    def broken(_feedback: Feedback) -> None:
        raise RuntimeError("the analytics service is down")

    async def collect(feedback: Feedback) -> None:
        heard.append(f"{feedback.rating}: {feedback.comment}")

    rating = Feedback(thread_id="t", message_id="m", text="Refunded.", rating="bad", comment="Wrong order")
    asyncio.run(tell_feedback([broken, collect, lambda feedback: heard.append(feedback.message_id)], rating))
    assert heard == ["bad: Wrong order", "m"]


def test_a_stopped_run_and_the_status_line_speak_the_apps_words(app_labels):
    copilot.labels = Labels().but(thinking="Réflexion…", stopped="Arrêté.", stopped_because="Arrêté : {reason}")
    shown: list[ViewUpdate] = []

    async def show(view: ViewUpdate) -> None:
        shown.append(view)

    async def stopped_turns() -> None:
        thread = Thread()
        thread.add_user_message("bonjour")
        sink = ViewSink(show, thread, Conversation.of(thread.id), scrubber=Scrubber(), interval=0.0)
        sink.emit(TurnStarted(thread_id=thread.id))
        await sink.commit()
        assert shown[-1].status == "Réflexion…"
        sink.emit(TurnEnded(thread_id=thread.id, status="aborted"))
        sink.emit(TurnEnded(thread_id=thread.id, status="stopped", message="a hook said so"))
        await sink.close()
        assert [note.text for note in sink.conversation.notes] == ["Arrêté.", "Arrêté : a hook said so"]

    asyncio.run(stopped_turns())


def test_a_reply_is_known_by_the_run_that_wrote_it():
    async def one_turn() -> tuple[Thread, Conversation]:
        thread = Thread()

        async def show(_view: ViewUpdate) -> None:
            return None

        sink = ViewSink(show, thread, Conversation.of(thread.id), scrubber=Scrubber(), interval=0.0)
        await RunLoop(ScriptedAgent(s.run(s.text("Refunded."))), emit=sink.emit).send(thread, "refund order 1042")
        await sink.close()
        return thread, sink.conversation

    thread, conversation = asyncio.run(one_turn())
    assert conversation.runs[thread.messages[-1].id].strip() != ""


def test_the_words_about_files_are_the_layouts(monkeypatch):
    from copilot_ui.components._attachments import composer_files, message_files
    from copilot_ui.components._looks import looking
    from copilot_ui.state import _attachments

    monkeypatch.setitem(_attachments._DECLARED, "endpoint", True)  # the app serves cui.attachment_endpoint()
    french = Labels().but(attach_files="Joindre des fichiers", remove_file="Retirer {name}", sent_files="Fichiers")
    with looking(look_for_layout(labels=french)):
        item = rx.Var.create({"id": "u-1", "f": [{"id": "att-1", "n": "orders.csv", "s": "1 KB", "i": False}]})
        composer, sent = str(composer_files()), str(message_files(item))
    assert "Joindre des fichiers" in composer and "Retirer {name}" in composer
    assert "Attach files" not in composer
    assert "Fichiers" in sent


def test_the_conversations_list_says_when_in_the_apps_words(app_labels):
    from datetime import UTC, datetime, timedelta

    from copilot_ui.state._threads import _when

    now = datetime.now(UTC)
    assert [_when(now), _when(now - timedelta(minutes=5)), _when(now - timedelta(hours=2))] == [
        "just now",
        "5 min ago",
        "2 h ago",
    ]
    copilot.labels = Labels().but(
        just_now="à l'instant",
        minutes_ago="il y a {minutes} min",
        hours_ago="il y a {hours} h",
        months=("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."),
    )
    assert [_when(now), _when(now - timedelta(minutes=5)), _when(now - timedelta(hours=2))] == [
        "à l'instant",
        "il y a 5 min",
        "il y a 2 h",
    ]
    assert _when(datetime(2026, 8, 3, tzinfo=UTC)) == "03 août"
