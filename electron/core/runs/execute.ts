/**
 * One run's answer, read end to end (docs/architecture.md §5): send, read the head, then either the whole
 * document or the event stream, and end with exactly one verdict. Every failure keeps what arrived.
 */
import type { GatewayErrorInfo } from '../../../shared/contract';
import { describeRequestError, gatewayRequest, safeResponseHeaders, type GatewayResponse } from '../http/request';
import { readBody } from '../http/body';
import { scrub } from '../secrets';
import { bodyAfter, headWarning, readHead, type Head } from './head';
import { readStream } from './stream';
import { capped, cutDocumentTranscript, documentVerdict, timeoutReason } from './verdict';
import { EMPTY_TRANSCRIPT, type Ending, type RunContext } from './types';

/** The run's ending; never throws: input no parser foresaw still ends the run with what arrived. */
export async function executeRun(ctx: RunContext): Promise<Ending> {
  try {
    return await send(ctx);
  } catch (err) {
    // Its text may quote the request (a header value, the key).
    ctx.timer.cancel();
    const why = scrub(err instanceof Error ? err.message : String(err), ctx.secrets);
    const status = ctx.state.response?.status;
    const failed = status !== undefined && (status < 200 || status > 299);
    const reason = `The app failed while reading the response (${why}); what arrived before is kept.`;
    return {
      verdict: failed ? 'http-error' : 'truncated',
      reason,
      transcript: ctx.state.partial?.() ?? EMPTY_TRANSCRIPT,
    };
  }
}

const networkError = (ctx: RunContext, err: unknown): GatewayErrorInfo =>
  describeRequestError(err, ctx.secrets, ctx.req.proxy);

async function send(ctx: RunContext): Promise<Ending> {
  let res: GatewayResponse;
  try {
    res = await (ctx.send ?? gatewayRequest)(ctx.req, ctx.timer.signal);
  } catch (err) {
    return unanswered(ctx, err);
  }
  ctx.timer.activity();
  const headers = safeResponseHeaders(res.headers, ctx.secrets, ctx.key);
  const contentType = headers['content-type'];
  const response = {
    status: res.status,
    statusText: scrub(res.statusText, ctx.secrets),
    headers,
    contentType,
    ttfbMs: ctx.since(),
  };
  ctx.state.response = response;
  ctx.sink.push({ kind: 'response', runId: ctx.runId, response });

  const body = res.body[Symbol.asyncIterator]();
  const labelledSse = contentType?.toLowerCase().includes('text/event-stream') ?? false;
  let head: Head | undefined;
  if (res.ok) {
    head = await readHead(body, labelledSse, () => {
      ctx.timer.activity();
      return ctx.since();
    });
    const warning = headWarning(head, contentType, labelledSse);
    if (warning) ctx.warnings.push(warning);
  }
  const asStream = res.ok && (labelledSse ? head?.sniffed !== 'document' : head?.sniffed === 'event-stream');
  if (asStream) return readStream(ctx, res, headers, head, body);
  return readDocument(ctx, res, headers, bodyAfter(head, body));
}

/** No response headers: stopped, timed out, or the request failed. */
function unanswered(ctx: RunContext, err: unknown): Ending {
  const cause = ctx.timer.cause();
  if (cause === 'cancelled')
    return {
      verdict: 'cancelled',
      reason: 'Stopped by you before the gateway answered.',
      transcript: EMPTY_TRANSCRIPT,
    };
  if (cause) {
    const reason = timeoutReason(cause, ctx.timeouts, ctx.log.length);
    return {
      verdict: 'timeout',
      reason,
      transcript: EMPTY_TRANSCRIPT,
      error: { type: 'network:timeout', message: reason },
    };
  }
  const error = networkError(ctx, err);
  return { verdict: 'network-error', reason: error.message, transcript: EMPTY_TRANSCRIPT, error };
}

async function readDocument(
  ctx: RunContext,
  res: GatewayResponse,
  headers: Record<string, string>,
  body: AsyncIterable<Uint8Array>,
): Promise<Ending> {
  const whole = await readBody(body, ctx.timer);
  ctx.state.bytes = whole.bytes;
  const text = scrub(whole.text, ctx.secrets);
  const cut = 'cut' in whole;
  const cause = cut ? ctx.timer.cause() : undefined;
  const idleS = Math.round(ctx.timeouts.idleMs / 1000);
  const base = {
    protocol: ctx.protocol,
    status: res.status,
    headers,
    contentType: headers['content-type'],
    text,
    requestUrl: ctx.req.url,
    streamAsked: ctx.ledger.stream,
  };
  if (!res.ok) {
    let note = '';
    if (cause === 'cancelled') {
      note = ` (You stopped the run while the error body was arriving, after ${whole.bytes} bytes.)`;
    } else if (cause) {
      note = ` (The error body stalled: no bytes for ${idleS} s after ${whole.bytes} bytes.)`;
    } else if (cut) {
      const why = networkError(ctx, whole.cut).message;
      note = ` (The connection closed after ${whole.bytes} bytes of the error body: ${why})`;
    }
    return documentVerdict({ ...base, note });
  }
  if (cut) return cutDocument(ctx, text, cause, whole.cut);
  const { warnings, ...ending } = documentVerdict(base);
  ctx.warnings.push(...warnings);
  return ending;
}

/** A 2xx document cut before its end: the reply as far as it came, kept here as it is for a cut stream. */
function cutDocument(ctx: RunContext, text: string, cause: string | undefined, err: unknown): Ending {
  const rawBody = capped(text);
  const kept = rawBody === '' ? {} : { rawBody };
  const transcript = cutDocumentTranscript(ctx.protocol, text);
  if (cause === 'cancelled')
    return { verdict: 'cancelled', reason: 'Stopped by you while the body was arriving.', transcript, ...kept };
  const bytes = ctx.state.bytes;
  if (cause) {
    const reason = `No bytes for ${Math.round(ctx.timeouts.idleMs / 1000)} s after ${bytes} bytes of the body.`;
    return { verdict: 'timeout', reason, transcript, error: { type: 'network:timeout', message: reason }, ...kept };
  }
  const why = networkError(ctx, err);
  const lead =
    why.type === 'network:decoding'
      ? 'The body stopped being readable before it was complete'
      : 'The connection closed before the body was complete';
  return { verdict: 'truncated', reason: `${lead} (${why.message}).`, transcript, ...kept };
}
