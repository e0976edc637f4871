import type { RawEvent, Usage, Verdict } from '../../../../shared/protocols/types';

/** One event back as SSE text, exactly as it could be replayed. */
export function toSse(e: RawEvent): string {
  if (e.type === 'comment') return `: ${e.data}\n\n`;
  const data = e.data
    .split('\n')
    .map((l) => `data: ${l}`)
    .join('\n');
  return `${e.event !== undefined ? `event: ${e.event}\n` : ''}${data}\n\n`;
}

export function eventsToSse(events: RawEvent[]): string {
  return events.map(toSse).join('');
}

// One formatter, made once: Number#toLocaleString with a locale builds an ICU formatter on every call, which
// cost milliseconds per render while a firehose updated the event counts each frame.
const COUNT = new Intl.NumberFormat('en-US');
/** A count with thousands separators: 20,000. */
export const count = (n: number): string => COUNT.format(n);

export const ms = (v: number | undefined) =>
  v === undefined ? '—' : v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(2)} s`;
/** Round times from 0 up to `end` (ms) for an axis: a step of 1, 2 or 5 × 10ⁿ ms, at most `most` ticks after 0. */
export function timeTicks(end: number, most = 6): number[] {
  if (!(end > 0)) return [0];
  const rough = end / most;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((v) => v >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let t = 0; t <= end + 1e-9; t += step) ticks.push(Math.round(t * 1000) / 1000);
  return ticks;
}
export const bytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(2)} MB`;

/** Usage fields the gateway did not send read "not reported", never 0. */
export function usageRows(u: Usage): [string, string][] {
  const f = (v: number | undefined) => (v === undefined ? 'not reported' : count(v));
  return [
    ['input', f(u.inputTotal)],
    ['output', f(u.output)],
    ['cache read', f(u.inputCached)],
    ['cache write', f(u.inputCacheWrite)],
    ['reasoning', f(u.reasoning)],
  ];
}

/** What a run's status says: a complete run that skipped events or read its body oddly is not a clean success. */
export const WITH_WARNINGS = 'complete, with warnings';
export type VerdictWord = Verdict | typeof WITH_WARNINGS | 'streaming' | 'starting';

export function verdictWord(verdict: Verdict, warnings: number): Verdict | typeof WITH_WARNINGS {
  return verdict === 'complete' && warnings > 0 ? WITH_WARNINGS : verdict;
}

export const VERDICT_TONE: Record<VerdictWord, 'ok' | 'warn' | 'err' | 'live'> = {
  complete: 'ok',
  [WITH_WARNINGS]: 'warn',
  truncated: 'err',
  'error-event': 'err',
  'http-error': 'err',
  'network-error': 'err',
  timeout: 'warn',
  cancelled: 'warn',
  streaming: 'live',
  starting: 'live',
};

/** Where the event with this seq sits in a list ordered by seq (the whole list, or one type of it); -1 if absent. */
export function indexOfSeq(events: readonly RawEvent[], seq: number): number {
  let lo = 0;
  let hi = events.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = events[mid].seq;
    if (s === seq) return mid;
    if (s < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** A JSON string that is base64 (a data URL's payload or a bare one) this long or longer is shown shortened. */
const BASE64_STRING = /"(data:[\w/+.-]+;base64,)?([A-Za-z0-9+/]{256,}={0,2})"/g;

/**
 * Text with every long base64 string shortened to its first characters and its size ("iVBORw0KGgo… 12.0 KB
 * base64"): an image in a body is kilobytes of one unbroken word that says nothing to read. Display only; the
 * ledger offers the body in full.
 */
export function elideBase64(text: string): { text: string; elided: number } {
  let elided = 0;
  const out = text.replace(BASE64_STRING, (_, prefix: string | undefined, b64: string) => {
    elided++;
    return `"${prefix ?? ''}${b64.slice(0, 16)}… ${bytes(b64.length)} base64"`;
  });
  return { text: out, elided };
}

export function prettyJson(data: string): string {
  try {
    return JSON.stringify(JSON.parse(data), null, 2);
  } catch {
    return data;
  }
}

export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    document.body.append(ta);
    ta.select();
    document.execCommand('copy');
    ta.remove();
  }
}

/** Live text blocks hold at least this many characters (see `livePieces`)… */
export const PIECE = 2048;
/** …and at most this many when no newline comes to end them. */
export const PIECE_MAX = 8 * PIECE;

/**
 * Streaming text as blocks that end at the first newline after PIECE characters (or, in text without
 * newlines, at the last space before PIECE_MAX). A closed block never changes as the text grows, so a batch
 * touches only the last block and the others keep their layout, instead of one text node holding the whole
 * reply being re-flowed every frame; off-screen blocks skip layout altogether (content-visibility in
 * styles.css). Ending at newlines keeps the blocks invisible: only newline-free text shows a seam.
 */
export function livePieces(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (;;) {
    let cut = text.indexOf('\n', start + PIECE);
    if (cut === -1 || cut >= start + PIECE_MAX) {
      if (text.length - start <= PIECE_MAX) break;
      // Within this block only: a search back from the cap through text without spaces ran to the start of the
      // text, once per block, which made a 2 MB body without spaces take a quarter of a second.
      cut = start + text.slice(start, start + PIECE_MAX + 1).lastIndexOf(' ');
      if (cut <= start) {
        cut = start + PIECE_MAX - 1;
        // Never between the two halves of a character outside the BMP (an emoji would show as two U+FFFD).
        const c = text.charCodeAt(cut);
        if (c >= 0xd800 && c <= 0xdbff) cut--;
      }
    }
    out.push(text.slice(start, cut + 1));
    start = cut + 1;
  }
  out.push(text.slice(start));
  return out;
}

const JSON_SPACE = /[ \t\n\r]/;
const TOKEN_END = /[ \t\n\r,:\]}]/;

/**
 * Valid JSON re-indented by two spaces, its tokens kept as written; undefined when the text is not JSON.
 * Re-serialising the parsed value would show what JavaScript made of the body, not what the gateway sent:
 * integers past 2^53 rounded, `1.0` as `1`, escapes decoded, and a duplicated key shown once.
 */
export function indentJson(text: string): string | undefined {
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  const out: string[] = [];
  let depth = 0;
  const newline = () => '\n' + '  '.repeat(depth);
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out.push(text.slice(i, j + 1));
      i = j;
    } else if (c === '{' || c === '[') {
      let j = i + 1;
      while (JSON_SPACE.test(text[j])) j++;
      if (text[j] === (c === '{' ? '}' : ']')) {
        out.push(c + text[j]);
        i = j;
      } else {
        depth++;
        out.push(c + newline());
      }
    } else if (c === '}' || c === ']') {
      depth--;
      out.push(newline() + c);
    } else if (c === ',') out.push(',' + newline());
    else if (c === ':') out.push(': ');
    else if (!JSON_SPACE.test(c)) {
      let j = i + 1;
      while (j < text.length && !TOKEN_END.test(text[j])) j++;
      out.push(text.slice(i, j));
      i = j - 1;
    }
  }
  return out.join('');
}
