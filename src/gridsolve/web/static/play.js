// Play mode: solve the nonogram by hand on a canvas, with hints and checks from the server.
//
// Cells are '?' unknown, '#' filled, '.' marked empty; in a colour puzzle a cell is one of
// its palette's symbols ('.' the background, marked empty) or '?', and the palette under the
// tools chooses what a stroke paints (keys 1-9 paint the colours at the cursor). A stroke
// (click or drag along one row or column) sets every cell it crosses to one value and is one
// step of undo. The position, the clock and the puzzle text are kept in localStorage, keyed
// by the clues, so a reload (or coming back to the puzzle later) continues where play stopped.
// The state is play_state.js's; the colour palette and colour clues are play_colour.js's.

import { cellSize, drawGrid, fillBox, prepare, roomFor, shadeLine } from "./board.js";
import { api } from "./util.js";
import { doneBlocks, runs } from "./clues.js";
import { $, INK, game, lineOf, rows } from "./play_state.js";
import { COLOUR_HELP, COLOUR_LABEL, choose, colourSolved, drawColourClues, inks, startColour } from "./play_colour.js";

const STORE = "gridsolve-play:";
const HELP = {
  bw: "Click or drag to fill; right-click, shift-click or the mark tool to mark a cell empty; "
    + "click again to clear; the move tool pans a grid larger than its box. Keys: arrows, space, x, "
    + "backspace, h for a hint, a to apply it, Ctrl+Z / Ctrl+Y.",
  colour: COLOUR_HELP,
};
const LAST = "gridsolve-play-last";

function message(text, error = false) {
  $("play-message").textContent = text;
  $("play-message").classList.toggle("error", error);
}

/** Solved when the filled cells match every clue (unknown cells count as empty). */
function isSolved() {
  const { rows: rc, cols: cc, height: h } = game.puzzle;
  if (game.palette) return colourSolved() && h > 0;
  return [...rc, ...cc].every((clue, i) => {
    const got = runs(lineOf(i).replace(/\?/g, "."));
    return got.length === clue.length && got.every((n, k) => n === clue[k]);
  }) && h > 0;
}

function layout() {
  const p = game.puzzle;
  const rowClue = Math.max(1, ...p.rows.map((c) => c.length));
  const colClue = Math.max(1, ...p.cols.map((c) => c.length));
  const avail = Math.min(760, roomFor($("play-board")));
  const fit = Math.floor(Math.min(avail / (p.width + rowClue * 0.9), 640 / (p.height + colClue)));
  const cell = cellSize(fit, p.width, rowClue, 12, 30);
  const left = Math.ceil(rowClue * cell * 0.9) + 6, top = colClue * cell + 6;
  return { cell, left, top, width: left + p.width * cell + 2, height: top + p.height * cell + 2 };
}

