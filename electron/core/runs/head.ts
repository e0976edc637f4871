/**
 * The head of a 2xx body: its first non-blank bytes say whether it is a document or an event stream when they
 * contradict its label (an event stream sent as application/json or with no type; a JSON error sent as
 * text/event-stream). Only those first bytes wait: a labelled stream is handed on as soon as its first
 * non-blank byte is seen.
 */
import { sniffBody, type BodySniff } from '../http/body';

export interface Head {
  chunks: { bytes: Uint8Array; t: number }[];
  /** What cut the body while its head was read. */
  cut?: { err: unknown };
  sniffed?: BodySniff;
  seen: Uint8Array;
}

/** Reads until the head tells what the body is; `arrived` is called per chunk and returns its arrival time. */
export async function readHead(
  body: AsyncIterator<Uint8Array>,
  labelledSse: boolean,
  arrived: () => number,
): Promise<Head> {
  const head: Head = { chunks: [], seen: new Uint8Array(0) };
  let ended = false;
  for (;;) {
    const found = sniffBody(head.seen, ended || labelledSse);
    if (found !== undefined && (found !== 'empty' || ended)) {
      head.sniffed = found;
      return head;
    }
    try {
      const next = await body.next();
      if (next.done) ended = true;
      else {
        head.chunks.push({ bytes: next.value, t: arrived() });
        head.seen = head.seen.length ? Buffer.concat([head.seen, next.value]) : next.value;
      }
    } catch (err) {
      head.cut = { err };
      ended = true;
    }
  }
}

/** A warning when the head contradicts the body's label, else undefined. */
export function headWarning(head: Head, contentType: string | undefined, labelledSse: boolean): string | undefined {
  const lead = () =>
    /^([a-z]+:|.)/i.exec(
      Buffer.from(head.seen.subarray(0, 64))
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .trimStart(),
    )?.[0] ?? '';
  const label = () => (contentType ? `labelled ${contentType.split(';')[0].trim()}` : 'sent with no content type');
  if (labelledSse && head.sniffed === 'document') {
    return `The body is ${label()} but starts with "${lead()}": it was read as one body, not as events.`;
  }
  if (!labelledSse && head.sniffed === 'event-stream') {
    return `The body is ${label()} but starts with "${lead()}", like an event stream: it was read as one.`;
  }
  return undefined;
}

/** The whole body again: the head's chunks, then the rest as it arrives. */
export async function* bodyAfter(head: Head | undefined, body: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (const h of head?.chunks ?? []) yield h.bytes;
  if (head?.cut) throw head.cut.err;
  for (;;) {
    const next = await body.next();
    if (next.done) return;
    yield next.value;
  }
}
