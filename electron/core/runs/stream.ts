/**
 * Reading an event stream: parse SSE, fold events into a transcript, push delta-only batches, and judge how
 * the stream ended. Partial output is kept on every failure.
 */
import { isAscii } from 'node:buffer';
import { RESULT_BODY_CAP } from '../../../shared/contract';
import { createFold } from '../../../shared/protocols';
import { createEventParser, createSseReader } from '../../../shared/protocols/sse';
import type { SseMessage, Transcript } from '../../../shared/protocols/types';
import { bodyErrorOf, parseGatewayError } from '../../../shared/errors';
import { describeRequestError, type GatewayResponse } from '../http/request';
import { scrub, secretWatchingDecoder } from '../secrets';
import { scrubberFor } from '../scrubber';
import { SplitSecretGuard, type GuardedEvent } from './split-secret-guard';
import type { Head } from './head';
import { capped, timeoutReason } from './verdict';
import type { Ending, RunContext } from './types';
import { plural } from '../../../shared/plural';

type Fold = ReturnType<typeof createFold>;

/** The stream as far as it was read: the fold, and the text that came before any event. */
interface Ingest {
  fold: Fold;
  guard: SplitSecretGuard | undefined;
  terminalSeen: boolean;
  messages: number;
  /**
   * Until the first event, the text so far: a body that yields no events at all is shown, and read for an
   * error, as it came.
   */
  beforeEvents: string;
}

export async function readStream(
  ctx: RunContext,
  res: GatewayResponse,
  headers: Record<string, string>,
  head: Head | undefined,
  body: AsyncIterator<Uint8Array>,
): Promise<Ending> {
  // Events go to the log (and so to the window) through the guard, which holds back a secret split over deltas
  // and reads the text as the fold appends it. A log that keeps nothing pushes nothing: it needs no guard.
  const { log, secrets } = ctx;
  const guard =
    log.keeps && secrets.length > 0
      ? new SplitSecretGuard(scrubberFor(secrets), (e) => log.add(e.t, e.type, e.data, e.event, e.size, e.rewritten))
      : undefined;
  const fold = createFold(ctx.protocol, guard?.appended);
  ctx.state.partial = () => fold.transcript();
  const ingest: Ingest = { fold, guard, terminalSeen: false, messages: 0, beforeEvents: '' };
  const take = ingester(ctx, ingest);
  let transportError: unknown;
  try {
    for (const h of head?.chunks ?? []) {
      take.chunk(h.bytes, h.t);
      if (ingest.terminalSeen) break;
    }
    if (!ingest.terminalSeen && head?.cut) throw head.cut.err;
    while (!ingest.terminalSeen) {
      const next = await body.next();
      if (next.done) break;
      ctx.timer.activity();
      take.chunk(next.value, ctx.since());
    }
    // The protocol's terminal event ends the run even when a relay holds the connection open (and keeps
    // sending pings): the rest of the body is cancelled.
    if (ingest.terminalSeen) await release(res, body);
    else take.end();
  } catch (err) {
    transportError = err;
    // A fold that threw leaves the body unread: release the connection, as leaving a for-await would.
    body.return?.().catch(() => undefined);
  }
  take.finish();
  return judgeStream(ctx, res, headers, ingest, transportError);
}

/**
 * Lets go of a body after its terminal event. Nearly always the whole body has arrived too (the last chunk held
 * the end of the chunked body): what is left of it is read, and the connection goes back to the pool. A body
 * still open (a relay holding the connection with pings) is cancelled.
 */
async function release(res: GatewayResponse, body: AsyncIterator<Uint8Array>): Promise<void> {
  if (!res.arrived()) {
    await body.return?.();
    return;
  }
  while (!(await body.next()).done);
}