function draw() {
  const p = game.puzzle;
  if (!p) return;
  const canvas = $("play-canvas");
  const lay = game.lay = layout();
  const g = prepare(canvas, lay, INK.paper);
  const { cell, left, top } = lay;
  const w = p.width;
  const hint = game.hint;
  if (hint && hint.line >= 0) shadeLine(g, p, lay, hint.line, INK.hintLine);
  drawClues(g, lay);
  const ink = game.palette ? inks() : { "#": INK.fill };
  const mark = (x, y, m) => {
    g.strokeStyle = INK.mark;
    g.lineWidth = 1.5;
    g.beginPath();
    g.moveTo(x + m, y + m); g.lineTo(x + cell - m, y + cell - m);
    g.moveTo(x + cell - m, y + m); g.lineTo(x + m, y + cell - m);
    g.stroke();
  };
  for (let i = 0; i < game.cells.length; i++) {
    const x = left + (i % w) * cell, y = top + Math.floor(i / w) * cell;
    const v = game.cells[i];
    if (ink[v]) fillBox(g, x + 1, y + 1, cell - 1, cell - 1, ink[v]);
    else if (v === ".") mark(x, y, cell * 0.3);
  }
  if (hint) {
    for (const c of hint.cells) {
      const x = left + c.col * cell, y = top + c.row * cell;
      g.fillStyle = INK.hint;
      g.fillRect(x + 1, y + 1, cell - 1, cell - 1);
      if (!game.palette) continue;  // in colour: a small swatch of the colour the hint sets
      if (ink[c.value]) fillBox(g, x + cell * 0.3, y + cell * 0.3, cell * 0.4, cell * 0.4, ink[c.value]);
      else mark(x, y, cell * 0.38);
    }
  }
  drawGrid(g, p, lay, INK);
  // outlines with a white edge, to be seen on every colour (the red one on a red cell too)
  const ring = (i, colour, inset) => {
    const x = left + (i % w) * cell + inset, y = top + Math.floor(i / w) * cell + inset;
    g.lineWidth = 4.5;
    g.strokeStyle = INK.paper;
    g.strokeRect(x, y, cell - 2 * inset, cell - 2 * inset);
    g.lineWidth = 2.5;
    g.strokeStyle = colour;
    g.strokeRect(x, y, cell - 2 * inset, cell - 2 * inset);
  };
  for (const i of game.wrong) ring(i, INK.wrong, 2.5);
  if (document.activeElement === canvas) ring(game.cursor, INK.cursor, 2.5);
  const board = $("play-board");
  board.dataset.rows = rows().join("\n");
  board.dataset.wrong = [...game.wrong].sort((a, b) => a - b).join(",");
  board.dataset.hint = hint ? hint.cells.map((c) => c.row * w + c.col).join(",") : "";
  board.dataset.solved = String(game.solved);
  board.dataset.layout = [lay.left, lay.top, lay.cell].join(",");
  $("play-undo").disabled = !game.undo.length;
  $("play-redo").disabled = !game.redo.length;
  $("play-apply").disabled = !(hint && hint.cells.length);
}

function drawClues(g, lay) {
  const p = game.puzzle;
  const { cell, left, top } = lay;
  g.font = `${Math.max(9, Math.floor(cell * 0.55))}px sans-serif`;
  g.textBaseline = "middle";
  g.textAlign = "center";
  if (game.palette) { drawColourClues(g, lay); return; }
  p.cols.forEach((clue, c) => {
    const done = doneBlocks(lineOf(p.height + c), clue);
    const shown = clue.length ? clue : [0];
    shown.forEach((n, k) => {
      g.fillStyle = (clue.length ? done[k] : !lineOf(p.height + c).includes("?")) ? INK.done : INK.clue;
      g.fillText(String(n), left + c * cell + cell / 2, top - 4 - (shown.length - k) * cell + cell / 2);
    });
  });
  g.textAlign = "right";
  p.rows.forEach((clue, r) => {
    const done = doneBlocks(lineOf(r), clue);
    const shown = clue.length ? clue : [0];
    let x = left - 6;
    for (let k = shown.length - 1; k >= 0; k--) {
      g.fillStyle = (clue.length ? done[k] : !lineOf(r).includes("?")) ? INK.done : INK.clue;
      const text = String(shown[k]);
      g.fillText(text, x, top + r * cell + cell / 2);
      x -= g.measureText(text).width + cell * 0.3;
    }
  });
}

// --- moves, undo, saving -------------------------------------------------------------------

/** Set cells (a list of [index, value]) as one undoable move. */
function apply(changes) {
  const move = changes.filter(([i, v]) => game.cells[i] !== v).map(([i, v]) => [i, game.cells[i], v]);
  if (!move.length) return;
  for (const [i, , v] of move) game.cells[i] = v;
  game.undo.push(move);
  game.redo = [];
  changed();
}

function undo() {
  const move = game.undo.pop();
  if (!move) return;
  for (const [i, before] of move) game.cells[i] = before;
  game.redo.push(move);
  changed();
}

function redo() {
  const move = game.redo.pop();
  if (!move) return;
  for (const [i, , after] of move) game.cells[i] = after;
  game.undo.push(move);
  changed();
}

