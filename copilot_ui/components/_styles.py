"""The copilot's styles, shipped with its components so that an app needs no stylesheet of its own.

Every rule is scoped under a `cui-` class: the app's own elements are never styled. Colours come
from the Radix theme's variables, so the copilot follows the app's accent colour, radius and
light or dark mode.
"""

SIDEBAR_CSS = (
    """
.cui-sidebar { display: flex; flex-direction: column; height: 100vh; position: sticky; top: 0;
  border-left: 1px solid var(--gray-a5); background: var(--color-panel-solid); flex-shrink: 0; }
.cui-header { padding: 0.75rem 1rem; border-bottom: 1px solid var(--gray-a4); }
.cui-conversation { flex: 1; display: flex; flex-direction: column; gap: 0.6rem; padding: 1rem;
  overflow-y: auto; min-height: 0; overflow-anchor: auto; }
.cui-welcome { margin: auto 0; text-align: center; }
.cui-sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.cui-user { align-self: flex-end; max-width: 85%; background: var(--accent-9); color: var(--accent-contrast);
  padding: 0.5rem 0.75rem; border-radius: 0.9rem 0.9rem 0.2rem 0.9rem; overflow-wrap: anywhere; }
.cui-user[data-queued="true"] { opacity: 0.7; }
.cui-queued { display: block; font-size: 0.7rem; opacity: 0.85; text-align: right; }
.cui-reply { align-self: flex-start; max-width: 100%; min-width: 0; color: var(--gray-12); line-height: 1.5;
  overflow-wrap: anywhere; }
.cui-plain { white-space: pre-wrap; overflow-wrap: anywhere; }
.cui-cut { display: flex; gap: 0.5rem; align-items: center; font-size: 0.75rem; color: var(--gray-11);
  margin-top: 0.25rem; }
.cui-show-all { font: inherit; color: var(--accent-11); background: none; border: 1px solid var(--accent-a7);
  border-radius: 0.4rem; padding: 0.1rem 0.5rem; cursor: pointer; }
.cui-status { padding-left: 0.1rem; }
.cui-notice { font-size: 0.8rem; color: var(--gray-11); }
.cui-jump { position: sticky; bottom: 0.25rem; order: 10000; align-self: center; font: inherit; font-size: 0.8rem;
  padding: 0.3rem 0.8rem; border-radius: 999px; border: 1px solid var(--gray-a6); background: var(--color-panel-solid);
  color: var(--gray-12); box-shadow: 0 2px 8px var(--black-a4); cursor: pointer; z-index: 1; }
.cui-older { align-self: center; font-size: 0.8rem; color: var(--accent-11); background: none; border: none;
  cursor: pointer; padding: 0.25rem; }
.cui-error-body { display: flex; flex-direction: column; gap: 0.4rem; align-items: flex-start; }
.cui-reasoning { font-size: 0.85rem; color: var(--gray-11); }
.cui-reasoning > summary { cursor: pointer; }
.cui-reasoning-text { border-left: 2px solid var(--gray-a5); padding-left: 0.6rem; margin-top: 0.3rem; }
.cui-tool-card { border: 1px solid var(--gray-a5); border-radius: 0.6rem; padding: 0.5rem 0.65rem;
  background: var(--gray-a2); display: flex; flex-direction: column; gap: 0.35rem; font-size: 0.85rem; min-width: 0; }
.cui-tool-card details > summary { cursor: pointer; font-size: 0.75rem; color: var(--gray-11); }
.cui-tool-pre { margin: 0; padding: 0.35rem 0.5rem; background: var(--gray-a3); border-radius: 0.4rem;
  font-family: var(--code-font-family, monospace); font-size: 0.78rem; max-height: 12rem; overflow: auto; }
.cui-question { font-weight: 500; }
.cui-answer { display: flex; flex-direction: column; gap: 0.4rem; }
.cui-answer-row { display: flex; gap: 0.5rem; align-items: flex-end; }
.cui-composer { display: flex; gap: 0.5rem; align-items: flex-end; padding: 0.75rem 1rem;
  border-top: 1px solid var(--gray-a4); }
.cui-input { flex: 1; resize: none; font: inherit; padding: 0.5rem 0.65rem; border-radius: 0.5rem;
  border: 1px solid var(--gray-a7); background: var(--color-surface); color: var(--gray-12); min-height: 2.5rem; }
.cui-input:focus { outline: 2px solid var(--accent-8); outline-offset: 0; }
.cui-approval-sentence { font-weight: 500; color: var(--gray-12); }
.cui-approval-form, .cui-deny-form { display: flex; flex-direction: column; gap: 0.6rem; margin-top: 0.8rem; }
.cui-approval-fields { border: 1px solid var(--gray-a5); border-radius: 0.5rem; padding: 0.5rem 0.7rem;
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
.cui-md > * + * { margin-top: 0.5rem; }
.cui-md p { margin: 0; }
.cui-md h1, .cui-md h2, .cui-md h3, .cui-md h4, .cui-md h5, .cui-md h6 { font-weight: 600; line-height: 1.3;
  margin: 0.6rem 0 0.2rem; }
.cui-md h1 { font-size: 1.25rem; } .cui-md h2 { font-size: 1.15rem; } .cui-md h3 { font-size: 1.05rem; }
.cui-md h4, .cui-md h5, .cui-md h6 { font-size: 1rem; }
.cui-md ul { list-style: disc; padding-left: 1.3rem; margin: 0; }
.cui-md ol { list-style: decimal; padding-left: 1.3rem; margin: 0; }
.cui-md li + li { margin-top: 0.15rem; }
.cui-md a { color: var(--accent-11); text-decoration: underline; }
.cui-md blockquote { border-left: 3px solid var(--gray-a6); padding-left: 0.7rem; color: var(--gray-11); margin: 0; }
.cui-md hr { border: none; border-top: 1px solid var(--gray-a5); }
.cui-md code { font-family: var(--code-font-family, monospace); font-size: 0.85em; background: var(--gray-a3);
  border-radius: 0.25rem; padding: 0.05rem 0.25rem; }
.cui-md pre { margin: 0; overflow-x: auto; }
.cui-md pre code { background: none; padding: 0; display: block; white-space: pre; }
.cui-md img { max-width: 100%; height: auto; border-radius: 0.4rem; }
.cui-md [data-streamdown="code-block"] { border: 1px solid var(--gray-a5); border-radius: 0.5rem; overflow: hidden;
  background: var(--gray-a2); margin-top: 0.5rem; }
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
