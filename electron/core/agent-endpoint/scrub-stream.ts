/**
 * The profile's secrets taken out of an answer on its way to a connected agent (docs/security.md §12), with
 * the bytes otherwise unchanged and passed on as they arrive. No form of a secret holds a line break (a
 * credential is one header value; its JSON, URL and base64 forms have none), so a chunk is passed on up to
 * its last line break (LF or CR) and only the unfinished line after it waits for the next chunk: an event stream's
 * chunks end with their event's blank line, so nothing of a stream waits, and a client cannot use a line
 * before its end anyway. The text checked is scrubbed by secrets.ts, the one scrubber of the core.
 */
import { scrub } from '../secrets';

/** A line longer than this is passed on anyway, but for the longest any form of a secret can take. */
const LINE_CAP = 1024 * 1024;
/** The longest form of a secret `scrub` matches is about twelve times the secret (`\uXXXX` per character). */
const FORM_FACTOR = 12;

export interface StreamScrubber {
  /** The bytes of this chunk that can be passed on now, scrubbed; the rest waits for the next chunk. */
  write(chunk: Uint8Array): Uint8Array;
  /** What was still waiting, scrubbed: the body ended. */
  end(): Uint8Array;
}

export function streamScrubber(secrets: readonly string[]): StreamScrubber {
  if (secrets.length === 0) return { write: (chunk) => chunk, end: () => EMPTY };
  const keep = Math.max(...secrets.map((s) => s.length)) * FORM_FACTOR;
  // What waits, as it came: joined only when a line ends or the cap is reached, not on every chunk (a body with
  // no line break in small chunks would otherwise be copied and searched again whole, chunk after chunk).
  let held: Buffer[] = [];
  let heldLength = 0;
  const hold = (bytes: Buffer) => {
    held = bytes.length === 0 ? [] : [Buffer.from(bytes)];
    heldLength = bytes.length;
  };
  const clean = (bytes: Buffer): Uint8Array => {
    if (bytes.length === 0) return bytes;
    const text = bytes.toString('utf8');
    const scrubbed = scrub(text, secrets);
    // Nothing to take out: the bytes as they came (decoding and encoding again would change invalid UTF-8).
    return scrubbed === text ? bytes : Buffer.from(scrubbed, 'utf8');
  };
  return {
    write(chunk) {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      // Only the new chunk is searched: what is held has no line end. A lone CR ends a line too (SSE allows it).
      const cut = Math.max(bytes.lastIndexOf(0x0a), bytes.lastIndexOf(0x0d)) + 1;
      if (cut > 0) {
        const line = heldLength === 0 ? bytes.subarray(0, cut) : Buffer.concat([...held, bytes.subarray(0, cut)]);
        hold(bytes.subarray(cut));
        return clean(line);
      }
      held.push(Buffer.from(bytes));
      heldLength += bytes.length;
      if (heldLength <= LINE_CAP) return EMPTY;
      // One huge line (a document on one line): every whole secret in it is taken out first; then all but the
      // last `keep` bytes, where a secret still arriving may have begun, is passed on.
      let all = Buffer.concat(held);
      const whole = completeEnd(all);
      const text = all.toString('utf8', 0, whole);
      const scrubbed = scrub(text, secrets);
      if (scrubbed !== text) all = Buffer.concat([Buffer.from(scrubbed, 'utf8'), all.subarray(whole)]);
      const at = charStart(all, all.length - keep);
      hold(all.subarray(at));
      return all.subarray(0, at);
    },
    end() {
      const rest = Buffer.concat(held);
      hold(EMPTY);
      return clean(rest);
    },
  };
}

const EMPTY = Buffer.alloc(0);

/** The nearest index at or before `at` where a UTF-8 character starts. */
function charStart(bytes: Buffer, at: number): number {
  let i = Math.max(0, at);
  while (i > 0 && (bytes[i] & 0xc0) === 0x80) i--;
  return i;
}

/** The index after the last whole UTF-8 character: a chunk may end inside one. */
function completeEnd(bytes: Buffer): number {
  if (bytes.length === 0) return 0;
  const i = charStart(bytes, bytes.length - 1);
  const lead = bytes[i];
  const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return i + size <= bytes.length ? bytes.length : i;
}
