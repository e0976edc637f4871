/**
 * A secret split over deltas (docs/security.md §4). Each text delta may hold four characters of a key, so no event
 * and no network chunk holds a recognisable piece, yet the window assembles the whole key from them. The guard
 * reads the text as it grows, block by block, and decides which events may go to the window yet:
 *
 * - an event after which a block's text ends with the start of a secret (at least HOLD_FROM characters of any of
 *   its forms, escapes decoded) is held back, with every event after it, until the text goes another way;
 * - an event that completes a secret has the secret's characters taken out of the held events' text, a
 *   `[redacted]` put in their place, and its payload written again with that text;
 * - otherwise the held events are let go, in order.
 *
 * So the window never receives more than HOLD_FROM − 1 characters of a secret, and the events kept for the run
 * (the Events list, history) are the rewritten ones (EventLog keeps each rewritten payload). The final transcript
 * is scrubbed whole as before (runs/index.ts).
 */
import type { Block } from '../../../shared/protocols/types';
import type { Scrubber } from '../scrubber';

/** Characters of a secret's start that make a delta wait: fewer cannot make an 8-character window of it. */
export const HOLD_FROM = 4;

const REDACTED = '[redacted]';

/** One event as the log will take it, and the text it added to a block (when it added any). */
export interface GuardedEvent {
  t: number;
  type: string;
  data: string;
  event: string | undefined;
  size: number;
  /** Set when its payload was written again without a secret's characters. */
  rewritten?: boolean;
}

interface Held extends GuardedEvent {
  piece?: { block: number; start: number; text: string; kept: string; marked: boolean };
}

interface BlockState {
  length: number;
  /** Text before this offset was already judged to hold a secret and redacted. */
  redactedTo: number;
  /** Offset just past the last escape character (`%`, `&`, `\`) the block's text holds. */
  escapeEnd: number;
}

/** The text a fold keeps for a block, where deltas grow it. */
function textOf(b: Block | undefined): string | undefined {
  if (!b) return undefined;
  if (b.kind === 'tool_call') return b.argsText;
  return b.kind === 'other' ? undefined : b.text;
}

export class SplitSecretGuard {
  private readonly held: Held[] = [];
  private readonly blocks: BlockState[] = [];
  private readonly literals: readonly string[];
  private readonly longest: number;
  private readonly window: number;

  constructor(
    private readonly scrubber: Scrubber,
    private readonly emit: (e: GuardedEvent) => void,
  ) {
    this.literals = scrubber.literals;
    this.longest = Math.max(0, ...this.literals.map((l) => l.length));
    this.window = scrubber.maxFormLength;
  }

  /** Whether any event waits. */
  get holding(): boolean {
    return this.held.length > 0;
  }

  /** One event, after the fold took it: `blocks` is the fold's text so far. */
  event(e: GuardedEvent, blocks: readonly Block[] | undefined, content: boolean): void {
    const piece = content && blocks ? this.grown(blocks) : undefined;
    const h: Held = { ...e };
    if (piece) {
      const [block, start, text] = piece;
      h.piece = { block, start, text: text.slice(start), kept: text.slice(start), marked: false };
    }
    this.held.push(h);
    if (!piece) {
      if (this.held.length === 1) this.release();
      return;
    }
    const [block, start, text] = piece;
    if (!this.judge(block, start, text)) this.release();
  }

  /** The stream ended: whatever waits goes as it is (its text never became a secret). */
  drain(): void {
    this.release();
  }

  /** The block a content event grew, where its new text starts, and the block's text. */
  private grown(blocks: readonly Block[]): [number, number, string] | undefined {
    for (let i = blocks.length - 1; i >= 0; i--) {
      const text = textOf(blocks[i]);
      if (text === undefined) continue;
      const state = (this.blocks[i] ??= { length: 0, redactedTo: 0, escapeEnd: -1 });
      if (text.length === state.length) continue;
      // A block's text only grows; one set anew (a `.done` event's whole text) is judged from its start.
      const start = text.length > state.length ? state.length : 0;
      if (start === 0) Object.assign(state, { redactedTo: 0, escapeEnd: -1 });
      state.length = text.length;
      if (this.scrubber.hasEscape(text.slice(start))) state.escapeEnd = text.length;
      return [i, start, text];
    }
    return undefined;
  }

  /** Redacts a secret this event completed; true when the text now ends with the start of one (hold). */
  private judge(block: number, start: number, text: string): boolean {
    const state = this.blocks[block];
    const end = text.length;
    const escaped = end - state.escapeEnd < this.window && state.escapeEnd >= 0;
    const from = Math.max(state.redactedTo, start - (escaped ? this.window : this.longest));
    const recent = text.slice(from);
    const complete = escaped ? this.scrubber.mayHold(recent) : this.literals.some((l) => recent.includes(l));
    if (complete) {
      for (const [s, e] of this.scrubber.find(recent))
        if (from + e > start) this.redact(block, from + s, from + e, text);
      state.redactedTo = Math.max(state.redactedTo, ...this.scrubber.find(recent).map(([, e]) => from + e));
    }
    const tail = text.slice(Math.max(state.redactedTo, end - (escaped ? this.window : this.longest)));
    return this.startsSecret(escaped ? decodeEscapes(tail) : { text: tail, open: false });
  }

