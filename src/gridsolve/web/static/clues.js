// Which clue numbers of a line a player has finished, for greying them out in play mode.
//
// A line is a string of '#' filled, '.' marked empty, '?' not yet decided; in a colour puzzle
// its palette's symbols ('.' the background) and '?'. A clue is a list of lengths (black and
// white) or of [length, symbol] blocks (colour).

/** The runs of filled cells of a line, as lengths. */
export function runs(line) {
  return line.split(/[^#]+/).filter((r) => r).map((r) => r.length);
}

/** The blocks of a line as [length, symbol]: runs of one symbol other than '.' and '?' (two
 * colours side by side are two blocks). */
export function blocks(line) {
  const out = [];
  for (let i = 0; i < line.length;) {
    let j = i + 1;
    while (j < line.length && line[j] === line[i]) j++;
    if (line[i] !== "." && line[i] !== "?") out.push([j - i, line[i]]);
    i = j;
  }
  return out;
}

/** A clue's block, or a line's, as one comparable word ("3#", "2r"). */
const word = (b) => (Array.isArray(b) ? `${b[0]}${b[1]}` : `${b}#`);

/** Which blocks of a clue are done: the closed blocks (ended by a marked cell, another
 * colour or the line's end) read from each end up to the first undecided cell, matched in
 * order against the clue from that end; the first block that differs stops the reading. */
export function doneBlocks(line, clue) {
  const done = clue.map(() => false);
  const fromEnd = (cells, order) => {
    const upto = cells.indexOf("?");
    const known = upto < 0 ? cells : cells.slice(0, upto);
    let complete = blocks(known);
    // the block touching the undecided cell may go on into it
    if (upto >= 0 && known.length && known[known.length - 1] !== ".") complete = complete.slice(0, -1);
    for (let j = 0; j < complete.length && j < order.length; j++) {
      if (word(complete[j]) !== word(clue[order[j]])) break;
      done[order[j]] = true;
    }
  };
  const order = clue.map((_, i) => i);
  fromEnd(line, order);
  fromEnd([...line].reverse().join(""), [...order].reverse());
  return done;
}
