/**
 * The one place HTTP requests to a gateway are built and sent. Auth per profile, anthropic-version on the
 * first family's routes, a redacted copy of the headers for the ledger, and timeouts that tell "the gateway
 * never answered" from "the stream went quiet".
 */
import type { Profile } from './profiles';
import { joinUrl } from '../../shared/url';
import { requestHeaders, SECRET_HEADER } from '../../shared/request-headers';
import { StringDecoder } from 'node:string_decoder';
import { keyHint } from './vault';

export { ANTHROPIC_VERSION } from '../../shared/request-headers';

export interface BuiltRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Same headers with every secret replaced: safe for the ledger, history and the renderer. */
  redactedHeaders: Record<string, string>;
  body?: string;
}


export function buildRequest(
  profile: Profile,
  key: string | undefined,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  opts: { stream?: boolean; query?: Record<string, string> } = {},
): BuiltRequest {
  let url = joinUrl(profile.baseUrl, path);
  if (opts.query && Object.keys(opts.query).length) url += `?${new URLSearchParams(opts.query).toString()}`;
  const headers: Record<string, string> = {
    ...requestHeaders({ path, authScheme: profile.authScheme, extraHeaders: profile.extraHeaders, key, stream: opts.stream, hasBody: body !== undefined }),
    'user-agent': 'GatewayPlayground/0.1',
  };
  const redactedHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    redactedHeaders[name] = SECRET_HEADER.test(name) ? redact(value, key) : scrub(value, key);
  }
  return { url, method, headers, redactedHeaders, body: body === undefined ? undefined : JSON.stringify(body) };
}

function redact(value: string, key: string | undefined): string {
  if (key && value.includes(key)) return value.replace(key, `[redacted ${keyHint(key)}]`);
  return '[redacted]';
}

/** Removes the key from any text that might echo it (error bodies, events) before it leaves the core. */
export function scrub(text: string, key: string | undefined): string {
  if (!key || key.length < 4 || !text.includes(key)) return text;
  return text.split(key).join('[redacted]');
}

/**
 * A streamed body's decoder that also watches for the key, so events are scrubbed only once it has shown
 * up: one search per network chunk instead of one per event. The last key.length − 1 characters carry over,
 * so a key split across two chunks is still seen, and seen before the event holding it is dispatched (an
 * event is dispatched only when its blank line, which comes after the key, has arrived).
 */
export function keyWatchingDecoder(key: string | undefined): { write(chunk: Uint8Array): string; end(): string; readonly sawKey: boolean } {
  const utf8 = new StringDecoder('utf8');
  const watch = key !== undefined && key.length >= 4;
  let saw = false;
  let tail = '';
  const look = (text: string): string => {
    if (!watch || saw || text === '') return text;
    const keep = key.length - 1;
    saw = text.includes(key) || (tail + text.slice(0, keep)).includes(key);
    tail = text.length >= keep ? text.slice(-keep) : (tail + text).slice(-keep);
    return text;
  };
  return {
    write: (chunk) => look(utf8.write(chunk)),
    end: () => look(utf8.end()),
    get sawKey() {
      return saw;
    },
  };
}

export function headersToRecord(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

export interface Timeouts {
  /** From sending to the response headers (a non-streamed reply arrives only when complete). */
  headersMs: number;
  /** Longest silence between two chunks of a body (keep-alive comments count as activity). */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { headersMs: 600_000, idleMs: 90_000 };

export type EndCause = 'cancelled' | 'timeout-headers' | 'timeout-idle';

/**
 * Wraps an AbortController with the two timers. `cause()` says why the signal fired so a caught AbortError
 * can become "cancelled" or "timeout" rather than a generic failure.
 */
export class RequestTimer {
  readonly controller = new AbortController();
  private why: EndCause | undefined;
  private timer: NodeJS.Timeout | undefined;
  private phase: 'headers' | 'idle' = 'headers';
  private deadline: number;

  constructor(private readonly timeouts: Timeouts) {
    this.deadline = Date.now() + timeouts.headersMs;
    this.schedule(timeouts.headersMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  cause(): EndCause | undefined {
    return this.why;
  }

  /**
   * Headers arrived, or a body chunk did: the idle clock restarts. Only a deadline moves here; the one timer
   * re-checks it when it fires, so a stream of thousands of chunks does not churn timers.
   */
  activity(): void {
    if (this.why) return;
    this.deadline = Date.now() + this.timeouts.idleMs;
    if (this.phase === 'headers') {
      this.phase = 'idle';
      this.schedule(this.timeouts.idleMs);
    }
  }

  cancel(): void {
    this.fire('cancelled');
  }

  done(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), ms);
    this.timer.unref?.();
  }

  private check(): void {
    if (this.why) return;
    const left = this.deadline - Date.now();
    if (left > 0) this.schedule(left);
    else this.fire(this.phase === 'headers' ? 'timeout-headers' : 'timeout-idle');
  }

  private fire(cause: EndCause): void {
    if (this.why) return;
    this.why = cause;
    this.done();
    this.controller.abort(new Error(cause));
  }
}

/** Reads a whole body as text with the idle timer running, capped so a runaway body cannot eat memory. */
export async function readBodyText(res: Response, timer: RequestTimer, capBytes = 8 * 1024 * 1024): Promise<{ text: string; bytes: number; capped: boolean }> {
  if (!res.body) return { text: '', bytes: 0, capped: false };
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  let capped = false;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    timer.activity();
    bytes += chunk.byteLength;
    if (bytes > capBytes) {
      capped = true;
      continue;
    }
    text += decoder.decode(chunk, { stream: true });
  }
  text += decoder.decode();
  return { text, bytes, capped };
}
