// Nonogram page: read a puzzle, solve it on the server, replay the solver's steps on a canvas.
//
// A step changes some cells (row-major indices) to '#' filled, '.' empty or '?' undone.
// Each cell also remembers how it was set: 0 by line logic outside any guess, 1 while
// probing (tentative), 2 under a guess (depth > 0). Going back restores what a step changed.
//
// A colour puzzle comes with its palette (index 0 the background): clue blocks are
// [length, colour index], solutions and step values palette symbols. A cell shows its colour
// once one is left (a line step may only narrow its cells' colours and show nothing); a cell
// set while probing is drawn faded, one set under a guess with a blue corner.

import { cellSize, drawGrid, fillBox, isPhone, prepare, roomFor, shadeLine, swatch } from "./board.js";
import { api, download, el } from "./util.js";

const $ = (id) => document.getElementById(id);
const COLOURS = {
  paper: "#ffffff", grid: "#b0b0b0", thick: "#404040", clue: "#202020",
  fill: ["#1f1f1f", "#e67e22", "#2f6db5"], dot: ["#777777", "#e67e22", "#2f6db5"],
  focus: "rgba(255, 214, 0, 0.35)", cell: "#d62728",
};
const ORIGIN_ROOT = 0, ORIGIN_PROBE = 1, ORIGIN_GUESS = 2;

const state = {
  text: "", puzzle: null, result: null, steps: [], at: 0, undo: [],
  values: [], origin: [], playing: false, carry: 0, last: 0, overlay: null, which: 0, asked: 0,
  ink: null, boxTouched: false, stale: false,
};

/** symbol -> "#rrggbb" for the inks of a colour puzzle, or null for black and white. */
function inksOf(puzzle) {
  if (!puzzle.palette) return null;
  return Object.fromEntries(puzzle.palette.slice(1).map((c) => [c.symbol, c.rgb]));
}

/** Steps per second for the speed slider: 1, 2, 4, ... 16384. */
function speed() { return 2 ** Number($("speed").value); }

function setMessage(text, error = false) {
  $("message").textContent = text;
  $("message").classList.toggle("error", error);
}

function describe(step, puzzle) {
  const w = puzzle.width;
  const where = (cell) => `row ${Math.floor(cell / w) + 1}, column ${(cell % w) + 1}`;
  const names = puzzle.palette ? Object.fromEntries(puzzle.palette.map((c) => [c.symbol, c.name])) : {};
  const value = (v) => (v === "#" ? "filled" : v === "." ? "empty" : names[v] || v);
  const line = (i) => (i < puzzle.height ? `row ${i + 1}` : `column ${i - puzzle.height + 1}`);
  const cells = (n) => `${n} cell${n === 1 ? "" : "s"}`;
  const narrows = puzzle.palette && !step.cells.length;  // colours taken away, none settled
  switch (step.kind) {
    case "line": return `${step.probing ? "probe: " : ""}line logic on ${line(step.line)} `
      + `${narrows ? "narrows the colours its cells may be" : `fixes ${cells(step.cells.length)}`}`
      + ` (round ${step.round || 1})`;
    case "try": return `probe: suppose ${where(step.cell)} is ${value(step.value)}`;
    case "retract": return `probe undone${step.contradiction ? ": it led to a contradiction" : ""}`;
    case "learn": return `probing proves ${where(step.cell)} is ${value(step.value)}`;
    case "guess": return `guess (depth ${step.depth}): ${where(step.cell)} is `
      + (step.excluded ? `not ${value(step.excluded)}${step.value && step.value !== "?" ? `, so ${value(step.value)}` : ""}`
        : value(step.value));
    case "backtrack": return `backtrack: undo the guesses below depth ${step.depth + 1}`;
    case "solution": return "a solution: every clue is satisfied";
    default: return step.kind;
  }
}

function originOf(step) {
  if (step.probing || step.kind === "try") return ORIGIN_PROBE;
  return step.depth > 0 ? ORIGIN_GUESS : ORIGIN_ROOT;
}