function changed() {
  game.wrong.clear();
  game.hint = null;
  const was = game.solved;
  game.solved = isSolved();
  if (game.solved && !was) {
    tickClock();
    message(`Solved in ${clock(game.elapsed)}. Well done!`);
  }
  save();
  draw();
}

function save() {
  if (!game.key) return;
  try {
    localStorage.setItem(STORE + game.key, JSON.stringify({ cells: game.cells.join(""), elapsed: game.elapsed, solved: game.solved }));
    localStorage.setItem(LAST, JSON.stringify({ text: game.text, format: game.format }));
  } catch (_) { /* storage full or off: play goes on */ }
}

function restore() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE + game.key) || "null");
    if (saved && saved.cells.length === game.cells.length) {
      game.cells = [...saved.cells];
      game.elapsed = saved.elapsed || 0;
      game.solved = Boolean(saved.solved);
      return true;
    }
  } catch (_) { /* a damaged entry: start afresh */ }
  return false;
}

// --- the clock -----------------------------------------------------------------------------

function clock(seconds) {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tickClock() {
  const now = Date.now();
  if (game.puzzle && !game.solved && game.since && !document.hidden) game.elapsed += (now - game.since) / 1000;
  game.since = now;
  if (game.puzzle && !game.solved) save();
  $("play-timer").textContent = game.puzzle ? clock(game.elapsed) : "";
}

// --- pointer and keyboard ------------------------------------------------------------------

function cellAt(ev) {
  const lay = game.lay;
  const rect = $("play-canvas").getBoundingClientRect();
  const c = Math.floor((ev.clientX - rect.left - lay.left) / lay.cell);
  const r = Math.floor((ev.clientY - rect.top - lay.top) / lay.cell);
  if (r < 0 || c < 0 || r >= game.puzzle.height || c >= game.puzzle.width) return -1;
  return r * game.puzzle.width + c;
}

/** What a stroke paints: a cell value, or "move" (a finger pans the grid's box). */
function tool() {
  if (game.palette) return game.paint;
  const t = $("play-tool").dataset.tool;
  return t === "move" ? "move" : t === "mark" ? "." : "#";
}

/** The tool button's next tool: fill, mark, then move (a finger pans the grid's box). */
const TOOLS = { fill: ["mark", "Tool: mark \u2715"], mark: ["move", "Tool: move \u2725"], move: ["fill", "Tool: fill \u25A0"] };

function nextTool() {
  const t = $("play-tool");
  const [next, words] = TOOLS[t.dataset.tool] || TOOLS.move;
  t.dataset.tool = next;
  t.textContent = words;
  $("play-canvas").classList.toggle("moving", next === "move");
}

function startStroke(ev) {
  if (!game.puzzle || tool() === "move") return;
  const i = cellAt(ev);
  if (i < 0) return;
  ev.preventDefault();
  $("play-canvas").focus();
  $("play-canvas").setPointerCapture(ev.pointerId);
  const want = ev.button === 2 || ev.shiftKey ? "." : tool();
  const value = game.cells[i] === want ? "?" : want;
  game.stroke = { start: i, value, cells: [i], axis: null };
  game.cursor = i;
  paintStroke();
}

function moveStroke(ev) {
  const s = game.stroke;
  if (!s) return;
  const i = cellAt(ev);
  if (i < 0 || s.cells.includes(i)) return;
  const w = game.puzzle.width;
  const [r0, c0, r, c] = [Math.floor(s.start / w), s.start % w, Math.floor(i / w), i % w];
  s.axis = s.axis || (r === r0 ? "row" : c === c0 ? "col" : null);
  if (!s.axis) return;
  const from = s.axis === "row" ? c0 : r0, to = s.axis === "row" ? c : r;
  s.cells = [];
  for (let k = Math.min(from, to); k <= Math.max(from, to); k++) {
    s.cells.push(s.axis === "row" ? r0 * w + k : k * w + c0);
  }
  game.cursor = i;
  paintStroke();
}

/** Show the stroke so far (applied for real when it ends). */
function paintStroke() {
  const s = game.stroke;
  const saved = game.cells.slice();
  for (const i of s.cells) game.cells[i] = s.value;
  draw();
  game.cells = saved;
}

function endStroke() {
  const s = game.stroke;
  if (!s) return;
  game.stroke = null;
  apply(s.cells.map((i) => [i, s.value]));
  draw();
}

function onKey(ev) {
  if (!game.puzzle) return;
  const { width: w, height: h } = game.puzzle;
  const r = Math.floor(game.cursor / w), c = game.cursor % w;
  const ctrl = ev.ctrlKey || ev.metaKey;
  const set = (v) => apply([[game.cursor, game.cells[game.cursor] === v ? "?" : v]]);
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[ev.key]) {
    const [dr, dc] = moves[ev.key];
    game.cursor = Math.max(0, Math.min(h - 1, r + dr)) * w + Math.max(0, Math.min(w - 1, c + dc));
    draw();
  } else if (ctrl && ev.key.toLowerCase() === "z") {
    if (ev.shiftKey) redo(); else undo();
  } else if (ctrl && ev.key.toLowerCase() === "y") {
    redo();
  } else if (game.palette && /^[1-9]$/.test(ev.key) && Number(ev.key) < game.palette.length) {
    choose(game.palette[Number(ev.key)].symbol);
    set(game.ink);
  } else if (ev.key === " " || ev.key === "Enter" || ev.key === "f") {
    set(game.ink);
  } else if (ev.key === "x" || ev.key === ".") {
    set(".");
  } else if (ev.key === "Backspace" || ev.key === "Delete") {
    apply([[game.cursor, "?"]]);
  } else if (ev.key === "h") {
    askHint();
  } else if (ev.key === "a") {
    applyHint();
  } else {
    return;
  }
  ev.preventDefault();
}

