// A plain text of any length, shown without blocking the page: used by CuiText (cui_text.jsx).
//
// In one block, a long text is laid out all at once, in one task: a one-megabyte line took 0.2-0.3 s
// here, and a second on a machine four times slower. So a text longer than a piece is laid out as
// pieces of a few thousand characters, cut at line ends where there are some, each a block of its
// own that the browser skips while it is off screen (`content-visibility: auto`): it lays out only
// the pieces in view, however long the text. The pieces mount at once: skipped, they cost next to
// nothing (mounting a batch per animation frame was slower here). Each piece is a text node:
// whatever the text holds is never parsed.
import React, { memo, useMemo } from "react";

const PIECE = 4000; // characters per piece, at most
const CHARS_PER_LINE = 40; // a guess of a wrapped line's length in a sidebar, for a piece's height until it is first shown

export const PlainText = memo(function PlainText({ text }) {
  const pieces = useMemo(() => piecesOf(text), [text]);
  if (pieces.length <= 1) return <div className="cui-plain">{text}</div>;
  return (
    <div className="cui-plain">
      {pieces.map(({ piece, style }, index) => (
        // The index is the key: as a text grows, its earlier pieces stay as they are.
        <div key={index} style={style}>
          {piece}
        </div>
      ))}
    </div>
  );
});

// Each piece ends at a line end, else after a space, else at PIECE characters (never inside a surrogate pair);
// joined, the pieces are the text, so the page holds every character of it.
const piecesOf = (text) => {
  const pieces = [];
  for (let start = 0; start < text.length; ) {
    const end = pieceEnd(text, start);
    const piece = text.slice(start, end);
    pieces.push({ piece, style: pieceStyle(piece) });
    start = end;
  }
  return pieces;
};

const pieceEnd = (text, start) => {
  const limit = start + PIECE;
  if (limit >= text.length) return text.length;
  const least = start + PIECE / 2; // a piece is never much shorter than PIECE
  const end = text.slice(least, limit); // searched alone: lastIndexOf on the text would scan back to its start
  const newline = end.lastIndexOf("\n");
  if (newline !== -1) return least + newline + 1;
  const space = end.lastIndexOf(" ");
  if (space !== -1) return least + space + 1;
  return isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
};

const isHighSurrogate = (code) => code >= 0xd800 && code <= 0xdbff;

// Until the browser has shown a piece (then it remembers its size), its height is guessed from its lines;
// its width is the widest there is, so that a reply sized by its content takes the width it will have.
const pieceStyle = (piece) => {
  let lines = 0;
  for (let start = 0; start < piece.length; ) {
    const newline = piece.indexOf("\n", start);
    const end = newline === -1 ? piece.length : newline;
    lines += Math.max(1, Math.ceil((end - start) / CHARS_PER_LINE));
    start = end + 1;
  }
  return { contentVisibility: "auto", containIntrinsicSize: `auto 100vw auto ${lines}lh` };
};
