// Colour play: the palette to paint with (a swatch per colour, keys 1-9, then empty, clear and
// move), the clues drawn on swatches of their colours, and when a colour grid is solved.
// play.js calls these when its puzzle has a palette; the game's state is play_state.js's.

import { outlineOf, swatch, textOn } from "./board.js";
import { el } from "./util.js";
import { blocks, doneBlocks } from "./clues.js";
import { $, INK, game, lineOf } from "./play_state.js";

export const COLOUR_HELP = "Pick a colour (or \u2715 empty, ? clear) and click or drag to paint; "
  + "right-click or shift-click marks a cell empty; click again to clear; \u2725 pans a grid larger "
  + "than its box. "
  + "Keys: arrows, 1-9 paint that colour, space the last colour, x empty, backspace, h for a hint, "
  + "a to apply it, Ctrl+Z / Ctrl+Y.";
export const COLOUR_LABEL =
  "the puzzle grid: arrow keys move, 1-9 paint a colour, space the last one, x marks, backspace clears";

/** symbol -> "#rrggbb" of a colour puzzle's inks. */
export function inks() {
  return Object.fromEntries(game.palette.slice(1).map((c) => [c.symbol, c.rgb]));
}

/** Every line's blocks match its colour clue (unknown cells count as empty). */
export function colourSolved() {
  return game.clues.every((clue, i) => {
    const got = blocks(lineOf(i).replace(/\?/g, "."));
    return got.length === clue.length && got.every(([n, s], k) => n === clue[k][0] && s === clue[k][1]);
  });
}

/** Colour clues: each number on a swatch of its colour (as the solver's page and the printed
 * pictures draw them), a finished block faded; an empty line's 0 in plain ink. */
export function drawColourClues(g, lay) {
  const p = game.puzzle;
  const { cell, left, top } = lay;
  const slot = cell * 0.9;
  const rgb = Object.fromEntries(game.palette.map((c) => [c.symbol, c.rgb]));
  const number = (i, clue, at) => {
    const line = lineOf(i);
    if (!clue.length) {
      const [x, y, w] = at(0, 1);
      g.fillStyle = line.includes("?") ? INK.clue : INK.done;
      g.fillText("0", x + w / 2, y + cell / 2);
      return;
    }
    const done = doneBlocks(line, clue);
    clue.forEach(([n, s], k) => {
      const [x, y, w] = at(k, clue.length);
      g.globalAlpha = done[k] ? 0.3 : 1;
      swatch(g, x + 1, y + 1, w - 2, cell - 2, rgb[s], String(n));
    });
    g.globalAlpha = 1;
  };
  p.cols.forEach((_, c) => {
    number(p.height + c, game.clues[p.height + c], (k, n) => [left + c * cell, top - 4 - (n - k) * cell, cell]);
  });
  p.rows.forEach((_, r) => {
    number(r, game.clues[r], (k, n) => [left - 4 - (n - k) * slot, top + r * cell, slot]);
  });
}

/** Choose what a stroke paints (colour play): a colour (also the ink of space and Enter),
 * '.' to mark empty, '?' to clear, or "move". */
export function choose(paint) {
  game.paint = paint;
  if (paint !== "." && paint !== "?" && paint !== "move") game.ink = paint;
  for (const b of $("play-palette").children) b.setAttribute("aria-pressed", String(b.dataset.paint === paint));
  $("play-canvas").classList.toggle("moving", paint === "move");
}

/** The palette to paint with: a swatch per colour (its key, 1-9, written on it in black or
 * white, a light colour outlined), then empty, clear and move. */
function buildPalette() {
  const box = $("play-palette");
  const button = (paint, text, title) => {
    const b = el("button", { type: "button", class: "paint", "data-paint": paint, title, "aria-pressed": "false" }, text);
    b.addEventListener("click", () => choose(paint));
    return b;
  };
  const swatches = game.palette.slice(1).map((c, i) => {
    const b = button(c.symbol, i < 9 ? String(i + 1) : "", `${c.name}${i < 9 ? ` (key ${i + 1})` : ""}`);
    b.setAttribute("aria-label", c.name);
    b.style.background = c.rgb;
    b.style.color = textOn(c.rgb);
    b.style.borderColor = outlineOf(c.rgb) || c.rgb;
    return b;
  });
  box.replaceChildren(...swatches, button(".", "\u2715", "empty: the background (key x)"),
    button("?", "?", "clear: not yet decided (Backspace)"), button("move", "\u2725", "move: a finger pans the grid"));
  choose(game.palette[1].symbol);
}

/** Set up colour play on a colour puzzle: its clues as [length, symbol] and the palette. */
export function startColour(puzzle) {
  const pal = puzzle.palette;
  const symbol = (b) => [b[0], pal[b[1]].symbol];
  game.clues = [...puzzle.rows, ...puzzle.cols].map((clue) => clue.map(symbol));
  buildPalette();
}
