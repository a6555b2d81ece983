// The copilot's texts in the browser: a store that receives appended pieces, and the component that shows them.
//
// The backend never resends a growing text: it calls __cuiA(tid, seq, piece) with each new piece
// (seq counts the pieces of that text from 0) and __cuiS({tid: [seq, text], ...}) to hand over
// whole texts (a person's message, a text the tab missed after a reload or a reconnect); a whole
// text at a lower seq than the tab's is older and kept out, unless __cuiS is told to replace (the
// texts of a conversation as kept, once nothing writes it). A piece that does not follow the last
// one asks the backend for the whole text again.
//
// Everything shown here came from an agent or a stranger: Markdown without raw HTML (HTML shows
// as text), links only http(s) and mailto (opened in a new tab, without opener or referrer),
// images only from this origin or hosts the app allows (others become links). A text longer than
// `limit` is plain text (cui_plain_text.jsx lays it out in pieces), shown cut with a "Show all"
// control, so no reply, however long, blocks the page.
import React, { memo, useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { Streamdown, defaultRehypePlugins, defaultRemarkPlugins } from "streamdown";
import { PlainText } from "./cui_plain_text.jsx";

const texts = new Map(); // tid -> {seq, text}
const listeners = new Map(); // tid -> Set of callbacks
// The texts that last grew by pieces, not yet handed over whole: a connection that dropped may have lost their last
// pieces, with none coming after to show the gap (the reply ended meanwhile). Asked for again when it comes back.
const growing = new Set();
const GROWING_KEPT = 8;

const notify = (tid) => listeners.get(tid)?.forEach((listener) => listener());

const append = (tid, seq, piece) => {
  const entry = texts.get(tid);
  if (entry === undefined ? seq !== 0 : seq > entry.seq + 1) {
    requestTexts([tid]); // a gap: pieces were missed (reload, reconnect)
    return;
  }
  if (entry !== undefined && seq <= entry.seq) return; // already here
  texts.set(tid, { seq, text: (entry?.text ?? "") + piece });
  growing.delete(tid);
  growing.add(tid); // (the newest last)
  if (growing.size > GROWING_KEPT) growing.delete(growing.values().next().value);
  notify(tid);
};

const setTexts = (updates, replace = false) => {
  for (const [tid, [seq, text]] of Object.entries(updates)) {
    const entry = texts.get(tid);
    if (replace || entry === undefined || seq >= entry.seq) {
      texts.set(tid, { seq, text });
      notify(tid);
    }
    asked.delete(tid);
    growing.delete(tid);
  }
};

if (typeof window !== "undefined") {
  window.__cuiA = append;
  window.__cuiS = setTexts;
  window.__cuiText = (tid) => texts.get(tid)?.text; // for tests and the dev console
  window.__cuiRecheck = () => requestTexts([...growing]); // the connection is back (cui_scroll.jsx's CuiResume)
}

// Texts this tab lacks are asked for together, once per tick, through the newest mounted text's handler.
const asked = new Set();
let pending = new Set();
let askTimer = null;
let ask = null;

const requestTexts = (tids) => {
  for (const tid of tids) if (!asked.has(tid)) pending.add(tid);
  if (pending.size && askTimer === null) askTimer = setTimeout(sendRequests, 0);
};

const sendRequests = () => {
  askTimer = null;
  if (ask === null || pending.size === 0) return;
  const tids = [...pending];
  pending = new Set();
  tids.forEach((tid) => asked.add(tid));
  setTimeout(() => tids.forEach((tid) => asked.delete(tid)), 3000); // ask again if the answer got lost
  ask(tids);
};

const useText = (tid, onNeed) => {
  const subscribe = useCallback(
    (listener) => {
      if (!listeners.has(tid)) listeners.set(tid, new Set());
      listeners.get(tid).add(listener);
      return () => listeners.get(tid)?.delete(listener);
    },
    [tid],
  );
  const entry = useSyncExternalStore(subscribe, () => texts.get(tid), () => undefined);
  useEffect(() => {
    if (onNeed) {
      ask = onNeed;
      if (pending.size) requestTexts([]);
    }
  }, [onNeed]);
  useEffect(() => {
    if (tid && !texts.has(tid)) requestTexts([tid]);
  }, [tid]);
  return entry?.text ?? "";
};

export function CuiText({
  tid,
  markdown = true,
  live = false,
  limit = 20000,
  imageHosts = [],
  moreWords = "{count} more characters",
  showAllWords = "Show all",
  onNeed,
  className,
  ...rest
}) {
  const text = useText(tid, onNeed);
  const [all, setAll] = useState(false);
  const long = text.length > limit;
  const cut = long && !all;
  const shown = cut ? text.slice(0, cutPoint(text, limit)) : text;
  // Markdown of a very long text would block the page: past the limit it shows as plain text, cut or whole.
  const asMarkdown = markdown && !long;
  const box = useRef(null);
  useFocusableScrollers(box, asMarkdown);
  return (
    <div ref={box} className={className} data-tid={tid} data-live={live ? "true" : undefined} {...rest}>
      {asMarkdown ? (
        <SafeMarkdown text={shown} live={live} imageHosts={imageHosts} />
      ) : (
        <PlainText text={shown} />
      )}
      {cut && (
        <div className="cui-cut">
          <span>{moreWords.replace("{count}", (text.length - shown.length).toLocaleString())}</span>
          <button type="button" className="cui-show-all" onClick={() => setAll(true)}>
            {showAllWords}
          </button>
        </div>
      )}
    </div>
  );
}

// Wide code blocks and tables scroll sideways: each scroller can take focus, so the keyboard scrolls it too.
const SCROLLERS = 'pre, [data-streamdown="table"]';

const focusScrollers = (root) => {
  for (const node of root.querySelectorAll(SCROLLERS)) {
    const scroller = node.tagName === "PRE" ? node : node.parentElement;
    if (scroller && !scroller.hasAttribute("tabindex")) scroller.tabIndex = 0;
  }
};

const useFocusableScrollers = (ref, active) => {
  useEffect(() => {
    const root = ref.current;
    if (!active || !root) return undefined;
    focusScrollers(root);
    // Streamdown draws code blocks after highlighting, later than this effect: watch for them.
    const observer = new MutationObserver(() => focusScrollers(root));
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [ref, active]);
};

// Cut at a line end near the limit when there is one, so a cut does not split a word.
const cutPoint = (text, limit) => {
  const newline = text.lastIndexOf("\n", limit);
  return newline > limit * 0.8 ? newline : limit;
};

// Raw HTML in Markdown becomes plain text: it is shown, never parsed.
const remarkHtmlAsText = () => (tree) => {
  const visit = (node) => {
    if (node.type === "html") node.type = "text";
    node.children?.forEach(visit);
  };
  visit(tree);
};

const REMARK = [...Object.values(defaultRemarkPlugins), remarkHtmlAsText];
const REHYPE = [defaultRehypePlugins.sanitize];
const CONTROLS = { code: { copy: true, download: false }, table: { copy: true, download: false, fullscreen: false }, mermaid: false };
const NO_LINK_MODAL = { enabled: false };

// Emphasis markers at the very end of a streaming text open nothing yet ("grew **"), and the incomplete-Markdown
// parser leaves them as they are: they wait for the next piece instead of flashing as raw stars.
const UNOPENED_MARKERS = /(^|\s)[*_~]+$/;

const SafeMarkdown = memo(function SafeMarkdown({ text, live, imageHosts }) {
  const components = useComponents(imageHosts);
  return (
    <Streamdown
      mode={live ? "streaming" : "static"}
      isAnimating={live}
      parseIncompleteMarkdown={live}
      remarkPlugins={REMARK}
      rehypePlugins={REHYPE}
      controls={CONTROLS}
      linkSafety={NO_LINK_MODAL}
      components={components}
      className="cui-md"
    >
      {live ? text.replace(UNOPENED_MARKERS, "$1") : text}
    </Streamdown>
  );
});

const componentCache = new Map();

const useComponents = (imageHosts) => {
  const key = (imageHosts ?? []).join(" ");
  if (!componentCache.has(key)) {
    const hosts = new Set(imageHosts ?? []);
    componentCache.set(key, {
      a: ({ href, children }) => <SafeLink href={href}>{children}</SafeLink>,
      strong: ({ children }) => <strong>{children}</strong>, // emphasis a screen reader announces
      img: ({ src, alt }) => <SafeImage src={src} alt={alt} hosts={hosts} />,
    });
  }
  return componentCache.get(key);
};

// Only http(s) and mailto links lead anywhere; any other scheme (javascript:, data:, …) is inert text.
export const safeHref = (href) => {
  if (typeof href !== "string" || href === "") return null;
  try {
    const url = new URL(href, window.location.href);
    return ["http:", "https:", "mailto:"].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
};

function SafeLink({ href, children }) {
  const url = safeHref(href);
  if (url === null) return <span className="cui-inert-link">{children}</span>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

// An image is fetched only from this origin or an allowed host; any other is shown as a link, never loaded.
function SafeImage({ src, alt, hosts }) {
  const url = safeHref(src);
  if (url === null || url.startsWith("mailto:")) return <span className="cui-inert-link">{alt || ""}</span>;
  const { host, origin } = new URL(url);
  if (origin === window.location.origin || hosts.has(host)) {
    return <img src={url} alt={alt ?? ""} loading="lazy" referrerPolicy="no-referrer" />;
  }
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" className="cui-image-link">
      {alt || url}
    </a>
  );
}