function applyStep(i) {
  const step = state.steps[i];
  const before = step.cells.map((c) => [state.values[c], state.origin[c]]);
  state.undo[i] = before;
  const origin = originOf(step);
  step.cells.forEach((c, k) => {
    state.values[c] = step.values[k];
    state.origin[c] = origin;
  });
}

function revertStep(i) {
  const step = state.steps[i];
  const before = state.undo[i];
  for (let k = step.cells.length - 1; k >= 0; k--) {
    [state.values[step.cells[k]], state.origin[step.cells[k]]] = before[k];
  }
}

function goTo(target) {
  target = Math.max(0, Math.min(state.steps.length, target));
  state.overlay = null;
  while (state.at < target) applyStep(state.at++);
  while (state.at > target) revertStep(--state.at);
  if (state.at === state.steps.length) finish();
  draw();
}

/** At the end of the steps: if the search ended away from a solution, show solution 1. */
function finish() {
  const sol = state.result && state.result.solutions[0];
  if (!sol) return;
  const rows = gridRows(state.values, state.puzzle.width);
  if (rows.join("") !== sol.join("")) state.overlay = sol;
  state.which = 0;
  stop();
}

/** For a puzzle with several solutions: show the other one found. */
function otherSolution() {
  const sols = state.result ? state.result.solutions : [];
  if (sols.length < 2) return;
  stop();
  state.which = state.overlay ? (state.which + 1) % sols.length : 1;
  state.overlay = sols[state.which];
  draw();
}

function gridRows(values, w) {
  const rows = [];
  for (let i = 0; i < values.length; i += w) rows.push(values.slice(i, i + w).join(""));
  return rows;
}

function layout(puzzle) {
  const rowClue = Math.max(1, ...puzzle.rows.map((c) => c.length));
  const colClue = Math.max(1, ...puzzle.cols.map((c) => c.length));
  const avail = Math.min(760, roomFor($("board")));
  const tall = isPhone() ? Infinity : 640 / (puzzle.height + colClue);  // a phone pans down
  const fit = Math.floor(Math.min(avail / (puzzle.width + rowClue * 0.9), tall));
  const cell = cellSize(fit, puzzle.width, rowClue, 3, 26);
  const clues = cell >= 9;
  const left = clues ? Math.ceil(rowClue * cell * 0.9) + 4 : 2;
  const top = clues ? colClue * cell + 4 : 2;
  return { cell, clues, left, top, width: left + puzzle.width * cell + 2, height: top + puzzle.height * cell + 2 };
}

function draw() {
  const puzzle = state.puzzle;
  const canvas = $("board-canvas");
  if (!puzzle) return;
  const lay = layout(puzzle);
  const g = prepare(canvas, lay, COLOURS.paper);
  const { cell, left, top } = lay;
  const w = puzzle.width;
  const step = state.at > 0 ? state.steps[state.at - 1] : null;
  if (step && step.kind === "line" && !state.overlay) shadeLine(g, puzzle, lay, step.line, COLOURS.focus);
  if (lay.clues) drawClues(g, puzzle, lay);
  const overlay = state.overlay;
  for (let i = 0; i < state.values.length; i++) {
    const v = overlay ? overlay[Math.floor(i / w)][i % w] : state.values[i];
    const o = overlay ? ORIGIN_ROOT : state.origin[i];
    const x = left + (i % w) * cell, y = top + Math.floor(i / w) * cell;
    if (v === "#" && !state.ink) {
      g.fillStyle = COLOURS.fill[o];
      g.fillRect(x + 1, y + 1, cell - 1, cell - 1);
    } else if (state.ink && state.ink[v]) {
      g.globalAlpha = o === ORIGIN_PROBE ? 0.4 : 1;
      fillBox(g, x + 1, y + 1, cell - 1, cell - 1, state.ink[v]);
      g.globalAlpha = 1;
      if (o === ORIGIN_GUESS && cell >= 6) {
        g.fillStyle = COLOURS.fill[ORIGIN_GUESS];
        g.beginPath(); g.moveTo(x + 1, y + 1); g.lineTo(x + 1 + cell / 2.5, y + 1); g.lineTo(x + 1, y + 1 + cell / 2.5); g.fill();
      }
    } else if (v === "." && cell >= 6) {
      g.fillStyle = COLOURS.dot[o];
      g.fillRect(x + cell / 2 - 1, y + cell / 2 - 1, 2, 2);
    }
  }
  drawGrid(g, puzzle, lay, COLOURS);
  if (step && step.cell >= 0 && !overlay) {
    g.strokeStyle = COLOURS.cell;
    g.lineWidth = 2;
    g.strokeRect(left + (step.cell % w) * cell + 1, top + Math.floor(step.cell / w) * cell + 1, cell - 2, cell - 2);
  }
  const shown = overlay || gridRows(state.values, w);
  $("board").dataset.rows = shown.join("\n");
  $("board").dataset.layout = [lay.left, lay.top, lay.cell].join(",");
  updateControls(step);
}

