// Calendar page: one solution of a date with coloured pieces, hints, browsing, the year heatmap.

import { api, el, number, svg } from "./util.js";

const $ = (id) => document.getElementById(id);
const SIZE = 48;
const state = { data: null, index: 0, shown: 0, year: {}, loaded: false, asked: 0 };

function setMessage(text, error = false) {
  $("cal-message").textContent = text;
  $("cal-message").classList.toggle("error", error);
}

function isoToday() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The board with the first ``state.shown`` pieces of the current solution. */
function drawBoard() {
  const data = state.data;
  const box = $("cal-board");
  box.replaceChildren();
  box.classList.remove("stale");
  if (!data) {  // nothing (or a failure): no board, and nothing to browse
    $("cal-index").textContent = "";
    for (const id of ["cal-prev", "cal-next", "cal-hint"]) $(id).disabled = true;
    return;
  }
  const { width, height } = data.board;
  const root = svg("svg", {
    width: width * SIZE + 4, height: height * SIZE + 4, viewBox: `-2 -2 ${width * SIZE + 4} ${height * SIZE + 4}`,
    role: "img", "aria-label": `calendar board for ${data.date}`,
  });
  const labels = new Map(data.board.labels.map(([r, c, label]) => [`${r},${c}`, label]));
  const open = new Set(data.open.map(([r, c]) => `${r},${c}`));
  const tiling = data.solutions[state.index] || [];
  const owner = new Map();
  tiling.slice(0, state.shown).forEach((pl, k) => {
    for (const [r, c] of pl.cells) owner.set(`${r},${c}`, k);
  });
  for (const [r, c] of data.board.open) {
    const key = `${r},${c}`;
    const k = owner.get(key);
    const piece = k === undefined ? null : data.pieces[tiling[k].piece];
    const rect = svg("rect", {
      x: c * SIZE, y: r * SIZE, width: SIZE, height: SIZE,
      fill: piece ? piece.colour : open.has(key) ? "#fff6c2" : "#f4f4f4", stroke: "#bbbbbb", "stroke-width": 0.5,
    });
    if (piece) rect.dataset.piece = piece.letter;
    root.append(rect);
    if (!piece && labels.has(key)) {
      const text = svg("text", {
        x: c * SIZE + SIZE / 2, y: r * SIZE + SIZE * 0.6, "text-anchor": "middle",
        "font-size": 14, "font-weight": open.has(key) ? "bold" : "normal", fill: open.has(key) ? "#000" : "#777",
      });
      text.textContent = labels.get(key);
      root.append(text);
    }
  }
  for (const [key, k] of owner) {
    const [r, c] = key.split(",").map(Number);
    const edges = [[0, 1, c * SIZE + SIZE, r * SIZE, c * SIZE + SIZE, r * SIZE + SIZE],
      [1, 0, c * SIZE, r * SIZE + SIZE, c * SIZE + SIZE, r * SIZE + SIZE],
      [0, -1, c * SIZE, r * SIZE, c * SIZE, r * SIZE + SIZE],
      [-1, 0, c * SIZE, r * SIZE, c * SIZE + SIZE, r * SIZE]];
    for (const [dr, dc, x1, y1, x2, y2] of edges) {
      if (owner.get(`${r + dr},${c + dc}`) !== k) {
        root.append(svg("line", { x1, y1, x2, y2, stroke: "#000", "stroke-width": 2.5, "stroke-linecap": "square" }));
      }
    }
  }
  box.append(root);
  const n = data.solutions.length;
  $("cal-index").textContent = n
    ? `solution ${state.index + 1} of ${data.count}${n < data.count ? ` (${n} listed)` : ""}; ${state.shown} of ${tiling.length} pieces shown`
    : "no solution";
  $("cal-prev").disabled = state.index <= 0;
  $("cal-next").disabled = state.index >= n - 1;
  $("cal-hint").disabled = state.shown >= tiling.length;
}

async function show() {
  const date = $("cal-date").value || isoToday();
  const edition = $("cal-edition").value || "original";
  setMessage("Searching\u2026");
  const ask = ++state.asked;
  $("cal-board").classList.add("stale");  // the board shown is the previous date's until then
  try {
    const data = await api(`api/calendar/solutions?date=${encodeURIComponent(date)}&edition=${encodeURIComponent(edition)}`);
    if (ask !== state.asked) return;  // a later request superseded this one
    state.data = data;
    state.index = 0;
    state.shown = (state.data.solutions[0] || []).length;
    const d = state.data;
    setMessage(d.count ? `${d.date}: ${d.count} solution${d.count === 1 ? "" : "s"} (${d.edition} edition).`
      : `${d.date}: no solution (${d.edition} edition).`);
    drawBoard();
  } catch (err) {
    if (ask !== state.asked) return;
    setMessage(err.message, true);
    state.data = null;
    drawBoard();
    return;
  }
  await heatmap(edition);
}

/** Months per row of the heatmap: four when they fit the page at full size, else three or two
 * (scaled down to fit, never below a day a finger can tap). */