/** Feeds chunks through the SSE reader into the log and the fold; each chunk's events travel in one push. */
function ingester(ctx: RunContext, ingest: Ingest) {
  const { log, sink, runId, secrets } = ctx;
  const parse = createEventParser();
  // Events parsed from one chunk arrived together: they share its arrival time and travel in one push.
  let chunkT = 0;
  // While every byte so far is ASCII (nearly every stream), an event's UTF-8 size is its length:
  // Buffer.byteLength is a native call that cost a 20k-event firehose ~5 ms.
  // A log that keeps nothing needs no sizes, so it never looks.
  let ascii = log.keeps;
  const watch = secretWatchingDecoder(secrets);
  const { guard } = ingest;
  const keepBeforeEvents = (text: string) => {
    if (ingest.messages === 0 && ingest.beforeEvents.length < RESULT_BODY_CAP) ingest.beforeEvents += text;
    return text;
  };
  const decoder = {
    write: (chunk: Uint8Array) => keepBeforeEvents(watch.write(chunk)),
    end: () => keepBeforeEvents(watch.end()),
  };
  const onMessage = (message: SseMessage) => {
    if (ingest.messages++ === 0) ingest.beforeEvents = '';
    // Scrubbed before anything reads it: a secret the gateway echoes (in an error event, say) reaches
    // neither the Events list nor the transcript nor history.
    let m = message;
    if (watch.sawSecret) {
      log.scrubbed(secrets);
      const data = scrub(message.data, secrets);
      const event = message.event === undefined ? undefined : scrub(message.event, secrets);
      if (data !== message.data || event !== message.event) m = { ...message, data, event };
    }
    // One parse per event (a template match for hot deltas, else JSON.parse), shared by the Events list and the fold.
    const parsed = parse(m);
    // UTF-8 bytes, as on the wire (`data: …\n\n` plus any `event: …\n`): the live total then matches the final one.
    // A log that keeps nothing (a load request) needs no size.
    const size = !log.keeps
      ? 0
      : ascii
        ? m.data.length + (m.event ? m.event.length + 8 : 0) + 8
        : Buffer.byteLength(m.data) + (m.event ? Buffer.byteLength(m.event) + 8 : 0) + 8;
    const e: GuardedEvent = { t: chunkT, type: parsed.type, data: m.data, event: m.event, size };
    if (!guard) log.add(e.t, e.type, e.data, e.event, e.size);
    let step;
    try {
      step = ingest.fold.push(m, parsed);
    } finally {
      guard?.event(e);
    }
    if (step.content) {
      if (ctx.state.ttftMs === undefined) ctx.state.ttftMs = chunkT;
      ctx.state.contentTimes?.push(chunkT);
    }
    if (step.terminal) ingest.terminalSeen = true;
  };
  const onComment = (comment: string) => {
    if (watch.sawSecret) log.scrubbed(secrets);
    const text = watch.sawSecret ? scrub(comment, secrets) : comment;
    const e: GuardedEvent = {
      t: chunkT,
      type: 'comment',
      data: text,
      event: undefined,
      size: Buffer.byteLength(text) + 3,
    };
    if (guard) guard.event(e);
    else log.add(e.t, e.type, e.data, e.event, e.size);
  };
  const reader = createSseReader({ onMessage, onComment }, decoder);
  const flush = () => {
    const events = log.take();
    if (events) sink.push({ kind: 'events', runId, events });
  };
  return {
    chunk(chunk: Uint8Array, t: number) {
      chunkT = t;
      ctx.state.bytes += chunk.byteLength;
      if (ascii) ascii = isAscii(chunk);
      log.keep(chunk);
      reader.feed(chunk);
      flush();
    },
    end() {
      chunkT = ctx.since();
      log.ended();
      reader.end();
    },
    /** The last push: what the guard still holds goes too (its text never became a secret). */
    finish() {
      guard?.drain();
      flush();
    },
  };
}

function judgeStream(
  ctx: RunContext,
  res: GatewayResponse,
  headers: Record<string, string>,
  ingest: Ingest,
  transportError: unknown,
): Ending {
  const { fold } = ingest;
  const { log } = ctx;
  const transcript = (): Transcript => (ctx.usageOnly ? { blocks: [], usage: fold.usage() } : fold.transcript());
  const cause = ingest.terminalSeen ? undefined : ctx.timer.cause();
  const asSent =
    ingest.messages === 0 && ingest.beforeEvents.trim() !== '' ? scrub(ingest.beforeEvents, ctx.secrets) : undefined;
  const kept = asSent === undefined ? {} : { rawBody: capped(asSent) };
  if (cause === 'cancelled') {
    ctx.warnings.push(...fold.warnings());
    return {
      verdict: 'cancelled',
      reason: `Stopped by you after ${plural(log.length, 'event')}; the partial output is kept.`,
      transcript: transcript(),
      ...kept,
    };
  }
  if (cause) {
    ctx.warnings.push(...fold.warnings());
    const reason = timeoutReason(cause, ctx.timeouts, log.length);
    return {
      verdict: 'timeout',
      reason,
      transcript: transcript(),
      error: { type: 'network:timeout', message: reason },
      ...kept,
    };
  }
  const outcome = fold.end();
  ctx.warnings.push(...outcome.warnings);
  let reason = outcome.reason;
  if (transportError && outcome.verdict === 'truncated') {
    reason += ` (${describeRequestError(transportError, ctx.secrets, ctx.req.proxy).message})`;
  }
  if (asSent !== undefined) {
    const inBody = bodyErrorOf(documentOf(asSent));
    if (inBody) {
      const error = { status: res.status, type: inBody.type ?? 'error', code: inBody.code, message: inBody.message };
      const why = `HTTP ${res.status} with an error body instead of events: ${inBody.message}`;
      return { verdict: 'error-event', reason: why, transcript: transcript(), error, ...kept };
    }
    reason += ` The body held no events: ${parseGatewayError(res.status, headers, asSent).message}`;
  }
  const error = outcome.error
    ? {
        type: outcome.error.type ?? 'error',
        code: outcome.error.code,
        message: outcome.error.message,
        status: res.status,
      }
    : undefined;
  return { verdict: outcome.verdict, reason, transcript: transcript(), error, ...kept };
}

/** A body with no events read as one JSON document: keep-alive comments may come before a relay's JSON error. */
function documentOf(text: string): unknown {
  const doc = text
    .split(/\r\n|\r|\n/)
    .filter((line) => !line.startsWith(':'))
    .join('\n')
    .trim();
  try {
    return JSON.parse(doc);
  } catch {
    return undefined;
  }
}