function drawClues(g, puzzle, lay) {
  const { cell, left, top } = lay;
  g.fillStyle = COLOURS.clue;
  g.font = `${Math.max(7, Math.floor(cell * 0.55))}px sans-serif`;
  g.textAlign = "center";
  g.textBaseline = "middle";
  if (puzzle.palette) { drawColourClues(g, puzzle, lay); return; }
  puzzle.cols.forEach((clue, c) => {
    clue.forEach((n, k) => {
      g.fillText(String(n), left + c * cell + cell / 2, top - (clue.length - k) * cell + cell / 2);
    });
  });
  g.textAlign = "right";
  puzzle.rows.forEach((clue, r) => {
    g.fillText(clue.join(" "), left - 4, top + r * cell + cell / 2);
  });
}

/** Colour clues: each number on a swatch of its colour, one slot per block. */
function drawColourClues(g, puzzle, lay) {
  const { cell, left, top } = lay;
  const slot = cell * 0.9;
  const number = (block, x, y, w) => {
    swatch(g, x + 1, y + 1, w - 2, cell - 2, puzzle.palette[block[1]].rgb, String(block[0]));
  };
  puzzle.cols.forEach((clue, c) => {
    clue.forEach((b, k) => number(b, left + c * cell, top - 4 - (clue.length - k) * cell, cell));
  });
  puzzle.rows.forEach((clue, r) => {
    clue.forEach((b, k) => number(b, left - 4 - (clue.length - k) * slot, top + r * cell, slot));
  });
}

function updateControls(step) {
  const n = state.steps.length;
  const has = n > 0;
  $("to-start").disabled = !has || state.at === 0;
  $("back").disabled = !has || state.at === 0;
  $("step").disabled = !has || state.at === n;
  $("to-end").disabled = !has || state.at === n;
  $("play").disabled = !has;
  $("play").textContent = state.playing ? "Pause" : "Play";
  let label = has ? `step ${state.at} of ${n}` : "";
  if (step && state.puzzle) label += ` \u2014 ${describe(step, state.puzzle)}`;
  if (state.overlay) label += `${label ? " \u2014 " : ""}showing solution ${state.which + 1} (the search is over)`;
  const sols = state.result ? state.result.solutions.length : 0;
  $("other-solution").hidden = sols < 2;
  $("other-solution").textContent = `Solution ${state.overlay && state.which === 1 ? 1 : 2}`;
  $("step-label").textContent = state.stale ? "(an earlier puzzle, not the one in the box)" : label;
}

/** Grey out (or bring back) the grid and summary: they do not belong to the box's text. */
function setStale(stale) {
  state.stale = stale;
  $("board").classList.toggle("stale", stale);
  $("summary").classList.toggle("stale", stale);
  updateControls(state.at > 0 ? state.steps[state.at - 1] : null);
}

/** After a failure: the previous result no longer answers anything, so it goes (the summary,
 * the replay, the downloads) and its grid stays only greyed out. */
function forget() {
  stop();
  state.result = null;
  state.steps = [];
  state.at = 0;
  $("summary").replaceChildren();
  $("download-svg").disabled = $("download-png").disabled = true;
  setStale(Boolean(state.puzzle));
}

