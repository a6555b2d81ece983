"""The copilot's styles, shipped with its components so that an app needs no stylesheet of its own.

Every rule is scoped under a `cui-` class: the app's own elements are never styled. Colours come
from the Radix theme's variables, so the copilot follows the app's accent colour, radius and
light or dark mode. Corners use the theme's --radius-1..6; pills (the chips, the open buttons) stay
pills unless the theme has no radius (Radix's own --radius-full is 0 except with radius="full").
"""

SIDEBAR_CSS = (
    """
.cui-page { display: flex; min-height: 100vh; }
.cui-page-content { flex: 1; min-width: 0; }
.cui-sidebar { display: flex; flex-direction: row; height: 100vh; position: sticky; top: 0; flex-shrink: 0;
  border-left: 1px solid var(--gray-a5); background: var(--color-panel-solid); }
.cui-sidebar[hidden] { display: none; }
.cui-sidebar[data-narrow="true"] { position: fixed; inset: 0; width: 100vw; height: 100dvh; z-index: 50; border: none; }
.cui-resize { width: 6px; margin-left: -3px; cursor: col-resize; flex-shrink: 0; position: relative; z-index: 1; }
.cui-resize:hover, .cui-resize:focus-visible { background: var(--accent-a6); outline: none; }
/* Pills: Radix's --radius-full is 0 unless the theme's radius is "full"; these follow --radius-factor instead. */
.cui-dock-open, .cui-popup-launcher, .cui-chip, .cui-jump { border-radius: calc(9999px * var(--radius-factor, 1)); }
.cui-dock-open, .cui-popup-launcher { position: fixed; border: none; background: var(--accent-9); color: var(--accent-contrast);
  box-shadow: 0 4px 14px var(--black-a5); cursor: pointer; }
.cui-dock-open { right: 1rem; bottom: 1rem; z-index: 40; display: inline-flex; gap: 0.4rem;
  align-items: center; font: inherit; font-weight: 600; padding: 0.6rem 1rem; }
.cui-dock-open:focus-visible, .cui-popup-launcher:focus-visible { outline: 2px solid var(--accent-8); outline-offset: 2px; }
.cui-popup-launcher { right: 1.25rem; bottom: 1.25rem; z-index: 41; width: 3.25rem; height: 3.25rem; font-size: 1.4rem;
  display: inline-flex; align-items: center; justify-content: center; }
.cui-popup-panel { position: fixed; right: 1.25rem; bottom: 5.25rem; z-index: 40; width: min(26rem, calc(100vw - 2.5rem));
  height: min(40rem, calc(100dvh - 7rem)); display: flex; border-radius: var(--radius-6); overflow: hidden;
  border: 1px solid var(--gray-a5); background: var(--color-panel-solid); box-shadow: 0 12px 40px var(--black-a6); }
.cui-popup-panel[hidden] { display: none; }
/* On a phone the open popup fills the screen, its header closes it: the launcher would cover the Send button. */
@media (max-width: 640px) { .cui-popup-panel { inset: 0; width: 100vw; height: 100dvh; border-radius: 0; }
  .cui-popup-launcher[aria-expanded="true"] { display: none; } }
.cui-chat { display: flex; height: 100%; min-height: 20rem; border: 1px solid var(--gray-a5); border-radius: var(--radius-5);
  overflow: hidden; background: var(--color-panel-solid); }
.cui-panel { display: flex; flex-direction: column; flex: 1; min-width: 0; min-height: 0; height: 100%; }
/* The header never overlaps itself: the title takes what the buttons leave and ends in an ellipsis, the model's name
   goes under it when both do not fit, the buttons go to a row of their own when even a short title would not fit
   beside them, and the notice of a lost connection takes a row under them all. */
.cui-header { display: flex; flex-wrap: wrap; align-items: center; column-gap: 0.5rem; row-gap: 0.4rem;
  padding: 0.6rem 0.75rem 0.6rem 1rem; border-bottom: 1px solid var(--gray-a4); }
.cui-title { flex: 1 1 6rem; min-width: 0; display: flex; flex-wrap: wrap; align-items: center; column-gap: 0.5rem;
  row-gap: 0.2rem; }
.cui-name { display: flex; align-items: center; gap: 0.5rem; min-width: 0; max-width: 100%; }
.cui-name > svg { flex-shrink: 0; }
.cui-name h2 { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.cui-model { max-width: 100%; min-width: 0; }
.cui-model-name { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.cui-header-actions { flex: 0 1 auto; min-width: 0; margin-left: auto; }
.cui-header-actions > * { flex-shrink: 0; }
.cui-header-actions > .cui-picker { flex-shrink: 1; min-width: 4.5rem; }
.cui-reconnecting { flex: 1 0 100%; display: flex; align-items: center; gap: 0.4rem; margin: 0; font-size: 0.75rem;
  padding: 0.2rem 0.5rem; border-radius: var(--radius-2); color: var(--red-11); background: var(--red-a3); }
.cui-reconnecting > svg { flex-shrink: 0; }
/* Radix pulls ghost buttons outward by a negative margin: here it would glue the header's icons together. */
.cui-header-actions .rt-IconButton { margin: 0; }
@media (max-width: 640px) {
  .cui-header-actions :is(button, select) { min-width: 44px; min-height: 44px; }
}
.cui-picker { font: inherit; font-size: 0.8rem; padding: 0.2rem 0.4rem; border-radius: var(--radius-3);
  border: 1px solid var(--gray-a7); background: var(--color-surface); color: var(--gray-12); max-width: 9rem; }
.cui-threads-menu { width: 20rem; max-width: calc(100vw - 2rem); display: flex; flex-direction: column; gap: 0.5rem; }
/* New conversation goes below the search box where both do not fit side by side (as in the 20rem list). */
.cui-threads-top { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
.cui-threads-top .cui-input { flex: 1 1 12rem; min-width: 0; min-height: 2rem; padding: 0.3rem 0.5rem; }
.cui-threads-new { flex: none; max-width: 100%; }
.cui-threads { list-style: none; margin: 0; padding: 0; max-height: 20rem; overflow-y: auto; display: flex;
  flex-direction: column; gap: 0.15rem; }
.cui-thread { position: relative; display: flex; align-items: center; gap: 0.25rem; border-radius: var(--radius-3);
  padding: 0.1rem 0.2rem; }
.cui-thread:hover { background: var(--gray-a3); }
.cui-thread-current, .cui-thread-current:hover { background: var(--accent-a3); }
.cui-thread:has(.cui-thread-open:focus-visible) { outline: 2px solid var(--accent-8); outline-offset: -2px; }
.cui-thread-open:focus-visible { outline: none; }
.cui-thread-open { flex: 1; min-width: 0; display: flex; flex-direction: column; align-items: flex-start; text-align: left;
  background: none; border: none; font: inherit; color: var(--gray-12); cursor: pointer; padding: 0.3rem; }
/* The whole row opens its conversation: the button's ::after covers the row, Rename and Delete lie above it. */
.cui-thread-open::after { content: ""; position: absolute; inset: 0; }
.cui-thread-action { position: relative; z-index: 1; }
.cui-thread-title { font-size: 0.85rem; max-width: 100%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.cui-thread-when { font-size: 0.7rem; color: var(--gray-11); }
.cui-thread-rename, .cui-thread-confirm { display: flex; gap: 0.3rem; align-items: center; flex: 1; min-width: 0;
  padding: 0.2rem 0; }
.cui-thread-rename .cui-input { min-width: 0; min-height: 1.8rem; padding: 0.2rem 0.4rem; }
.cui-threads-empty { padding: 0.5rem; }
.cui-turn { display: flex; flex-direction: column; gap: 0.15rem; min-width: 0; }
.cui-turn-user { align-items: flex-end; }
.cui-actions { display: flex; gap: 0.25rem; align-items: center; min-height: 1.75rem; }
/* A message's actions show on hover and when focus is in its message; always on touch screens, and once rated. */
.cui-turn .cui-actions { opacity: 0; transition: opacity 120ms; }
.cui-turn:hover .cui-actions, .cui-turn:focus-within .cui-actions, .cui-turn .cui-actions[data-rated="true"] { opacity: 1; }
@media (hover: none) { .cui-turn .cui-actions { opacity: 1; } }
.cui-icon-action { position: relative; display: inline-flex; align-items: center; justify-content: center;
  width: 1.75rem; height: 1.75rem; padding: 0; border: none; background: none; cursor: pointer; color: var(--gray-11);
  border-radius: var(--radius-2); }
@media (max-width: 640px) { .cui-icon-action { width: 2.75rem; height: 2.75rem; } }  /* a finger's target */
.cui-icon-action:hover, .cui-icon-action:focus-visible { background: var(--gray-a3); color: var(--gray-12); }
.cui-icon-action:focus-visible { outline: 2px solid var(--accent-8); outline-offset: 1px; }
.cui-icon-action[aria-pressed="true"] { color: var(--accent-11); background: var(--accent-a3); }
.cui-icon { display: inline-flex; }
.cui-tip { position: absolute; bottom: calc(100% + 4px); left: 50%; transform: translateX(-50%); z-index: 5;
  white-space: nowrap; pointer-events: none; font-size: 0.7rem; padding: 0.15rem 0.4rem; border-radius: var(--radius-2);
  background: var(--gray-12); color: var(--gray-1); opacity: 0; transition: opacity 120ms; }
.cui-icon-action:hover .cui-tip, .cui-icon-action:focus-visible .cui-tip { opacity: 1; }
.cui-thanks { font-size: 0.72rem; color: var(--gray-11); padding-left: 0.25rem; }
.cui-feedback { display: flex; flex-direction: column; gap: 0.3rem; width: 100%; }
.cui-user.cui-own, .cui-reply.cui-own { background: none; color: inherit; padding: 0; max-width: 100%; border-radius: 0; }
.cui-action { font: inherit; font-size: 0.72rem; color: var(--gray-11); background: none; border: none; cursor: pointer;
  padding: 0.1rem 0.3rem; border-radius: var(--radius-2); }
.cui-action:hover, .cui-action:focus-visible { background: var(--gray-a3); color: var(--gray-12); }
.cui-action-primary { color: var(--accent-11); }
.cui-edit { display: flex; flex-direction: column; gap: 0.3rem; width: 85%; }
.cui-edit-buttons { display: flex; justify-content: flex-end; gap: 0.3rem; }
.cui-chips { display: flex; flex-wrap: wrap; gap: 0.4rem; justify-content: center; margin-top: 0.75rem; }
.cui-chip { font: inherit; font-size: 0.8rem; padding: 0.3rem 0.7rem; cursor: pointer;
  border: 1px solid var(--accent-a7); background: var(--accent-a2); color: var(--accent-11); }
.cui-chip:hover, .cui-chip:focus-visible { background: var(--accent-a4); }
.cui-dev { border-top: 1px solid var(--gray-a4); font-size: 0.75rem; max-height: 40%; display: flex; flex-direction: column; }
.cui-dev > summary { padding: 0.3rem 1rem; cursor: pointer; color: var(--gray-11); }
.cui-dev-log { overflow: auto; padding: 0.3rem 1rem; font-family: var(--code-font-family, monospace); font-size: 0.7rem;
  max-height: 16rem; }
.cui-conversation { flex: 1; display: flex; flex-direction: column; gap: 0.6rem; padding: 1rem;
  overflow-y: auto; min-height: 0; overflow-anchor: auto; }
.cui-welcome { margin: auto 0; text-align: center; }
.cui-sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.cui-user { max-width: 85%; background: var(--accent-9); color: var(--accent-contrast);
  padding: 0.5rem 0.75rem; border-radius: var(--radius-6) var(--radius-6) var(--radius-1) var(--radius-6);
  overflow-wrap: anywhere; }
.cui-user[data-queued="true"] { background: var(--accent-3); color: var(--accent-12); outline: 1px dashed var(--accent-8); }
.cui-queued { display: block; font-size: 0.7rem; text-align: right; }
.cui-reply { align-self: flex-start; max-width: 100%; min-width: 0; color: var(--gray-12); line-height: 1.5;
  overflow-wrap: anywhere; }
.cui-plain { white-space: pre-wrap; overflow-wrap: anywhere; }
.cui-cut { display: flex; gap: 0.5rem; align-items: center; font-size: 0.75rem; color: var(--gray-11);
  margin-top: 0.25rem; }
.cui-show-all { font: inherit; color: var(--accent-11); background: none; border: 1px solid var(--accent-a7);
  border-radius: var(--radius-3); padding: 0.1rem 0.5rem; cursor: pointer; }
.cui-status { padding-left: 0.1rem; }
.cui-notice { font-size: 0.8rem; color: var(--gray-11); }
.cui-jump { position: sticky; bottom: 0.25rem; order: 10000; align-self: center; font: inherit; font-size: 0.8rem;
  padding: 0.3rem 0.8rem; border: 1px solid var(--gray-a6); background: var(--color-panel-solid); color: var(--gray-12);
  box-shadow: 0 2px 8px var(--black-a4); cursor: pointer; z-index: 1; }
.cui-older { align-self: center; font-size: 0.8rem; color: var(--accent-11); background: none; border: none;
  cursor: pointer; padding: 0.25rem; }
.cui-error-body { display: flex; flex-direction: column; gap: 0.4rem; align-items: flex-start; }
.cui-reasoning { font-size: 0.85rem; color: var(--gray-11); }
.cui-reasoning > summary { cursor: pointer; }
.cui-reasoning-text { border-left: 2px solid var(--gray-a5); padding-left: 0.6rem; margin-top: 0.3rem; }
.cui-tool-card, .cui-activity { border: 1px solid var(--gray-a5); border-radius: var(--radius-4); padding: 0.5rem 0.65rem;
  background: var(--gray-a2); display: flex; flex-direction: column; gap: 0.35rem; font-size: 0.85rem; min-width: 0; }
.cui-tool-card details > summary { cursor: pointer; font-size: 0.75rem; color: var(--gray-11); }
.cui-tool-pre { margin: 0; padding: 0.35rem 0.5rem; background: var(--gray-a3); border-radius: var(--radius-3);
  font-family: var(--code-font-family, monospace); font-size: 0.78rem; max-height: 12rem; overflow: auto; }
.cui-question { font-weight: 500; }
.cui-answer { display: flex; flex-direction: column; gap: 0.4rem; }
.cui-answer-row { display: flex; gap: 0.5rem; align-items: flex-end; }
.cui-composer { display: flex; gap: 0.5rem; align-items: flex-end; padding: 0.75rem 1rem;
  border-top: 1px solid var(--gray-a4); }
.cui-composer > button { min-width: 5.5rem; justify-content: center; }
body:has(a[aria-label="Built with Reflex"]) .cui-sidebar .cui-composer { padding-bottom: 3.5rem; }
body:has(a[aria-label="Built with Reflex"]) :is(.cui-dock-open, .cui-popup-launcher) { bottom: 4rem; }
body:has(a[aria-label="Built with Reflex"]) .cui-popup-panel { bottom: 8rem; }
.cui-input { flex: 1; resize: none; font: inherit; padding: 0.5rem 0.65rem; border-radius: var(--radius-4);
  border: 1px solid var(--gray-a7); background: var(--color-surface); color: var(--gray-12); min-height: 2.5rem; }
.cui-input:focus { outline: 2px solid var(--accent-8); outline-offset: 0; }
.cui-approval-sentence { font-weight: 500; color: var(--gray-12); }
.cui-approval-form, .cui-deny-form { display: flex; flex-direction: column; gap: 0.6rem; margin-top: 0.8rem; }
.cui-approval-fields { border: 1px solid var(--gray-a5); border-radius: var(--radius-4); padding: 0.5rem 0.7rem;
  display: flex; flex-direction: column; gap: 0.5rem; margin: 0; }
.cui-approval-fields legend { font-size: 0.75rem; color: var(--gray-11); padding: 0 0.25rem; }
.cui-approval-field { display: flex; flex-direction: column; gap: 0.2rem; }
.cui-approval-label { font-size: 0.75rem; color: var(--gray-11); }
.cui-approval-name { font-size: 0.8rem; font-weight: 600; font-family: var(--code-font-family, monospace); }
.cui-approval-value { font-family: var(--code-font-family, monospace); font-size: 0.85rem; white-space: pre-wrap;
  overflow-wrap: anywhere; max-height: 10rem; overflow: auto; }
.cui-deny-form { border-top: 1px solid var(--gray-a4); padding-top: 0.8rem; }
.cui-inert-link { text-decoration: underline dotted; }
.cui-image-link::before { content: "🖼 "; }
"""
    + """
/* Markdown: streamdown's own classes are Tailwind's, which an app need not load, so spacing is set here. The resets
   are :where()d (no weight), so that the spacing between blocks below wins over them. */
.cui-md { line-height: 1.55; }
:where(.cui-md) :is(p, ul, ol, pre, blockquote, table, h1, h2, h3, h4, h5, h6, hr, figure) { margin: 0; }
.cui-md > * + *, .cui-md li > * + * { margin-top: 0.75em; }
.cui-md > :is(h1, h2, h3, h4, h5, h6) { margin-top: 1.1em; }
.cui-md > :first-child { margin-top: 0; }
.cui-md > :is(h1, h2, h3, h4, h5, h6) + * { margin-top: 0.35em; }
.cui-md h1, .cui-md h2, .cui-md h3, .cui-md h4, .cui-md h5, .cui-md h6 { font-weight: 600; line-height: 1.3; }
.cui-md h1 { font-size: 1.25rem; } .cui-md h2 { font-size: 1.15rem; } .cui-md h3 { font-size: 1.05rem; }
.cui-md h4, .cui-md h5, .cui-md h6 { font-size: 1rem; }
.cui-md ul { list-style: disc; padding-left: 1.3rem; }
.cui-md ol { list-style: decimal; padding-left: 1.3rem; }
.cui-md li > :is(ul, ol) { margin-top: 0.25em; }
.cui-md li + li { margin-top: 0.25em; }
.cui-md li > p { display: inline; }
.cui-md a { color: var(--accent-11); text-decoration: underline; }
.cui-md blockquote { border-left: 3px solid var(--gray-a6); padding-left: 0.7rem; color: var(--gray-11); }
.cui-md hr { border: none; border-top: 1px solid var(--gray-a5); }
.cui-md code { font-family: var(--code-font-family, monospace); font-size: 0.85em; background: var(--gray-a3);
  border-radius: var(--radius-1); padding: 0.05rem 0.25rem; }
.cui-md pre { overflow-x: auto; }
.cui-md pre code { background: none; padding: 0; display: block; white-space: pre; }
.cui-md img { max-width: 100%; height: auto; border-radius: var(--radius-3); }
.cui-md [data-streamdown="code-block"] { border: 1px solid var(--gray-a5); border-radius: var(--radius-4); overflow: hidden;
  background: var(--gray-a2); }
.cui-md [data-streamdown="code-block-header"] { display: flex; justify-content: space-between; align-items: center;
  font-size: 0.72rem; color: var(--gray-11); padding: 0.25rem 0.5rem; border-bottom: 1px solid var(--gray-a4); }
.cui-md [data-streamdown="code-block-actions"] { display: flex; gap: 0.25rem; }
.cui-md [data-streamdown="code-block-actions"] button { background: none; border: none; cursor: pointer;
  color: var(--gray-11); padding: 0.15rem; display: inline-flex; }
.cui-md [data-streamdown="code-block-actions"] svg { width: 14px; height: 14px; }
.cui-md [data-streamdown="code-block-body"] { padding: 0.5rem 0.6rem; overflow-x: auto; font-size: 0.8rem; }
.cui-md [data-streamdown="table-wrapper"] { overflow-x: auto; }
.cui-md table { border-collapse: collapse; font-size: 0.85rem; }
.cui-md th, .cui-md td { border: 1px solid var(--gray-a5); padding: 0.25rem 0.5rem; text-align: left; }
.cui-md th { background: var(--gray-a3); font-weight: 600; }
"""
)