  /** Takes [s, e) of a block's text out of the held events that carry it; the first of them says so. */
  private redact(block: number, s: number, e: number, text: string): void {
    let marked = false;
    for (const h of this.held) {
      const p = h.piece;
      if (!p || p.block !== block) continue;
      const pEnd = p.start + p.text.length;
      if (pEnd <= s || p.start >= e) continue;
      // Offsets inside this piece's original text; what was taken before stays taken.
      const a = Math.max(s, p.start) - p.start;
      const b = Math.min(e, pEnd) - p.start;
      const mark = marked ? '' : REDACTED;
      marked = true;
      const own = text.slice(p.start, pEnd);
      p.kept = rebuild(own, p.kept, a, b, mark);
      p.marked = true;
    }
  }

  /** Whether the text ends with at least HOLD_FROM characters of a secret's start (or one less and an escape begun). */
  private startsSecret({ text, open }: { text: string; open: boolean }): boolean {
    const need = open ? HOLD_FROM - 1 : HOLD_FROM;
    if (text.length < need) return false;
    const last = text.slice(-need);
    for (const l of this.literals) {
      if (!l.includes(last)) continue;
      for (let k = Math.min(l.length - 1, text.length); k >= need; k--) if (text.endsWith(l.slice(0, k))) return true;
    }
    return false;
  }

  private release(): void {
    for (const h of this.held.splice(0)) {
      const p = h.piece;
      if (p?.marked) this.emit({ ...strip(h), data: rewritePiece(h.data, p.text, p.kept), rewritten: true });
      else this.emit(strip(h));
    }
  }
}

function strip(h: Held): GuardedEvent {
  return { t: h.t, type: h.type, data: h.data, event: h.event, size: h.size };
}

/**
 * A piece's text with [a, b) of its original taken out. `kept` is what earlier redactions left of the
 * original; both are walked together, the original's characters still present in `kept` in order.
 */
function rebuild(original: string, kept: string, a: number, b: number, mark: string): string {
  if (kept === original) return original.slice(0, a) + mark + original.slice(b);
  // An earlier redaction changed this piece: take the characters of [a, b) out where they still stand.
  const cut = original.slice(a, b);
  const at = kept.indexOf(cut);
  return at === -1 ? kept : kept.slice(0, at) + mark + kept.slice(at + cut.length);
}

/** The payload with its piece of text written as `kept`: every string equal to the piece, at any depth. */
export function rewritePiece(data: string, piece: string, kept: string): string {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return data.split(piece).join(kept);
  }
  let found = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (v !== piece) return v;
      found = true;
      return kept;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const out = walk(json);
  // A fold that took the text from elsewhere than one string: the piece goes, wherever it appears.
  return found ? JSON.stringify(out) : data.split(JSON.stringify(piece).slice(1, -1)).join(kept);
}

/** The named references the scrubber knows (scrubber.ts), decoded. */
const NAMED: Record<string, string> = {
  sol: '/',
  plus: '+',
  equals: '=',
  lowbar: '_',
  period: '.',
  colon: ':',
  amp: '&',
  quot: '"',
  apos: "'",
  num: '#',
  percnt: '%',
  dollar: '$',
  excl: '!',
  quest: '?',
  commat: '@',
  tilde: '~',
  ast: '*',
  midast: '*',
  Hat: '^',
  verbar: '|',
  vert: '|',
  VerticalLine: '|',
};

/**
 * The text as a window would show it once the escapes a secret may hide behind are decoded (HTML references,
 * `%XX` once or twice, `\uXXXX`, `\/`), and whether it ends inside an escape not yet complete.
 */
export function decodeEscapes(text: string): { text: string; open: boolean } {
  // An escape still arriving (`&#11`, `%2`, `%25`, `\u00`) is left out, and said: it may be the next character.
  const begun = OPEN_ESCAPE.exec(text);
  const whole = begun ? text.slice(0, begun.index) : text;
  const decoded = whole.replace(
    /&(?:amp;)?(?:#(?:[xX]([0-9a-fA-F]{1,6})|(\d{1,7}));?|([a-zA-Z]+);)|%(?:25)?([0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|\\\//g,
    (m, hex?: string, dec?: string, name?: string, pct?: string, uni?: string) => {
      if (name) return NAMED[name] ?? m;
      const code = hex ? parseInt(hex, 16) : dec ? Number(dec) : pct ? parseInt(pct, 16) : uni ? parseInt(uni, 16) : 47;
      return code <= 0x10ffff ? String.fromCodePoint(code) : m;
    },
  );
  return { text: decoded, open: begun !== null };
}

const OPEN_ESCAPE =
  /(?:&(?:amp;?|a|am)?(?:#[xX]?[0-9a-fA-F]*|[a-zA-Z]*)|%(?:2(?:5[0-9a-fA-F]?)?|[0-9a-fA-F])?|\\(?:u[0-9a-fA-F]{0,3})?)$/;