// --- hints and checks ----------------------------------------------------------------------

async function ask(path) {
  game.busy = true;
  try {
    return await api(path, { text: game.text, format: game.format, grid: rows() });
  } finally {
    game.busy = false;
  }
}

async function askHint() {
  if (!game.puzzle || game.busy) return;
  message("Thinking\u2026");
  try {
    const out = await ask("api/nonogram/hint");
    game.wrong = new Set(out.wrong.map((c) => c.row * game.puzzle.width + c.col));
    game.hint = out.cells.length ? out : null;
    const extra = out.kind === "mistake" ? " Press Check to see which cells." : out.cells.length ? " Press Apply to fill it in." : "";
    message(`Hint (${out.kind}): ${out.reason}.${extra}`);
    if (out.kind === "mistake") game.wrong.clear();
    draw();
  } catch (err) {
    message(err.message, true);
    dropAnswer();
  }
}

/** After a failed hint or check: the outlines and hint of an earlier answer go too. */
function dropAnswer() {
  game.hint = null;
  game.wrong.clear();
  draw();
}

function applyHint() {
  const hint = game.hint;
  if (!hint) return;
  apply(hint.cells.map((c) => [c.row * game.puzzle.width + c.col, c.value]));
  if (!game.solved) message("");
}

async function check() {
  if (!game.puzzle || game.busy) return;
  try {
    const out = await ask("api/nonogram/check");
    game.hint = null;
    game.wrong = new Set(out.wrong.map((c) => c.row * game.puzzle.width + c.col));
    const n = game.wrong.size;
    message(out.kind === "ok" ? "No mistakes so far."
      : out.kind === "mistake" ? (n ? `${n} wrong cell${n === 1 ? "" : "s"}, outlined in red.` : `${out.reason}.`)
        : out.kind === "solved" ? `Solved: ${out.reason}.` : `${out.reason}.`, out.kind === "mistake");
    draw();
  } catch (err) {
    message(err.message, true);
    dropAnswer();
  }
}

// --- starting a game -----------------------------------------------------------------------

function keyOf(puzzle) {
  const s = JSON.stringify(puzzle.palette ? [puzzle.rows, puzzle.cols, puzzle.palette] : [puzzle.rows, puzzle.cols]);
  let h = 5381;
  for (let i = 0; i < s.length; i++) h = ((h * 33) ^ s.charCodeAt(i)) >>> 0;
  return `${puzzle.width}x${puzzle.height}-${h.toString(36)}`;
}

