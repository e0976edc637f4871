/** Reading a body whole, and telling from its first bytes what it is. */
import type { GatewayResponse } from './request';
import type { RequestTimer } from './timer';

export interface BodyText {
  text: string;
  bytes: number;
  capped: boolean;
  /** What ended the body before its end (a reset, or the timer's abort); absent when it ended normally. */
  cut?: unknown;
}

/**
 * Reads a whole body as text with the idle timer running, capped so a runaway body cannot eat memory. Never
 * throws: a body cut short still returns what arrived, since an error body's first bytes often already name
 * the error.
 */
export async function readBody(
  body: AsyncIterable<Uint8Array>,
  timer: RequestTimer,
  capBytes = 8 * 1024 * 1024,
): Promise<BodyText> {
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  let capped = false;
  let cut: { err: unknown } | undefined;
  try {
    for await (const chunk of body) {
      timer.activity();
      bytes += chunk.byteLength;
      if (bytes > capBytes) {
        capped = true;
        continue;
      }
      text += decoder.decode(chunk, { stream: true });
    }
  } catch (err) {
    cut = { err };
  }
  text += decoder.decode();
  return cut ? { text, bytes, capped, cut: cut.err } : { text, bytes, capped };
}

/** `readBody` for callers that treat a cut body as a failure: throws what cut it. */
export async function readBodyText(
  res: GatewayResponse,
  timer: RequestTimer,
  capBytes = 8 * 1024 * 1024,
): Promise<{ text: string; bytes: number; capped: boolean }> {
  const body = await readBody(res.body, timer, capBytes);
  if ('cut' in body) throw body.cut;
  return body;
}

export type BodySniff = 'document' | 'event-stream' | 'text' | 'empty';

const BOM = [0xef, 0xbb, 0xbf];
const SSE_FIELDS = ['data:', 'event:', 'id:', 'retry:'].map((f) => new TextEncoder().encode(f));

/**
 * What a body's first non-blank bytes say it is, whatever its content type claims: `{`, `[` or `<` open a
 * document, an SSE field name or a `:` comment opens an event stream. Undefined while the bytes so far cannot
 * tell (blank, or a field name cut short) and more may come; `ended` says none will.
 */
export function sniffBody(head: Uint8Array, ended: boolean): BodySniff | undefined {
  // A BOM cut short by the first chunk says nothing yet about what follows it.
  if (!ended && head.length > 0 && head.length < 3 && head.every((byte, at) => byte === BOM[at])) return undefined;
  let i = head[0] === BOM[0] && head[1] === BOM[1] && head[2] === BOM[2] ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  if (i === head.length) return ended ? 'empty' : undefined;
  const c = head[i];
  if (c === 0x7b || c === 0x5b || c === 0x3c) return 'document';
  if (c === 0x3a) return 'event-stream';
  let partial = false;
  for (const field of SSE_FIELDS) {
    const n = Math.min(field.length, head.length - i);
    if (!startsWith(head, i, field, n)) continue;
    if (n === field.length) return 'event-stream';
    partial = true;
  }
  return partial && !ended ? undefined : 'text';
}

/** Whether `bytes` at `at` holds the first `n` bytes of `field`: a byte compare, no view made per stream. */
function startsWith(bytes: Uint8Array, at: number, field: Uint8Array, n: number): boolean {
  for (let k = 0; k < n; k++) if (bytes[at + k] !== field[k]) return false;
  return true;
}