function tick(now) {
  if (!state.playing) return;
  const dt = state.last ? (now - state.last) / 1000 : 0;
  state.last = now;
  state.carry += dt * speed();
  const k = Math.floor(state.carry);
  state.carry -= k;
  if (k > 0) goTo(state.at + k);
  if (state.at >= state.steps.length) { stop(); return; }
  requestAnimationFrame(tick);
}

function play() {
  if (state.at >= state.steps.length) goTo(0);
  state.playing = true;
  state.last = 0;
  state.carry = 1;
  requestAnimationFrame(tick);
  updateControls(state.at ? state.steps[state.at - 1] : null);
}

function stop() {
  state.playing = false;
  $("play").textContent = "Play";
}

function load(puzzle, result, text) {
  stop();
  state.puzzle = puzzle;
  state.text = text;
  setStale(false);
  state.ink = inksOf(puzzle);
  $("watch-area").querySelector(".legend").classList.toggle("colour", Boolean(state.ink));
  state.result = result;
  state.steps = result ? result.steps : [];
  state.undo = new Array(state.steps.length);
  state.at = 0;
  state.overlay = null;
  state.values = new Array(puzzle.width * puzzle.height).fill("?");
  state.origin = new Array(puzzle.width * puzzle.height).fill(ORIGIN_ROOT);
  draw();
  bringIntoSight();
  document.dispatchEvent(new CustomEvent("puzzle-loaded", { detail: { puzzle, solved: Boolean(result) } }));
}

/** On a phone the Solve and Generate buttons sit below the grid: show the new grid. */
function bringIntoSight() {
  const at = $("board").getBoundingClientRect();
  if (isPhone() && at.height && (at.top < 0 || at.bottom > window.innerHeight)) {
    $("board").closest(".output").scrollIntoView({ block: "start" });
  }
}

function summary(result) {
  const dl = $("summary");
  dl.replaceChildren();
  const words = { unique: "unique solution", multiple: "more than one solution", none: "no solution",
    unknown: "not known: the time limit came first" };
  const r = result.rating;
  const pal = result.puzzle.palette;
  const rows = [
    ["Size", `${result.puzzle.width} \u00d7 ${result.puzzle.height}`
      + (pal ? `, ${pal.length - 1} colours` : "")],
    ["Format", result.format],
    ["Status", words[result.status] || result.status],
    ["Rating", !r ? "not rated: the time limit ran out"
      : r.level === null ? "not known: the time limit came before the rating ended"
      : `${r.score}/10 (${r.level}${r.complete ? "" : ", search stopped"})`],
    ["Work", r ? `${r.line_solves} line solves, ${r.probes} probes, ${result.nodes} search nodes`
      : `${result.nodes} search nodes`],
    ["Time", `${(result.seconds * 1000).toFixed(1)} ms`],
    ["Steps", `${result.steps.length}${result.complete ? "" : " (recording stopped; the end shows the solution)"}`],
  ];
  for (const [k, v] of rows) dl.append(el("dt", {}, k), el("dd", {}, v));
  dl.querySelector("dd:nth-of-type(3)").id = "status";
}

/** A solve stopped by the time limit: show the solution it found, else the cells proven. */
function showProven(result) {
  const rows = result.solutions.length ? result.solutions[0] : result.partial;
  state.values = rows.join("").split("");
  draw();
}

async function solve() {
  const text = $("puzzle-text").value;
  setMessage("Solving\u2026");
  $("solve").disabled = true;
  const ask = ++state.asked;
  if (state.puzzle) setStale(true);  // until the answer comes, the grid shown is the old one
  try {
    const result = await api("api/nonogram/solve", { text, format: $("format").value, steps: true });
    if (ask !== state.asked) return;
    load(result.puzzle, result, text);
    summary(result);
    const unknown = result.status === "unknown";  // the time limit came first: still an answer
    if (unknown) showProven(result);
    setMessage(unknown ? (result.solutions.length
      ? "A solution was found within the time limit, but not proven the only one; it is shown."
      : "No answer within the time limit; the cells shown are the ones proven so far.")
      : result.status === "none" ? "This puzzle has no solution."
      : "Solved; replaying the solver's steps (pause, step or go back with the buttons).");
    $("download-svg").disabled = $("download-png").disabled = false;
    if (!unknown) play();
  } catch (err) {
    if (ask !== state.asked) return;
    setMessage(err.message, true);
    forget();
  } finally {
    $("solve").disabled = false;
  }
}

