// Play mode's state, shared by play.js (the game: moves, clock, hints) and play_colour.js (the
// palette and the colour clues): the puzzle, the position and the inks the grid is drawn in.

export const $ = (id) => document.getElementById(id);
export const INK = {
  paper: "#ffffff", grid: "#b0b0b0", thick: "#404040", clue: "#202020", done: "#b8b8b8",
  fill: "#1f1f1f", mark: "#8a8a8a", cursor: "#2f6db5", hint: "rgba(255, 196, 0, 0.45)",
  hintLine: "rgba(255, 214, 0, 0.22)", wrong: "#d62728",
};

export const game = {
  puzzle: null, text: "", format: "auto", key: "", cells: [], undo: [], redo: [],
  cursor: 0, hint: null, wrong: new Set(), elapsed: 0, since: 0, solved: false,
  stroke: null, lay: null, busy: false,
  // colour play: the palette (null in black and white), the clues as [length, symbol], what
  // a stroke paints (a symbol, '.', '?' or "move") and the ink space paints with
  palette: null, clues: null, paint: "#", ink: "#",
};

/** Line i of the grid as a string: rows first, then columns. */
export function lineOf(i) {
  const { width: w, height: h } = game.puzzle;
  if (i < h) return game.cells.slice(i * w, i * w + w).join("");
  let s = "";
  for (let r = 0; r < h; r++) s += game.cells[r * w + (i - h)];
  return s;
}

/** The grid as row strings (what hint and check send). */
export function rows() {
  const w = game.puzzle.width;
  const out = [];
  for (let i = 0; i < game.cells.length; i += w) out.push(game.cells.slice(i, i + w).join(""));
  return out;
}
