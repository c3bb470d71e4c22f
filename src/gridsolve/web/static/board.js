// The nonogram board's canvas, shared by the solver's replay (nonogram.js) and play mode
// (play.js): sizing for the screen's pixel ratio, the line band, the grid rules, and the
// swatches of colour clues and cells (black or white text, light colours outlined).
//
// A layout is { cell, left, top, width, height }: CSS pixels, the grid's top-left corner at
// (left, top) with clues above and to its left.

/** The smallest cell a fingertip can hit (CSS pixels). */
export const FINGER = 24;
/** The longest side a canvas may have at that size (CSS pixels); a larger puzzle gets smaller
 * cells rather than a canvas the browser cannot hold. */
const LONGEST = 3000;
/** The most backing pixels a canvas gets (its resolution drops below the screen's above). */
const MOST_PIXELS = 16e6;

/** Is this a phone or tablet (a finger, or a narrow screen)? Its grid keeps finger-sized
 * cells and pans inside its box instead of shrinking to fit. */
export function isPhone() {
  return window.matchMedia("(pointer: coarse), (max-width: 700px)").matches;
}

/** The cell size for a grid `across` cells wide with `clueCells` cells of clues at its left:
 * `fit` (what fits the box), raised to finger size on a phone while the canvas stays under
 * LONGEST, then kept within [least, most]. */
export function cellSize(fit, across, clueCells, least, most) {
  const finger = isPhone() ? Math.min(FINGER, Math.floor(LONGEST / (across + clueCells))) : 0;
  return Math.max(least, Math.min(most, Math.max(fit, finger)));
}

/** The width (CSS pixels) the board box `board` offers its canvas: its parent's, less the
 * box's own padding and border. */
export function roomFor(board) {
  const outer = board.parentElement ? board.parentElement.clientWidth : 0;
  return (outer || (window.innerWidth || 900) - 40) - 12;
}

/** Size the canvas to the layout at the screen's pixel ratio and clear it to the paper
 * colour; returns its 2D context, drawing in CSS pixels. */
export function prepare(canvas, lay, paper) {
  const screen = window.devicePixelRatio || 1;
  const ratio = Math.min(screen, Math.sqrt(MOST_PIXELS / (lay.width * lay.height)));
  canvas.width = lay.width * ratio;
  canvas.height = lay.height * ratio;
  canvas.style.width = `${lay.width}px`;
  canvas.style.height = `${lay.height}px`;
  const g = canvas.getContext("2d");
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.fillStyle = paper;
  g.fillRect(0, 0, lay.width, lay.height);
  return g;
}

/** Shade line `line` (rows first, then columns, as the engine numbers them) across the
 * whole canvas, its clues included. */
export function shadeLine(g, puzzle, lay, line, colour) {
  const { cell, left, top } = lay;
  g.fillStyle = colour;
  if (line < puzzle.height) g.fillRect(0, top + line * cell, lay.width, cell);
  else g.fillRect(left + (line - puzzle.height) * cell, 0, cell, lay.height);
}

/** The grid's rules: thin ones, a thick one every fifth line and around the edge. */
export function drawGrid(g, puzzle, lay, ink) {
  const { cell, left, top } = lay;
  const rule = (n, total, x0, y0, x1, y1) => {
    const thick = n % 5 === 0 || n === total;
    g.strokeStyle = thick ? ink.thick : ink.grid;
    g.lineWidth = thick ? 1.5 : 0.5;
    g.beginPath(); g.moveTo(x0, y0); g.lineTo(x1, y1); g.stroke();
  };
  for (let c = 0; c <= puzzle.width; c++) {
    const x = left + c * cell + 0.5;
    rule(c, puzzle.width, x, top, x, top + puzzle.height * cell);
  }
  for (let r = 0; r <= puzzle.height; r++) {
    const y = top + r * cell + 0.5;
    rule(r, puzzle.height, left, y, left + puzzle.width * cell, y);
  }
}

// --- colour swatches: the rule of the printed pictures (render/layout.py), WCAG 2 ----------

/** Text needs 4.5:1 against what is behind it, a shape that must be seen 3:1 (WCAG 2). */
const TEXT_CONTRAST = 4.5, SHAPE_CONTRAST = 3;

/** WCAG 2 relative luminance of a "#rrggbb" colour: 0 for black, 1 for white. */
export function luminance(rgb) {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(rgb.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two "#rrggbb" colours, from 1 (the same) to 21. */
export function contrast(a, b) {
  const [lo, hi] = [luminance(a), luminance(b)].sort((x, y) => x - y);
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white text, whichever contrasts more with `fill` (4.58:1 at least on any colour). */
export function textOn(fill) {
  return contrast("#000000", fill) >= contrast("#ffffff", fill) ? "#000000" : "#ffffff";
}

/** A dark outline for a colour too light to be seen on the paper (under 3:1 against it): the
 * colour darkened 5% a step until it stands 4.5:1 on the paper; null for the others. */
export function outlineOf(fill, paper = "#ffffff") {
  if (contrast(fill, paper) >= SHAPE_CONTRAST) return null;
  const rgb = [1, 3, 5].map((i) => parseInt(fill.slice(i, i + 2), 16));
  for (let k = 1; k <= 20; k++) {
    const shade = `#${rgb.map((v) => Math.round(v * (1 - k / 20)).toString(16).padStart(2, "0")).join("")}`;
    if (contrast(shade, paper) >= TEXT_CONTRAST) return shade;
  }
  return "#000000";
}

/** Fill a box with a colour, outlined inside in its dark shade when the colour is light. */
export function fillBox(g, x, y, w, h, fill) {
  g.fillStyle = fill;
  g.fillRect(x, y, w, h);
  const line = outlineOf(fill);
  if (line && w >= 6 && h >= 6) {
    const t = Math.max(1.5, Math.min(w, h) / 12);
    g.strokeStyle = line;
    g.lineWidth = t;
    g.strokeRect(x + t / 2, y + t / 2, w - t, h - t);
  }
}

/** A clue number on a swatch of its colour (the text black or white by contrast). */
export function swatch(g, x, y, w, h, fill, text) {
  fillBox(g, x, y, w, h, fill);
  g.fillStyle = textOn(fill);
  g.fillText(text, x + w / 2, y + h / 2);
}
