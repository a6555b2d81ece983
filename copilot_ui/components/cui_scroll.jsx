// How the conversation scrolls: it follows new content while the person is at its end, jumps to the end
// when they send a message and when it shows (a popup or sidebar that opens), offers "Jump to latest"
// while they read further up, and asks for older items when they reach the top.
import React, { useEffect, useRef, useState } from "react";

const NEAR_END = 80; // px from the end that still count as "at the end"
const NEAR_TOP = 40;

export function CuiScroll({ target, conversation = "", hasOlder = false, jumpLabel = "↓ Jump to latest", onOlder }) {
  const [atEnd, setAtEnd] = useState(true);
  const state = useRef({ atEnd: true, hasOlder, asked: false, onOlder, top: 0 });
  state.current.hasOlder = hasOlder;
  state.current.onOlder = onOlder;
  if (!hasOlder) state.current.asked = false;

  useEffect(() => {
    const element = document.getElementById(target);
    if (!element) return undefined;
    const toEnd = (smooth = false) => element.scrollTo({ top: element.scrollHeight, behavior: smooth ? "smooth" : "auto" });
    const onScroll = () => {
      const near = element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_END;
      if (near !== state.current.atEnd) {
        state.current.atEnd = near;
        setAtEnd(near);
      }
      const up = element.scrollTop < state.current.top; // the person scrolls up (following the end only goes down)
      state.current.top = element.scrollTop;
      if (up && element.scrollTop < NEAR_TOP && state.current.hasOlder && !state.current.asked && state.current.onOlder) {
        state.current.asked = true; // once until the older items arrive
        state.current.onOlder();
      }
    };
    const follow = new MutationObserver((changes) => {
      const last = [...element.querySelectorAll("[data-kind], [data-tool]")].at(-1);
      // The person just sent a message when it is the newest item (not an older one loaded above).
      const sent =
        last?.matches('[data-kind="user"]') &&
        changes.some((change) => [...change.addedNodes].some((node) => node === last || node.contains?.(last)));
      if (sent || state.current.atEnd) toEnd(); // the person's own message always brings them to the end
      if (!sent) state.current.asked = false;
    });
    // A hidden conversation (a closed popup or sidebar) has no size, so it cannot scroll: when it shows, it
    // opens at its end, as a conversation does. A box that changes size keeps the end in view for a person there.
    let shown = element.clientHeight > 0;
    const resized = new ResizeObserver(() => {
      const showing = element.clientHeight > 0;
      if (showing && !shown) {
        state.current.atEnd = true;
        setAtEnd(true);
      }
      if (showing && state.current.atEnd) toEnd();
      shown = showing;
    });
    element.addEventListener("scroll", onScroll, { passive: true });
    follow.observe(element, { childList: true, subtree: true, characterData: true });
    resized.observe(element);
    toEnd();
    const jump = () => {
      toEnd(true);
      document.getElementById("cui-message")?.focus();
    };
    window.__cuiJump = jump;
    return () => {
      element.removeEventListener("scroll", onScroll);
      follow.disconnect();
      resized.disconnect();
    };
  }, [target]);

  // Another conversation opens at its end, wherever the person was in the one before; its items may come
  // after it is chosen (from the store), and following brings them into view.
  useEffect(() => {
    const element = document.getElementById(target);
    state.current.atEnd = true;
    setAtEnd(true);
    element?.scrollTo({ top: element.scrollHeight });
  }, [target, conversation]);

  if (atEnd) return null;
  return (
    <button type="button" className="cui-jump" onClick={() => window.__cuiJump?.()}>
      {jumpLabel}
    </button>
  );
}

// The copilot asks for the tab's conversation as it is now whenever the page is hydrated: when it loads, and
// each time its connection comes back (`hydrated` turns true again), for the server may have restarted, or dev
// mode's hot reload have replaced it, and a run the tab shows as going may be gone. A tab whose conversation is
// not shown although it has one (its session was renewed after a reconnect) asks too, once per conversation; and
// so does a tab with a conversation that the person comes back to: they may have gone on with it in another tab.
export function CuiResume({ threadId = "", empty = false, hydrated = false, onResume }) {
  const asked = useRef("");
  const resume = useRef(onResume);
  resume.current = onResume; // a new function on every render: the effects below must not run for that
  const shown = useRef({ threadId, hydrated });
  shown.current = { threadId, hydrated };
  useEffect(() => {
    if (!hydrated) return;
    resume.current?.();
    window.__cuiRecheck?.(); // the texts that were growing when the connection dropped: their last pieces may be lost
  }, [hydrated]);
  useEffect(() => {
    // Back to the tab (visible again), or to its window beside another (focused): one ask for both.
    let last = 0;
    const back = () => {
      if (document.visibilityState !== "visible" || !shown.current.hydrated || !shown.current.threadId) return;
      if (Date.now() - last < 1000) return;
      last = Date.now();
      resume.current?.();
    };
    document.addEventListener("visibilitychange", back);
    window.addEventListener("focus", back);
    return () => {
      document.removeEventListener("visibilitychange", back);
      window.removeEventListener("focus", back);
    };
  }, []);
  useEffect(() => {
    if (threadId && empty && asked.current !== threadId) {
      asked.current = threadId;
      resume.current?.();
    }
  }, [threadId, empty]);
  return null;
}
