/**
 * What a Markdown block would cost to render, read in one linear pass before it is parsed (docs/security.md §13).
 * A gateway chooses the text: nesting makes the parser recurse (a stack overflow blanked the window) and costs
 * it time in the square of the depth, and a GFM table pads every short row to its header's width, so a few
 * kilobytes can make millions of cells. Characters say neither, so the limits are on depth and on cells. Both
 * figures over-estimate (they never parse): a block they wrongly refuse is still shown, as text.
 */

/** Deeper than this (lists and quotes, or brackets and emphasis) and a block is shown as text. */
export const MAX_DEPTH = 32;
/** A block's tables may make this many cells, or one per character of the block if that is more. */
export const MIN_CELL_BUDGET = 2_000;

export interface MarkdownCost {
  /** The deepest nesting of containers (list items, quotes) or of inline brackets and emphasis. */
  depth: number;
  /** Table cells after GFM pads each row to the header's width. */
  cells: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)/;

/** Container markers at the start of a line (`>`, `-`, `1.`), and what follows them. */
function containers(line: string): { depth: number; rest: string } {
  let depth = 0;
  let i = 0;
  let spaces = 0;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') {
      if (depth === 0) spaces += line[i] === '\t' ? 4 : 1;
      i++;
    }
    if (line[i] === '>') {
      depth++;
      i++;
      continue;
    }
    const marker = LIST_MARKER.exec(line.slice(i, i + 11))?.[0];
    if (!marker) break;
    depth++;
    i += marker.length;
  }
  // Nesting by indentation (the spaces before the first marker): a level per two spaces, at most.
  return { depth: depth + Math.floor(spaces / 2), rest: line.slice(i) };
}

/** The columns of a GFM delimiter row (`| --- | :-: |`), or 0 when the line is not one. */
export function delimiterColumns(line: string): number {
  const t = line.trim();
  // Without a pipe, `---` is a rule or a heading's underline, never a table.
  if (!t.includes('|')) return 0;
  const inner = t.replace(/^\|/, '').replace(/\|$/, '');
  if (inner.trim() === '') return 0;
  let columns = 0;
  for (const cell of inner.split('|')) {
    if (!/^\s*:?-+:?\s*$/.test(cell)) return 0;
    columns++;
  }
  return columns;
}

const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c);
const isPunct = (c: string | undefined) => c !== undefined && /[\p{P}\p{S}]/u.test(c);
const DELIM = /[*_~]/;

/**
 * The deepest inline nesting a line could make: open brackets, and emphasis delimiters that can open minus
 * those that can close (CommonMark's flanking rules, simplified). `open` carries unclosed ones to the next line.
 */
function inlineDepth(line: string, open: { brackets: number; emphasis: number }): number {
  let max = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      open.brackets++;
    } else if (c === ']') {
      open.brackets = Math.max(0, open.brackets - 1);
    } else if (DELIM.test(c)) {
      let j = i;
      while (j < line.length && DELIM.test(line[j])) j++;
      const before = line[i - 1];
      const after = line[j];
      const opens = !isSpace(after) && (isSpace(before) || isPunct(before) || !isPunct(after));
      const closes = !isSpace(before) && (isSpace(after) || isPunct(after) || !isPunct(before));
      if (opens && !closes) open.emphasis += j - i;
      else if (closes && !opens) open.emphasis = Math.max(0, open.emphasis - (j - i));
      i = j - 1;
    } else continue;
    max = Math.max(max, open.brackets + open.emphasis);
  }
  return max;
}

/** Depth and table cells of one block (see `markdownBlocks`), outside fenced code, in time linear in its length. */
export function markdownCost(text: string): MarkdownCost {
  let depth = 0;
  let cells = 0;
  let fence: string | undefined;
  let table = 0;
  const open = { brackets: 0, emphasis: 0 };
  for (const line of text.split('\n')) {
    const c = containers(line);
    const mark = FENCE.exec(c.rest)?.[1];
    if (fence) {
      if (mark && mark[0] === fence[0] && mark.length >= fence.length && c.rest.trim() === mark) fence = undefined;
      continue;
    }
    if (mark) {
      fence = mark;
      continue;
    }
    depth = Math.max(depth, c.depth, inlineDepth(c.rest, open));
    if (c.rest.trim() === '') {
      table = 0;
      continue;
    }
    const columns = delimiterColumns(c.rest);
    // The header row and the delimiter row, then every line after it until a blank line, padded to the header.
    if (columns > 0) {
      table = columns;
      cells += columns;
    } else if (table > 0) cells += table;
  }
  return { depth, cells };
}

/** Why a block is shown as text instead of Markdown ("nested 1,500 deep"), or undefined when it may be parsed. */
export function tooCostly(text: string): string | undefined {
  const { depth, cells } = markdownCost(text);
  if (depth > MAX_DEPTH) return `nested ${depth.toLocaleString('en-US')} deep`;
  if (cells > Math.max(MIN_CELL_BUDGET, text.length)) return `a table of ${cells.toLocaleString('en-US')} cells`;
  return undefined;
}
