/**
 * One run, end to end (design.md §5): build the request, record the ledger, fetch with timeouts, parse SSE,
 * fold events into a transcript, push delta-only batches, and end with exactly one verdict. Partial output
 * is kept on every failure, and the finished run is handed to history by the core, not the renderer.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type {
  GatewayErrorInfo,
  Ledger,
  RecordedRun,
  ResponseInfo,
  RunMetrics,
  RunResult,
  RunStartInput,
  RunUpdate,
} from '../../shared/contract';
import { RESULT_BODY_CAP } from '../../shared/contract';
import type { z } from 'zod';
import { PROTOCOL_INFO, type Transcript, type Verdict } from '../../shared/protocols/types';
import { createFold, readResponse } from '../../shared/protocols';
import { createSseReader, parseEvent } from '../../shared/protocols/sse';
import { bodyErrorOf, describeNetworkError, parseGatewayError } from '../../shared/errors';
import {
  buildRequest,
  DEFAULT_TIMEOUTS,
  headersToRecord,
  keyWatchingDecoder,
  readBodyText,
  RequestTimer,
  scrub,
  type Timeouts,
} from './gateway-client';
import type { ProfileStore } from './profiles';
import { EventLog } from './event-log';

export interface RunSink {
  push(update: RunUpdate): void;
}

export type FinishedRun = RecordedRun;

export class RunError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface ActiveRun {
  timer: RequestTimer;
  sink: RunSink;
}


export class RunManager {
  private readonly active = new Map<string, ActiveRun>();
  private readonly finishedListeners: ((run: FinishedRun) => void | Promise<void>)[] = [];
  /** Recently finished runs, oldest first, so evidence and columns can be reopened without history. */
  private readonly recent = new Map<string, FinishedRun>();
  private recentEvents = 0;

  constructor(
    private readonly profiles: ProfileStore,
    private readonly timeouts: Timeouts = DEFAULT_TIMEOUTS,
    /** Bounded by events as well as runs: a few 20k-event firehoses would otherwise pin hundreds of MB. */
    private readonly keep: { runs: number; events: number } = { runs: 200, events: 200_000 },
  ) {}

  /** Called with every finished run before its promise settles (history, probes). */
  onFinished(listener: (run: FinishedRun) => void | Promise<void>): void {
    this.finishedListeners.push(listener);
  }

  /** Starts the run and returns at once; everything after arrives as pushes to `sink`. */
  start(input: z.output<typeof RunStartInput>, sink: RunSink): { runId: string; done: Promise<FinishedRun> } {
    const profile = this.profiles.get(input.profileId);
    if (!profile) throw new RunError('not_found', `No profile with id ${input.profileId}.`);
    const key = this.profiles.keyFor(profile.id);
    const stream = input.body.stream === true;
    const req = buildRequest(profile, key, 'POST', PROTOCOL_INFO[input.protocol].path, input.body, { stream });
    const runId = `run_${randomUUID()}`;
    const ledger: Ledger = {
      runId,
      protocol: input.protocol,
      profileId: profile.id,
      profileName: profile.name,
      model: typeof input.body.model === 'string' ? input.body.model : undefined,
      stream,
      method: 'POST',
      url: req.url,
      headers: req.redactedHeaders,
      body: scrub(req.body ?? '', key),
      bodyBytes: Buffer.byteLength(req.body ?? ''),
      startedAt: new Date().toISOString(),
      warnings: input.warnings,
    };
    const timer = new RequestTimer(this.timeouts);
    this.active.set(runId, { timer, sink });
    sink.push({ kind: 'started', runId, ledger });
    const done = this.execute(runId, input.protocol, req, ledger, key, timer, sink).then(async (finished) => {
      this.active.delete(runId);
      finished.origin = input.origin;
      this.remember(runId, finished);
      sink.push({ kind: 'end', runId, result: finished.result });
      for (const listener of this.finishedListeners) {
        try {
          await listener(finished);
        } catch {
          // History is best effort: a full disk must not turn a finished run into a crash.
        }
      }
      return finished;
    });
    return { runId, done };
  }

  get(runId: string): FinishedRun | undefined {
    return this.recent.get(runId);
  }

  private remember(runId: string, run: FinishedRun): void {
    this.recent.set(runId, run);
    this.recentEvents += run.events.length;
    for (const [id, old] of this.recent) {
      if (id === runId) break;
      if (this.recent.size <= this.keep.runs && this.recentEvents <= this.keep.events) break;
      this.recent.delete(id);
      this.recentEvents -= old.events.length;
    }
  }

  cancel(runId: string): boolean {
    const run = this.active.get(runId);
    if (!run) return false;
    run.timer.cancel();
    return true;
  }

  /** A window or tab went away: its runs have no one to report to. */
  cancelAllFor(sink: RunSink): number {
    let n = 0;
    for (const run of this.active.values()) {
      if (run.sink === sink) {
        run.timer.cancel();
        n++;
      }
    }
    return n;
  }

  cancelAll(): void {
    for (const run of this.active.values()) run.timer.cancel();
  }

  activeCount(): number {
    return this.active.size;
  }

  private async execute(
    runId: string,
    protocol: Ledger['protocol'],
    req: ReturnType<typeof buildRequest>,
    ledger: Ledger,
    key: string | undefined,
    timer: RequestTimer,
    sink: RunSink,
  ): Promise<FinishedRun> {
    const t0 = performance.now();
    const since = () => Math.round((performance.now() - t0) * 100) / 100;
    const log = new EventLog();
    const warnings: string[] = [];
    let response: ResponseInfo | undefined;
    let bytes = 0;
    let ttftMs: number | undefined;

    const finish = (
      verdict: Verdict,
      reason: string,
      transcript: Transcript,
      extra: { error?: RunResult['error']; rawBody?: string } = {},
    ): FinishedRun => {
      timer.done();
      const totalMs = since();
      const usage = transcript.usage;
      const metrics: RunMetrics = {
        status: response?.status,
        ttfbMs: response?.ttfbMs,
        ttftMs,
        totalMs,
        events: log.length,
        bytes,
        usage,
      };
      // From the first token when a stream showed one; else (one JSON body) from the request: the time to read a
      // finished body after its headers says nothing about generation speed. Reasoning the usage counts but the
      // stream never showed was generated before the first visible token: then from the response headers, so
      // its time is counted along with its tokens.
      const hiddenReasoning = (usage.reasoning ?? 0) > 0 && !transcript.blocks.some((b) => b.kind === 'thinking' && b.text !== '');
      const genMs = totalMs - (ttftMs === undefined ? 0 : hiddenReasoning ? (response?.ttfbMs ?? 0) : ttftMs);
      if (usage.output !== undefined && genMs > 0) metrics.outputTokensPerSec = Math.round((usage.output / genMs) * 1000 * 10) / 10;
      const result: RunResult = {
        verdict,
        reason,
        error: extra.error,
        metrics,
        transcript,
        warnings,
        response,
        rawBody: extra.rawBody,
        endedAt: new Date().toISOString(),
      };
      return { ledger, response, events: log.all(), result, origin: 'composer' };
    };

    const empty: Transcript = { blocks: [], usage: {} };
    const timeoutReason = (cause: string | undefined) =>
      cause === 'timeout-headers'
        ? `No response headers within ${Math.round(this.timeouts.headersMs / 1000)} s.`
        : `No bytes for ${Math.round(this.timeouts.idleMs / 1000)} s after ${log.length} events: the stream went quiet.`;

    let fold: ReturnType<typeof createFold> | undefined;
    const read = async (): Promise<FinishedRun> => {
      let res: Response;
      try {
        res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: timer.signal });
      } catch (err) {
        const cause = timer.cause();
        if (cause === 'cancelled') return finish('cancelled', 'Stopped by you before the gateway answered.', empty);
        if (cause) return finish('timeout', timeoutReason(cause), empty, { error: { type: 'network:timeout', message: timeoutReason(cause) } });
        const error = describeNetworkError(err);
        return finish('network-error', error.message, empty, { error });
      }
      timer.activity();
      const headers = headersToRecord(res.headers);
      const contentType = headers['content-type'];
      response = { status: res.status, statusText: res.statusText, headers, contentType, ttfbMs: since() };
      sink.push({ kind: 'response', runId, response });

      const isSse = contentType?.toLowerCase().includes('text/event-stream') ?? false;
      if (!res.ok || !isSse) {
        let body: { text: string; bytes: number; capped: boolean };
        try {
          body = await readBodyText(res, timer);
        } catch (err) {
          const cause = timer.cause();
          if (cause === 'cancelled') return finish('cancelled', 'Stopped by you while the body was arriving.', empty);
          if (cause) return finish('timeout', timeoutReason(cause), empty);
          if (!res.ok) {
            const error = parseGatewayError(res.status, headers, '');
            return finish('http-error', `HTTP ${res.status}: ${error.message}`, empty, { error });
          }
          return finish('truncated', `The connection closed before the body was complete (${describeNetworkError(err).message}).`, empty);
        }
        bytes = body.bytes;
        const text = scrub(body.text, key);
        const rawBody = text.length > RESULT_BODY_CAP ? text.slice(0, RESULT_BODY_CAP) : text;
        if (!res.ok) {
          const error = parseGatewayError(res.status, headers, text);
          return finish('http-error', `HTTP ${res.status} ${error.type}: ${error.message}`, empty, { error, rawBody });
        }
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          const error = parseGatewayError(res.status, headers, text);
          const what = contentType ? `${contentType.split(';')[0]}` : 'no content type';
          return finish('http-error', `HTTP ${res.status}, but the body is ${what}, not JSON${ledger.stream ? ' or an event stream' : ''}.`, empty, {
            error: { ...error, type: 'invalid_response' },
            rawBody,
          });
        }
        if (ledger.stream) warnings.push('Asked for a stream; the gateway answered with one JSON body.');
        const inBody = bodyErrorOf(json);
        const reading = readResponse(protocol, json);
        if (inBody) {
          // A failed Responses body still carries the output produced so far and the usage billed for it.
          return finish('error-event', `HTTP ${res.status} with an error body: ${inBody.message}`, reading.transcript, {
            error: { status: res.status, type: inBody.type ?? 'error', code: inBody.code, message: inBody.message },
            rawBody,
          });
        }
        warnings.push(...reading.warnings);
        if (reading.error) {
          const e = reading.error;
          return finish('error-event', `The response carried an error: ${e.message}`, reading.transcript, {
            error: { status: res.status, type: e.type ?? 'error', code: e.code, message: e.message },
            rawBody,
          });
        }
        return finish('complete', 'The gateway returned a complete response.', reading.transcript, { rawBody });
      }

      const live = createFold(protocol);
      fold = live;
      // Events parsed from one chunk arrived together: they share its arrival time and travel in one push.
      let chunkT = 0;
      let terminalSeen = false;
      const flushPending = () => {
        const events = log.take();
        if (events.length) sink.push({ kind: 'events', runId, events });
      };
      const decoder = keyWatchingDecoder(key);
      const reader = createSseReader({
        onMessage: (message) => {
          // Scrubbed before anything reads it: a key the gateway echoes (in an error event, say) reaches
          // neither the Events list nor the transcript nor history.
          let m = message;
          if (decoder.sawKey) {
            const data = scrub(message.data, key);
            if (data !== message.data) m = { ...message, data };
          }
          // One JSON.parse per event, shared by the Events list's type and the fold.
          const parsed = parseEvent(m);
          // UTF-8 bytes, as on the wire (`data: …\n\n` plus any `event: …\n`): the live total then matches the final one.
          log.add(chunkT, parsed.type, m.data, m.event, Buffer.byteLength(m.data) + (m.event ? Buffer.byteLength(m.event) + 8 : 0) + 8);
          const step = live.push(m, parsed);
          if (step.content && ttftMs === undefined) ttftMs = chunkT;
          if (step.terminal) terminalSeen = true;
        },
        onComment: (comment) => {
          const text = decoder.sawKey ? scrub(comment, key) : comment;
          log.add(chunkT, 'comment', text, undefined, Buffer.byteLength(text) + 3);
        },
      }, decoder);

      let transportError: unknown;
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          timer.activity();
          chunkT = since();
          bytes += chunk.byteLength;
          reader.feed(chunk);
          flushPending();
          // The protocol's terminal event ends the run even when a relay holds the connection open (and
          // keeps sending pings): leaving the loop cancels the body.
          if (terminalSeen) break;
        }
        if (!terminalSeen) {
          chunkT = since();
          reader.end();
        }
      } catch (err) {
        transportError = err;
      }
      flushPending();
      const cause = terminalSeen ? undefined : timer.cause();
      if (cause === 'cancelled') {
        warnings.push(...live.warnings());
        return finish('cancelled', `Stopped by you after ${log.length} events; the partial output is kept.`, live.transcript());
      }
      if (cause) {
        warnings.push(...live.warnings());
        return finish('timeout', timeoutReason(cause), live.transcript(), { error: { type: 'network:timeout', message: timeoutReason(cause) } });
      }
      const outcome = live.end();
      warnings.push(...outcome.warnings);
      let reason = outcome.reason;
      if (transportError && outcome.verdict === 'truncated') reason += ` (${describeNetworkError(transportError).message})`;
      const error: GatewayErrorInfo | undefined = outcome.error
        ? { type: outcome.error.type ?? 'error', code: outcome.error.code, message: outcome.error.message, status: res.status }
        : undefined;
      return finish(outcome.verdict, reason, live.transcript(), { error });
    };
    try {
      return await read();
    } catch (err) {
      // Input no parser foresaw must still end the run with one verdict and what arrived, not leave the
      // window waiting on a run that will never end.
      timer.cancel();
      const why = err instanceof Error ? err.message : String(err);
      const failed = response !== undefined && (response.status < 200 || response.status > 299);
      return finish(failed ? 'http-error' : 'truncated', `The app failed while reading the response (${why}); what arrived before is kept.`, fold?.transcript() ?? empty);
    }
  }
}
