// Which clue numbers of a line a player has finished, for greying them out in play mode.
//
// A line is a string of '#' filled, '.' marked empty, '?' not yet decided.

/** The runs of filled cells of a line, as lengths. */
export function runs(line) {
  return line.split(/[^#]+/).filter((r) => r).map((r) => r.length);
}

/** Which blocks of a clue are done: the closed runs (ended by a marked cell or the line's
 * end) read from each end up to the first undecided cell, matched in order against the clue
 * from that end; the first run that differs stops the reading. */
export function doneBlocks(line, clue) {
  const done = clue.map(() => false);
  const fromEnd = (cells, order) => {
    const upto = cells.indexOf("?");
    const closed = upto < 0 ? cells : cells.slice(0, cells.lastIndexOf(".", upto) + 1);
    const complete = runs(closed);
    for (let j = 0; j < complete.length && j < order.length; j++) {
      if (complete[j] !== clue[order[j]]) break;
      done[order[j]] = true;
    }
  };
  const order = clue.map((_, i) => i);
  fromEnd(line, order);
  fromEnd([...line].reverse().join(""), [...order].reverse());
  return done;
}