async function generate() {
  setMessage("Generating\u2026");
  try {
    const ask = ++state.asked;
    const out = await api("api/nonogram/generate", {
      width: Number($("gen-width").value), height: Number($("gen-height").value), level: $("gen-level").value,
      picture: $("gen-picture").checked, colours: Number($("gen-colours").value),
    });
    if (ask !== state.asked) return;
    $("puzzle-text").value = out.text;
    $("format").value = "auto";
    load(out.puzzle, null, out.text);
    $("summary").replaceChildren();
    const needs = { line: "line logic", probe: "probing", search: "search" }[out.rating.level];
    const inks = out.puzzle.palette ? ` in ${out.puzzle.palette.length - 1} colours` : "";
    setMessage(`A new ${out.puzzle.width}\u00d7${out.puzzle.height} puzzle${inks} (seed ${out.seed}) with a unique solution; `
      + `it needs ${needs} (rated ${out.rating.score}/10).`);
  } catch (err) {
    setMessage(err.message, true);
  }
}

async function save(kind) {
  try {
    const blob = await api("api/nonogram/render", { text: state.text, format: $("format").value, as: kind, solved: true });
    download(blob, `puzzle.${kind}`);
  } catch (err) {
    setMessage(err.message, true);
  }
}

/** The box's text changed: the grid and summary are stale unless it is their text again. */
function textChanged() {
  if (state.puzzle && !$("solve").disabled) setStale($("puzzle-text").value !== state.text);
}

async function init() {
  $("puzzle-text").addEventListener("focus", () => { state.boxTouched = true; }, { once: true });
  $("puzzle-text").addEventListener("input", textChanged);
  document.addEventListener("puzzle-refused", forget);  // play mode could not read the text
  window.addEventListener("resize", draw);
  $("solve").addEventListener("click", solve);
  $("generate").addEventListener("click", generate);
  $("download-svg").addEventListener("click", () => save("svg"));
  $("download-png").addEventListener("click", () => save("png"));
  $("other-solution").addEventListener("click", otherSolution);
  $("play").addEventListener("click", () => (state.playing ? stop() : play()));
  $("step").addEventListener("click", () => { stop(); goTo(state.at + 1); });
  $("back").addEventListener("click", () => { stop(); goTo(state.at - 1); });
  $("to-start").addEventListener("click", () => { stop(); goTo(0); });
  $("to-end").addEventListener("click", () => { stop(); goTo(state.steps.length); });
  const showSpeed = () => { $("speed-label").textContent = `${speed()} steps/s`; };
  $("speed").addEventListener("input", showSpeed);
  showSpeed();
  $("puzzle-file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    if (file.size > 1024 * 1024) { setMessage("That file is larger than 1 MB.", true); return; }
    $("puzzle-text").value = await file.text();
    textChanged();
    setMessage(`Loaded ${file.name}; press Solve.`);
  });
  try {
    const { formats } = await api("api/nonogram/formats");
    $("format").replaceChildren(...formats.map((f) => el("option", { value: f }, f)));
    if (!state.boxTouched && !$("puzzle-text").value.trim()) await openExample();
  } catch (err) {
    setMessage(err.message, true);
  }
}

/** Open on a small example, ready to solve or play (unless a puzzle is already there, or the
 * box was touched while the example was on its way: it would land in the middle of typing). */
async function openExample() {
  const out = await api("api/nonogram/example");
  if (state.boxTouched || $("puzzle-text").value.trim()) return;
  $("puzzle-text").value = out.text;
  load(out.puzzle, null, out.text);
  setMessage("An example puzzle: press Solve to watch the solver, or Play to solve it yourself.");
}

init();
