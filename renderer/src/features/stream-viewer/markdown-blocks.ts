/**
 * Markdown split into top-level blocks, so a streaming reply is rendered block by block: a block that has
 * ended (a blank line after it, outside a code fence) never changes again and keeps its rendered DOM, and each
 * batch of text re-parses only the last, open block.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Top-level blocks of `text`: cut at blank lines that are not inside a fenced code block. Each block keeps its
 * text as written (the blank lines go with the block before them), so the blocks joined are the text again.
 * A list or quote that a blank line splits renders as two lists: the same words, a little more space between.
 */
export function markdownBlocks(text: string): string[] {
  const blocks: string[] = [];
  let start = 0;
  let fence: string | undefined;
  let lineStart = 0;
  let blank = false;
  while (lineStart < text.length) {
    const nl = text.indexOf('\n', lineStart);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(lineStart, end);
    const mark = FENCE.exec(line)?.[1];
    if (fence) {
      if (mark && mark[0] === fence[0] && mark.length >= fence.length && line.trim() === mark) fence = undefined;
    } else if (mark) {
      fence = mark;
    }
    const isBlank = !fence && line.trim() === '';
    // The first line after a run of blank lines starts a new block (outside a fence).
    if (!isBlank && blank && lineStart > start) {
      blocks.push(text.slice(start, lineStart));
      start = lineStart;
    }
    blank = isBlank;
    if (nl === -1) break;
    lineStart = nl + 1;
  }
  if (start < text.length || blocks.length === 0) blocks.push(text.slice(start));
  return blocks;
}
