"""A conversation is found by what was said in it: the person's words and the agent's replies, whatever their case
and accents, and only among the owner's own conversations."""

from __future__ import annotations

from ag_ui.core import AssistantMessage, FunctionCall, ToolCall

from copilot_ui.agents import ScriptedAgent
from copilot_ui.agents import scripts as s
from copilot_ui.core import RunLoop, Thread
from tests.store.threads import stored_thread


def titles(store, search: str, owner: str = "alice") -> list[str]:
    return [summary.title for summary in store.list(owner, search=search)]


async def test_a_conversation_is_found_by_a_word_of_the_agents_reply(store):
    thread = Thread(store.create("alice", agent="default").id)
    await RunLoop(ScriptedAgent(s.text_reply("Revenue this month is $48,210."))).send(thread, "what is our revenue?")
    store.save("alice", thread)
    other = Thread(store.create("alice", agent="default").id)
    await RunLoop(ScriptedAgent(s.text_reply("Here are the orders."))).send(other, "show orders")
    store.save("alice", other)

    assert titles(store, "48,210") == ["what is our revenue?"]
    assert titles(store, "$48") == ["what is our revenue?"]
    assert titles(store, "the orders") == ["show orders"]


def test_a_conversation_is_found_by_what_the_person_wrote_after_its_title(store):
    thread = Thread(store.create("alice", agent="default").id)
    thread.add_user_message("first question")
    thread.add_message(AssistantMessage(id="a1", content="first answer"))
    thread.add_user_message("and what about the\n  Lisbon   office?")
    store.save("alice", thread)
    store.rename("alice", thread.id, "Offices")

    assert titles(store, "lisbon office") == ["Offices"]  # white space folded as in titles
    assert titles(store, "first question") == ["Offices"]  # the words of its first message, though renamed


def test_search_in_messages_ignores_case_and_accents(store):
    thread = Thread(store.create("alice", agent="default").id)
    thread.add_user_message("dessert ideas")
    thread.add_message(AssistantMessage(id="a1", content="A CRÈME BRÛLÉE at the Straße café, ﬁne!"))
    store.save("alice", thread)

    for words in ("creme brulee", "Crème Brûlée", "CAFE", "strasse", "straße", "fine"):
        assert titles(store, words) == ["dessert ideas"], words
    assert titles(store, "crème brûléé au") == []


def test_search_in_titles_ignores_accents_too(store):
    thread = Thread(store.create("alice", agent="default").id)
    thread.add_user_message("Über die Brücke")
    store.save("alice", thread)
    assert titles(store, "uber die brucke") == ["Über die Brücke"]
    store.rename("alice", thread.id, "Café société")
    assert titles(store, "cafe SOCIETE") == ["Café société"]


def test_percent_and_underscore_in_messages_are_letters_not_wildcards(store):
    thread = Thread(store.create("alice", agent="default").id)
    thread.add_user_message("status")
    thread.add_message(AssistantMessage(id="a1", content="100% done_now"))
    store.save("alice", thread)
    assert titles(store, "0% d") == ["status"]
    assert titles(store, "e_n") == ["status"]
    assert titles(store, "x%y") == titles(store, "d_x") == []


def test_another_owners_conversations_are_never_found_by_their_messages(store):
    thread = Thread(store.create("bob", agent="default").id)
    thread.add_user_message("hello")
    thread.add_message(AssistantMessage(id="a1", content="your salary is 90,000"))
    store.save("bob", thread)
    mine = Thread(store.create("alice", agent="default").id)
    mine.add_user_message("hello")
    store.save("alice", mine)

    assert titles(store, "salary") == []
    assert store.list("alice", search="90,000", include_archived=True) == []
    assert titles(store, "salary", owner="bob") == ["hello"]


def test_archived_conversations_are_found_by_their_messages_only_when_asked_for(store):
    thread = Thread(store.create("alice", agent="default").id)
    thread.add_user_message("old plans")
    thread.add_message(AssistantMessage(id="a1", content="the launch is in March"))
    store.save("alice", thread)
    store.archive("alice", thread.id)
    assert titles(store, "march") == []
    assert [summary.id for summary in store.list("alice", search="march", include_archived=True)] == [thread.id]


def test_the_replies_are_searched_not_the_tools_calls_and_results(store):
    thread = Thread(store.create("alice", agent="default").id)
    thread.add_user_message("look it up")
    call = ToolCall(id="c1", function=FunctionCall(name="lookup_secret", arguments='{"code": "zebra"}'))
    thread.add_message(AssistantMessage(id="calls", tool_calls=[call]))
    thread.add_tool_result("c1", "giraffe", message_id="r1")
    thread.add_message(AssistantMessage(id="a1", content="Found it: an okapi."))
    store.save("alice", thread)
    assert titles(store, "okapi") == ["look it up"]
    assert titles(store, "zebra") == titles(store, "giraffe") == titles(store, "lookup_secret") == []


def test_a_reply_saved_while_streaming_is_found_by_its_last_words_once_complete(store):
    thread = Thread(store.create("alice", agent="default").id)
    thread.add_user_message("the answer?")
    thread.add_message(AssistantMessage(id="live", content=""))
    thread.append_text("live", "The answer is")
    store.save("alice", thread)
    assert titles(store, "42") == []

    thread.append_text("live", " 42.")
    thread.end_text("live")
    store.save("alice", thread)
    assert titles(store, "answer is 42") == ["the answer?"]


def test_words_removed_by_an_edit_no_longer_find_the_conversation(store):
    thread = Thread(store.create("alice", agent="default").id)
    thread.add_user_message("trip")
    thread.add_message(AssistantMessage(id="a1", content="Go to Porto."))
    thread.add_user_message("somewhere warmer?")
    thread.add_message(AssistantMessage(id="a2", content="Try Seville."))
    store.save("alice", thread)

    thread.remove_messages_from(thread.messages[2].id)  # the person edits their second question
    thread.add_user_message("somewhere colder?")
    thread.add_message(AssistantMessage(id="a3", content="Try Oslo."))
    store.save("alice", thread)
    assert titles(store, "seville") == titles(store, "warmer") == []
    assert titles(store, "oslo") == titles(store, "porto") == ["trip"]


def test_another_store_finds_what_one_store_saved(store, open_store):
    thread = stored_thread(store, 10)
    thread.add_user_message("one more thing: the quarterly figures")
    store.save("alice", thread)
    assert [summary.id for summary in open_store().list("alice", search="QUARTERLY figures")] == [thread.id]