function start(puzzle, text, format) {
  Object.assign(game, {
    puzzle, text, format, key: keyOf(puzzle), undo: [], redo: [], cursor: 0, hint: null,
    wrong: new Set(), elapsed: 0, since: Date.now(), solved: false,
  });
  game.cells = new Array(puzzle.width * puzzle.height).fill("?");
  const pal = game.palette = puzzle.palette || null;
  $("play-tool").hidden = Boolean(pal);
  $("play-palette").hidden = !pal;
  $("play-help").textContent = pal ? HELP.colour : HELP.bw;
  $("play-canvas").setAttribute("aria-label", pal ? COLOUR_LABEL
    : "the puzzle grid: arrow keys move, space fills, x marks, backspace clears");
  if (pal) {
    startColour(puzzle);
  } else {
    game.clues = null;
    game.ink = "#";
    $("play-canvas").classList.toggle("moving", $("play-tool").dataset.tool === "move");
  }
  const again = restore();
  message(again ? "Welcome back: your position was kept."
    : pal ? "Pick a colour below, then click or drag to paint; right-click or shift-click marks empty."
      : "Click or drag to fill; right-click, shift-click or the Mark tool to mark empty.");
  save();
  tickClock();
  draw();
}

async function play(_ev, kept = null) {
  const text = kept ? kept.text : $("puzzle-text").value;
  const format = kept ? kept.format : $("format").value || "auto";
  try {
    const { puzzle } = await api("api/nonogram/parse", { text, format });
    showMode("play");
    start(puzzle, text, format);
  } catch (err) {
    showMode("watch");
    const box = $("message");
    box.textContent = err.message;
    box.classList.add("error");
    document.dispatchEvent(new CustomEvent("puzzle-refused"));
  }
}

function restart() {
  if (!game.puzzle) return;
  try { localStorage.removeItem(STORE + game.key); } catch (_) { /* nothing kept */ }
  start(game.puzzle, game.text, game.format);
}

function showMode(mode) {
  $("watch-area").hidden = mode !== "watch";
  $("play-area").hidden = mode !== "play";
  $("mode-watch").classList.toggle("active", mode === "watch");
  $("mode-play").classList.toggle("active", mode === "play");
}

function init() {
  const canvas = $("play-canvas");
  canvas.addEventListener("pointerdown", startStroke);
  canvas.addEventListener("pointermove", moveStroke);
  canvas.addEventListener("pointerup", endStroke);
  canvas.addEventListener("pointercancel", endStroke);
  canvas.addEventListener("contextmenu", (ev) => ev.preventDefault());
  canvas.addEventListener("keydown", onKey);
  canvas.addEventListener("focus", draw);
  canvas.addEventListener("blur", draw);
  $("mode-play").addEventListener("click", play);
  $("mode-watch").addEventListener("click", () => showMode("watch"));
  $("play-hint").addEventListener("click", askHint);
  $("play-apply").addEventListener("click", applyHint);
  $("play-check").addEventListener("click", check);
  $("play-undo").addEventListener("click", undo);
  $("play-redo").addEventListener("click", redo);
  $("play-restart").addEventListener("click", restart);
  $("play-tool").addEventListener("click", nextTool);
  // a new puzzle (generated or solved) while playing: play it
  document.addEventListener("puzzle-loaded", (ev) => {
    if (ev.detail.solved) showMode("watch");
    else if (!$("play-area").hidden) play();
  });
  setInterval(tickClock, 1000);
  document.addEventListener("visibilitychange", () => { game.since = Date.now(); save(); });
  window.addEventListener("resize", draw);
  try {
    const last = JSON.parse(localStorage.getItem(LAST) || "null");
    if (last && last.text) {
      $("puzzle-text").value = last.text;
      play(null, last);
    }
  } catch (_) { /* nothing kept */ }
}

init();
