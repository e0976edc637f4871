/**
 * The verdict on a document (non-streamed) body, as a pure function of what arrived: no HTTP, no clock, so the
 * whole table is unit-tested (verdict.test.ts). docs/protocols.md §0: complete only once the terminal marker
 * arrived; a body's stop reason is its terminal marker.
 */
import { RESULT_BODY_CAP } from '../../../shared/contract';
import type { ProtocolId, Transcript } from '../../../shared/protocols/types';
import { readResponse } from '../../../shared/protocols';
import { bodyErrorOf, closeCutJson, parseGatewayError } from '../../../shared/errors';
import { EMPTY_TRANSCRIPT, type Ending } from './types';
import { plural } from '../../../shared/plural';

/** A whole body that arrived, as its verdict needs it. */
export interface DocumentBody {
  protocol: ProtocolId;
  status: number;
  headers: Record<string, string>;
  contentType: string | undefined;
  /** The body as text, already scrubbed of the request's secrets. */
  text: string;
  requestUrl: string;
  /** The request asked for a stream. */
  streamAsked: boolean;
  /** Said after an error's message when its body was cut (see httpErrorNote). */
  note?: string;
}

/** The keys whose string is reply text in any family's body: a body cut inside one keeps the text so far. */
const REPLY_TEXT_KEYS: ReadonlySet<string> = new Set(['text', 'thinking', 'content', 'refusal']);

export const capped = (text: string): string => (text.length > RESULT_BODY_CAP ? text.slice(0, RESULT_BODY_CAP) : text);

/** The verdict on a body that arrived whole (or, for an HTTP error, as far as it came), and the warnings it adds. */
export function documentVerdict(b: DocumentBody): Ending & { warnings: string[] } {
  const rawBody = capped(b.text);
  const ok = b.status >= 200 && b.status <= 299;
  if (!ok) {
    // The status, the error type and retry-after are known from the headers and the first bytes: a body that
    // stalls or is cut does not turn a 503 into a bare timeout or an "empty body".
    const error = parseGatewayError(b.status, b.headers, b.text, { requestUrl: b.requestUrl });
    const reason = `HTTP ${b.status} ${error.type}: ${error.message}${b.note ?? ''}`;
    return { verdict: 'http-error', reason, transcript: EMPTY_TRANSCRIPT, error, rawBody, warnings: [] };
  }
  let json: unknown;
  try {
    json = JSON.parse(b.text);
  } catch {
    const error = parseGatewayError(b.status, b.headers, b.text, { requestUrl: b.requestUrl });
    const what = b.contentType ? `${b.contentType.split(';')[0]}` : 'no content type';
    const reason = `HTTP ${b.status}, but the body is ${what}, not JSON${b.streamAsked ? ' or an event stream' : ''}.`;
    return {
      verdict: 'http-error',
      reason,
      transcript: EMPTY_TRANSCRIPT,
      error: { ...error, type: 'invalid_response' },
      rawBody,
      warnings: [],
    };
  }
  const warnings = b.streamAsked ? ['Asked for a stream; the gateway answered with one JSON body.'] : [];
  return { ...judgeJson(b, json, rawBody, warnings), warnings };
}

function judgeJson(b: DocumentBody, json: unknown, rawBody: string, warnings: string[]): Ending {
  const inBody = bodyErrorOf(json);
  const reading = readResponse(b.protocol, json);
  if (inBody) {
    // A failed Responses body still carries the output produced so far and the usage billed for it.
    const error = { status: b.status, type: inBody.type ?? 'error', code: inBody.code, message: inBody.message };
    return {
      verdict: 'error-event',
      reason: `HTTP ${b.status} with an error body: ${inBody.message}`,
      transcript: reading.transcript,
      error,
      rawBody,
    };
  }
  warnings.push(...reading.warnings);
  if (reading.error) {
    const e = reading.error;
    const error = { status: b.status, type: e.type ?? 'error', code: e.code, message: e.message };
    return {
      verdict: 'error-event',
      reason: `The response carried an error: ${e.message}`,
      transcript: reading.transcript,
      error,
      rawBody,
    };
  }
  const t = reading.transcript;
  if (isEmptyAnswer(t)) {
    // `truncated`, not `error-event`: nothing reports an error. Such empty 2xx answers trace to upstream resets
    // (docs/protocols.md, Sources): the answer was cut before it began.
    const trimmed = b.text.trim();
    const shown = trimmed.length > 60 ? `${trimmed.slice(0, 60)}…` : trimmed;
    const reason =
      `HTTP ${b.status}, but the body (${shown}) holds no content, no stop reason and no usage: ` +
      'the answer never started, most likely an upstream failure.';
    return { verdict: 'truncated', reason, transcript: t, rawBody };
  }
  return { verdict: 'complete', reason: 'The gateway returned a complete response.', transcript: t, rawBody };
}

function isEmptyAnswer(t: Transcript): boolean {
  return (
    !t.blocks.some((b) => b.kind !== 'text' || b.text !== '') &&
    t.stopReason === undefined &&
    t.rawUsage === undefined &&
    Object.values(t.usage).every((v) => v === undefined)
  );
}

/** The reply as far as a cut JSON body came, read from the JSON closed where it was cut. */
export function cutDocumentTranscript(protocol: ProtocolId, text: string): Transcript {
  const partial = closeCutJson(text, { keepCutStrings: REPLY_TEXT_KEYS });
  return partial === undefined ? EMPTY_TRANSCRIPT : readResponse(protocol, partial).transcript;
}

/** Why a run timed out, in words: no headers in time, or a body that went quiet. */
export function timeoutReason(
  cause: string | undefined,
  timeouts: { headersMs: number; idleMs: number },
  events: number,
): string {
  return cause === 'timeout-headers'
    ? `No response headers within ${Math.round(timeouts.headersMs / 1000)} s.`
    : `No bytes for ${Math.round(timeouts.idleMs / 1000)} s after ${plural(events, 'event')}: the stream went quiet.`;
}
