"""A self-contained HTML player for a solve: canvas, step/back buttons, speed, scrubbing.

No external URLs: the data (layout, clues, one entry per step with its changes, highlights
and caption) is inlined as JSON and drawn by a small inline script. A colour puzzle's cells
are drawn in their colours and its clue numbers on swatches, as its pictures draw them
(``render.layout``).
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gridsolve.nonogram.model import UNKNOWN, AnyPuzzle, colour_puzzle_of
from gridsolve.nonogram.watch.frames import MARKS, caption, highlights
from gridsolve.nonogram.render.layout import COLOURS, Layout, layout, outline_width

if TYPE_CHECKING:
    from gridsolve.nonogram.watch.trace import Step

__all__ = ["animation_html", "player_data"]

CODE = {"?": 0, ".": 1, "#": 2}
#: The most entries the player holds over all its steps: changed cells, changes of held
#: highlights (a guess, a probe's cells) and the steps' own highlights. Held highlights are
#: kept as changes (each step listed every held cell: a 100x100 checkerboard's page stopped
#: at step 396), so this is about what the steps did; past it the player stops, and says so
#: (about 20 MB of page, written in about 2 s).
PLAYER_CELLS = 2_000_000
LEGEND = {"changed": "fixed by a line", "probe": "probe (tentative)", "learned": "learned by probing",
          "guess": "guessed", "undone": "undone"}


def colour_data(lay: Layout) -> dict[str, Any]:
    """What the player adds for a colour puzzle: each cell code's fill and light colours'
    outline (codes 2 on, by palette index; 0 and 1 are unknown and the background), and each
    clue number's swatch as [number, x0, y0, x1, y1, fill, outline or "", text colour, is a
    column's] (an empty line's "0" stays in the clues, in ink)."""
    outlines = lay.outlines()
    swatches = [[s.number, *s.box, s.fill, s.outline or "", s.text, column]
                for column, boxes in ((0, map(lay.row_swatches, range(lay.rows))),
                                      (1, map(lay.col_swatches, range(lay.cols))))
                for line in boxes for s in line]
    return {"fills": [None, None, *(fill for _, fill in lay.cell_fills[1:])],
            "outlines": [None, None, *(outlines.get(sym) for sym, _ in lay.cell_fills[1:])],
            "outline": outline_width(lay.cell), "colFont": lay.column_font,
            "swatches": swatches}


def player_data(puzzle: AnyPuzzle, steps: Sequence[Step], note: str = "") -> dict[str, Any]:
    """Everything the player draws: geometry, clue anchors and the steps as compact arrays.

    A step is [caption, changes, held, own]: changes as (cell, old, new) cell codes, held
    highlights' changes as (cell, before, after) with 0 for none and 1 + the index in MARKS
    for a mark, and the step's own highlights as (cell, index in MARKS), over the held ones,
    or as the one index in MARKS of all the cells it changed (a line's, those undone)."""
    cell = max(10, min(26, 720 // max(puzzle.width, puzzle.height)))
    colour = colour_puzzle_of(puzzle)
    lay = layout(replace(puzzle, title=None), cell)  # the page shows the title
    code = CODE if colour is None else ({UNKNOWN: 0} | {c.symbol: i + 1 for i, c
                                                        in enumerate(colour.palette)})
    swatched = lay.swatches  # (then only an empty line's "0" is written as text)
    rows = [[text, *lay.row_clue_anchor(r)] for r, text in enumerate(lay.row_clues)
            if not swatched or text == "0"]
    cols = [[n, x, y] for c in range(lay.cols) for n, x, y in lay.col_clue_anchors(c)
            if not swatched or lay.col_clues[c] == ("0",)]
    mark: dict[str | None, int] = {None: 0, **{m: i + 1 for i, m in enumerate(MARKS)}}
    out: list[list[Any]] = []
    kept = 0  # entries of the steps kept so far
    cells = [code[UNKNOWN]] * (puzzle.width * puzzle.height)
    for step, (changed, own, _) in zip(steps, highlights(steps)):
        kept += len(step.changes) + len(changed) + len(own)
        if kept > PLAYER_CELLS and out:
            note += (f" (the player stops at step {len(out):,} of {len(steps):,}: its steps' "
                     f"cells and highlights passed {PLAYER_CELLS:,})")
            break
        changes: list[int] = []
        for cell_, value in step.changes:
            changes += (cell_, cells[cell_], code[value])
            cells[cell_] = code[value]
        held = [v for cell_, before, after in changed for v in (cell_, mark[before], mark[after])]
        kinds = set(own.values())
        if len(kinds) == 1 and len(own) == len(step.changes) > 1:  # its changed cells, one mark
            marks: int | list[int] = mark[kinds.pop()] - 1
        else:
            marks = [v for cell_, m in own.items() for v in (cell_, mark[m] - 1)]
        out.append([caption(puzzle, step), changes, held, marks])
    return {
        "w": puzzle.width, "h": puzzle.height, "title": puzzle.title or "", "note": note,
        "cell": lay.cell, "font": lay.font, "left": lay.left, "top": lay.top,
        "width": lay.width, "height": lay.height, "rowClues": rows, "colClues": cols,
        "colours": COLOURS, "marks": list(MARKS), "steps": out,
        **(colour_data(lay) if swatched else {}),
    }


def animation_html(puzzle: AnyPuzzle, steps: Sequence[Step], note: str = "") -> str:
    """The player page for these steps."""
    data = json.dumps(player_data(puzzle, steps, note), separators=(",", ":")).replace("</", "<\\/")
    title = html.escape(puzzle.title or f"{puzzle.width}x{puzzle.height} nonogram")
    legend = "".join(f'<span><i style="background:{COLOURS[m]}"></i>{LEGEND[m]}</span>' for m in MARKS)
    return PAGE.replace("@TITLE@", title).replace("@LEGEND@", legend).replace("@DATA@", data)


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>@TITLE@: solving step by step</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #1a1a1a; }
#controls { display: flex; flex-wrap: wrap; gap: .4em; align-items: center; margin: .6em 0; }
button { font-size: 1em; padding: .25em .7em; }
#pos { width: 100%; max-width: 720px; }
#caption { font-size: 1.05em; min-height: 1.4em; margin: .4em 0; }
#legend span { margin-right: 1em; white-space: nowrap; }
#legend i { display: inline-block; width: .9em; height: .9em; margin-right: .3em; vertical-align: -.1em; }
</style>
</head>
<body>
<h1>@TITLE@</h1>
<canvas id="board"></canvas>
<div id="caption"></div>
<div id="controls">
  <button id="first" title="back to the start (Home)">&#x23EE;</button>
  <button id="back" title="one step back (left arrow)">&#x25C0; back</button>
  <button id="play" title="play or pause (space)">&#x25B6; play</button>
  <button id="fwd" title="one step forward (right arrow)">step &#x25B6;</button>
  <button id="last" title="to the end (End)">&#x23ED;</button>
  <label>speed <input id="speed" type="range" min="0" max="10" value="4"></label>
  <span id="rate"></span>
  <span id="counter"></span>
</div>
<input id="pos" type="range" min="0" value="0">
<p id="legend">@LEGEND@</p>
<script>
"use strict";
const D = @DATA@;
const RATES = [1, 2, 3, 5, 8, 12, 20, 35, 60, 100, 200];
const N = D.steps.length, W = D.w, H = D.h;
const state = new Uint8Array(W * H), held = new Uint8Array(W * H);
let at = 0, playing = false, last = 0, owed = 0;
const $ = id => document.getElementById(id);
const canvas = $("board"), ctx = canvas.getContext("2d");
const ratio = window.devicePixelRatio || 1;
canvas.width = D.width * ratio; canvas.height = D.height * ratio;
canvas.style.width = D.width + "px"; canvas.style.height = D.height + "px";
ctx.scale(ratio, ratio);
$("pos").max = N;

function forward() {
  const [, c, h] = D.steps[at];
  for (let i = 0; i < c.length; i += 3) state[c[i]] = c[i + 2];
  for (let i = 0; i < h.length; i += 3) held[h[i]] = h[i + 2];
  at++;
}
function backward() {
  at--; const [, c, h] = D.steps[at];
  for (let i = c.length - 3; i >= 0; i -= 3) state[c[i]] = c[i + 1];
  for (let i = h.length - 3; i >= 0; i -= 3) held[h[i]] = h[i + 1];
}
function seek(n) { n = Math.max(0, Math.min(N, n)); while (at < n) forward(); while (at > n) backward(); draw(); }

function draw() {
  const C = D.colours, s = D.cell;
  ctx.fillStyle = C.paper; ctx.fillRect(0, 0, D.width, D.height);
  ctx.fillStyle = C.ink; ctx.font = D.font + "px sans-serif"; ctx.textBaseline = "middle";
  ctx.textAlign = "right"; for (const [t, x, y] of D.rowClues) ctx.fillText(t, x, y);
  ctx.textAlign = "center"; for (const [t, x, y] of D.colClues) ctx.fillText(t, x, y);
  for (let [t, x0, y0, x1, y1, f, o, k, col] of D.swatches || []) {
    if (o) { ctx.fillStyle = o; ctx.fillRect(x0, y0, x1 - x0, y1 - y0); x0++; y0++; x1--; y1--; }
    ctx.fillStyle = f; ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
    ctx.fillStyle = k; ctx.font = (col ? D.colFont : D.font) + "px sans-serif";
    ctx.fillText(t, (x0 + x1) / 2, (y0 + y1) / 2);
  }
  const marks = new Map();
  if (at > 0) {
    const [, c, , m] = D.steps[at - 1];
    if (typeof m === "number") for (let i = 0; i < c.length; i += 3) marks.set(c[i], C[D.marks[m]]);
    else for (let i = 0; i < m.length; i += 2) marks.set(m[i], C[D.marks[m[i + 1]]]);
  }
  for (let i = 0; i < W * H; i++) {
    const x = D.left + (i % W) * s, y = D.top + Math.floor(i / W) * s, v = state[i];
    const m = marks.get(i) || (held[i] ? C[D.marks[held[i] - 1]] : undefined);
    if (v >= 2 && D.fills) {
      ctx.fillStyle = D.fills[v]; ctx.fillRect(x, y, s, s);
      const o = D.outlines[v], lw = D.outline;
      if (m) {
        ctx.strokeStyle = m; ctx.lineWidth = Math.max(2, s / 8);
        ctx.strokeRect(x + 1.5, y + 1.5, s - 3, s - 3);
      } else if (o && lw) {
        ctx.strokeStyle = o; ctx.lineWidth = lw;
        ctx.strokeRect(x + lw / 2, y + lw / 2, s - lw, s - lw);
      }
    }
    else if (v === 2) { ctx.fillStyle = m || C.ink; ctx.fillRect(x, y, s, s); }
    else if (v === 1) {
      if (m) {
        ctx.strokeStyle = m; ctx.lineWidth = Math.max(2, s / 8);
        ctx.strokeRect(x + 1.5, y + 1.5, s - 3, s - 3);
      }
      ctx.fillStyle = m || C.dot; ctx.beginPath(); ctx.arc(x + s / 2, y + s / 2, Math.max(1, s / 10), 0, 7); ctx.fill();
    } else { ctx.fillStyle = m || C.unknown; ctx.fillRect(x, y, s, s); }
  }
  for (const thick of [false, true]) {
    ctx.strokeStyle = thick ? C.ink : C.thin; ctx.lineWidth = thick ? 2 : 1; ctx.beginPath();
    for (let c = 0; c <= W; c++) if ((c % 5 === 0 || c === W) === thick) {
      const x = D.left + c * s + (thick ? 0 : .5); ctx.moveTo(x, D.top); ctx.lineTo(x, D.top + H * s); }
    for (let r = 0; r <= H; r++) if ((r % 5 === 0 || r === H) === thick) {
      const y = D.top + r * s + (thick ? 0 : .5); ctx.moveTo(D.left, y); ctx.lineTo(D.left + W * s, y); }
    ctx.stroke();
  }
  $("caption").textContent = at > 0 ? D.steps[at - 1][0] : "the blank puzzle" + D.note;
  $("counter").textContent = "step " + at + " of " + N;
  $("pos").value = at;
}

function tick(now) {
  if (!playing) return;
  owed += (now - last) / 1000 * RATES[$("speed").value]; last = now;
  const n = Math.floor(owed); owed -= n;
  if (n > 0) seek(at + n);
  if (at >= N) { setPlaying(false); return; }
  requestAnimationFrame(tick);
}
function setPlaying(p) {
  playing = p && at < N; $("play").innerHTML = playing ? "&#x23F8; pause" : "&#x25B6; play";
  if (playing) { last = performance.now(); owed = 1; requestAnimationFrame(tick); }
}
function showRate() { $("rate").textContent = RATES[$("speed").value] + " steps/s"; }
$("first").onclick = () => { setPlaying(false); seek(0); };
$("back").onclick = () => { setPlaying(false); seek(at - 1); };
$("fwd").onclick = () => { setPlaying(false); seek(at + 1); };
$("last").onclick = () => { setPlaying(false); seek(N); };
$("play").onclick = () => { if (!playing && at >= N) seek(0); setPlaying(!playing); };
$("pos").oninput = () => { setPlaying(false); seek(+$("pos").value); };
$("speed").oninput = showRate;
document.addEventListener("keydown", e => {
  if (e.target.tagName === "INPUT") return;
  const k = {ArrowRight: () => $("fwd").onclick(), ArrowLeft: () => $("back").onclick(),
             " ": () => $("play").onclick(), Home: () => $("first").onclick(), End: () => $("last").onclick()}[e.key];
  if (k) { e.preventDefault(); k(); }
});
showRate(); draw();
</script>
</body>
</html>
"""