function monthsPerRow(calW, gap) {
  const room = $("calendar").clientWidth || 800;
  return [4, 3].find((k) => k * calW + (k + 1) * gap <= room) || 2;
}

async function heatmap(edition) {
  const box = $("heatmap");
  if (box.dataset.edition === edition) return;
  $("heatmap-info").classList.remove("error");
  if (!state.year[edition]) {
    $("heatmap-info").textContent = "Counting every date\u2026";
    try {
      state.year[edition] = await api(`api/calendar/year?edition=${encodeURIComponent(edition)}`);
    } catch (err) {
      box.replaceChildren();
      delete box.dataset.edition;
      $("heatmap-info").textContent = `Could not count every date: ${err.message}`;
      $("heatmap-info").classList.add("error");
      return;
    }
  }
  if (($("cal-edition").value || "original") !== edition) return;  // another edition was chosen
  drawHeatmap(state.year[edition]);
}

function drawHeatmap(year) {
  const box = $("heatmap");
  const cell = 24, gap = 14, calW = 7 * cell, calH = 5 * cell + 18;
  const per = monthsPerRow(calW, gap);
  const width = per * calW + (per + 1) * gap, height = (12 / per) * (calH + gap) + gap;
  const root = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "solutions per date" });
  const corner = (m) => [gap + (m % per) * (calW + gap), gap + Math.floor(m / per) * (calH + gap)];
  year.months.forEach((name, m) => {
    const [x0, y0] = corner(m);
    const label = svg("text", { x: x0 + calW / 2, y: y0 + 10, "text-anchor": "middle", "font-size": 12 });
    label.textContent = name;
    root.append(label);
  });
  for (const day of year.days) {
    const m = day.month - 1;
    const [x0, y0] = corner(m);
    const x = x0 + ((day.day - 1) % 7) * cell;
    const y = y0 + 16 + Math.floor((day.day - 1) / 7) * cell;
    const words = year.weekday
      ? `${year.months[m]} ${day.day}: ${number(day.mean)} solutions on average over the weekdays (${number(day.min)} to ${number(day.max)})`
      : `${year.months[m]} ${day.day}: ${number(day.mean)} solution${day.mean === 1 ? "" : "s"}`;
    const g = svg("g", { class: "day", tabindex: 0 });
    g.dataset.month = day.month;
    g.dataset.day = day.day;
    g.dataset.count = day.mean;
    const rect = svg("rect", { x: x + 1, y: y + 1, width: cell - 2, height: cell - 2, fill: day.colour });
    const title = svg("title");
    title.textContent = words;
    const text = svg("text", { x: x + cell / 2, y: y + cell / 2 + 3, "text-anchor": "middle", "font-size": 8, fill: day.dark_text ? "#000" : "#fff" });
    text.textContent = String(Math.round(day.mean));
    g.append(rect, title, text);
    g.addEventListener("mouseenter", () => { $("heatmap-info").textContent = words; });
    g.addEventListener("focus", () => { $("heatmap-info").textContent = words; });
    g.addEventListener("click", () => {
      const year = ($("cal-date").value || isoToday()).slice(0, 4);
      $("cal-date").value = `${year}-${String(day.month).padStart(2, "0")}-${String(day.day).padStart(2, "0")}`;
      show();
    });
    root.append(g);
  }
  box.replaceChildren(root);
  box.dataset.edition = year.edition;
  box.dataset.perRow = String(per);
  $("heatmap-info").textContent = `Fewest ${number(year.lo)}, most ${number(year.hi)} solutions a date`
    + `${year.weekday ? " (on average over the weekdays)" : ""}. Hover or tap a day for its count; click it to open it.`;
}

/** A turned phone or a resized window: redraw the heatmap if its months per row change. */
function refit() {
  const box = $("heatmap");
  const year = state.year[box.dataset.edition];
  if (year && !$("calendar").hidden && box.dataset.perRow !== String(monthsPerRow(7 * 24, 14))) drawHeatmap(year);
}

async function init() {
  $("cal-date").value = isoToday();
  $("cal-show").addEventListener("click", show);
  $("cal-edition").addEventListener("change", show);
  $("cal-hide").addEventListener("click", () => { state.shown = 0; drawBoard(); });
  $("cal-hint").addEventListener("click", () => { state.shown += 1; drawBoard(); });
  $("cal-all").addEventListener("click", () => {
    state.shown = (state.data && state.data.solutions[state.index] || []).length;
    drawBoard();
  });
  $("cal-prev").addEventListener("click", () => { state.index -= 1; drawBoard(); });
  $("cal-next").addEventListener("click", () => { state.index += 1; drawBoard(); });
  try {
    const { editions } = await api("api/calendar/editions");
    $("cal-edition").replaceChildren(...editions.map((e) => el("option", { value: e.name, title: e.description }, e.name)));
  } catch (err) {
    setMessage(err.message, true);
  }
  const start = () => { if (!state.loaded && !$("calendar").hidden) { state.loaded = true; show(); } };
  document.addEventListener("tab", start);
  document.addEventListener("tab", refit);
  window.addEventListener("resize", refit);
  start();
}

init();
