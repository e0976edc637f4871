/**
 * One run, end to end (design.md §5): build the request, record the ledger, send it with timeouts, parse SSE,
 * fold events into a transcript, push delta-only batches, and end with exactly one verdict. Partial output
 * is kept on every failure, and the finished run is handed to history by the core, not the renderer.
 */
import { randomUUID } from 'node:crypto';
import { isAscii } from 'node:buffer';
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
import { createEventParser, createSseReader } from '../../shared/protocols/sse';
import { bodyErrorOf, closeCutJson, parseGatewayError, requestIdOf } from '../../shared/errors';
import {
  buildRequest,
  DEFAULT_TIMEOUTS,
  describeRequestError,
  gatewayRequest,
  proxyShown,
  type GatewayResponse,
  secretWatchingDecoder,
  readBody,
  RequestTimer,
  safeResponseHeaders,
  scrub,
  sniffBody,
  type BodySniff,
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

/** A finished run as kept in memory: its events stay in their log until someone asks for them (see EventLog). */
interface KeptRun {
  run: Omit<FinishedRun, 'events'>;
  log: EventLog;
}

/** The keys whose string is reply text in any family's body: a body cut inside one keeps the text so far. */
const REPLY_TEXT_KEYS: ReadonlySet<string> = new Set(['text', 'thinking', 'content', 'refusal']);

export class RunManager {
  private readonly active = new Map<string, ActiveRun>();
  private readonly finishedListeners: ((run: FinishedRun) => void | Promise<void>)[] = [];
  /** Recently finished runs, oldest first, so evidence and columns can be reopened without history. */
  private readonly recent = new Map<string, KeptRun>();
  /** Runs not yet through their finished listeners: shutting down waits for them (see `settled`). */
  private readonly unfinished = new Set<Promise<FinishedRun>>();
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
    const secrets = this.profiles.secretsFor(profile.id);
    const stream = input.body.stream === true;
    const req = buildRequest(profile, key, 'POST', PROTOCOL_INFO[input.protocol].path, input.body, { stream, secrets });
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
      ...(req.proxy ? { proxy: proxyShown(req.proxy) } : {}),
      headers: req.redactedHeaders,
      body: scrub(req.body ?? '', secrets),
      bodyBytes: Buffer.byteLength(req.body ?? ''),
      startedAt: new Date().toISOString(),
      warnings: input.warnings,
    };
    const timer = new RequestTimer(this.timeouts);
    this.active.set(runId, { timer, sink });
    sink.push({ kind: 'started', runId, ledger });
    const done = this.execute(runId, input.protocol, req, ledger, { key, secrets }, timer, sink).then(async ({ run, log }) => {
      this.active.delete(runId);
      run.origin = input.origin;
      this.remember(runId, { run, log });
      sink.push({ kind: 'end', runId, result: run.result });
      const finished = withLazyEvents({ run, log });
      for (const listener of this.finishedListeners) {
        try {
          await listener(finished);
        } catch {
          // History is best effort: a full disk must not turn a finished run into a crash.
        }
      }
      return finished;
    });
    this.unfinished.add(done);
    const forget = () => void this.unfinished.delete(done);
    done.then(forget, forget);
    return { runId, done };
  }

  /** Resolves once every run started so far has ended and its finished listeners (history) have run. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.unfinished]);
  }

  get(runId: string): FinishedRun | undefined {
    const kept = this.recent.get(runId);
    return kept && withEvents(kept);
  }

  private remember(runId: string, kept: KeptRun): void {
    this.recent.set(runId, kept);
    this.recentEvents += kept.log.length;
    for (const [id, old] of this.recent) {
      if (id === runId) break;
      if (this.recent.size <= this.keep.runs && this.recentEvents <= this.keep.events) break;
      this.recent.delete(id);
      this.recentEvents -= old.log.length;
    }
  }

  /**
   * Stops a run. With `sink`, only a run started for that sink: a window or tab can stop its own runs, not
   * another's (run ids travel in pushes and history, so knowing one proves nothing). The core's own callers
   * (probes) pass none.
   */
  cancel(runId: string, sink?: RunSink): boolean {
    const run = this.active.get(runId);
    if (!run || (sink !== undefined && run.sink !== sink)) return false;
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
    { key, secrets }: { key: string | undefined; secrets: string[] },
    timer: RequestTimer,
    sink: RunSink,
  ): Promise<KeptRun> {
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
    ): KeptRun['run'] => {
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
      // An error that arrived in a 200 (an error event mid-stream, an error body) names no request id itself:
      // the response headers do, and it is what a support ticket asks for.
      const requestId = extra.error && extra.error.requestId === undefined && response ? requestIdOf(response.headers) : undefined;
      const result: RunResult = {
        verdict,
        reason,
        error: requestId === undefined ? extra.error : { ...extra.error!, requestId },
        metrics,
        transcript,
        warnings,
        response,
        rawBody: extra.rawBody,
        endedAt: new Date().toISOString(),
      };
      return { ledger, response, result, origin: 'composer' };
    };

    const empty: Transcript = { blocks: [], usage: {} };
    const timeoutReason = (cause: string | undefined) =>
      cause === 'timeout-headers'
        ? `No response headers within ${Math.round(this.timeouts.headersMs / 1000)} s.`
        : `No bytes for ${Math.round(this.timeouts.idleMs / 1000)} s after ${log.length} events: the stream went quiet.`;

    const networkError = (err: unknown): GatewayErrorInfo => describeRequestError(err, secrets, req.proxy);
    const capped = (text: string) => (text.length > RESULT_BODY_CAP ? text.slice(0, RESULT_BODY_CAP) : text);

    let fold: ReturnType<typeof createFold> | undefined;
    const read = async (): Promise<KeptRun['run']> => {
      let res: GatewayResponse;
      try {
        res = await gatewayRequest(req, timer.signal);
      } catch (err) {
        const cause = timer.cause();
        if (cause === 'cancelled') return finish('cancelled', 'Stopped by you before the gateway answered.', empty);
        if (cause) return finish('timeout', timeoutReason(cause), empty, { error: { type: 'network:timeout', message: timeoutReason(cause) } });
        const error = networkError(err);
        return finish('network-error', error.message, empty, { error });
      }
      timer.activity();
      const headers = safeResponseHeaders(res.headers, secrets, key);
      const contentType = headers['content-type'];
      response = { status: res.status, statusText: scrub(res.statusText, secrets), headers, contentType, ttfbMs: since() };
      sink.push({ kind: 'response', runId, response });

      const body = res.body[Symbol.asyncIterator]();
      const labelledSse = contentType?.toLowerCase().includes('text/event-stream') ?? false;
      // A 2xx body is judged by its first non-blank bytes when they contradict its label (an event stream sent
      // as application/json or with no type; a JSON error sent as text/event-stream). Only those first bytes
      // wait: a labelled stream is handed on as soon as its first non-blank byte is seen.
      const head: { bytes: Uint8Array; t: number }[] = [];
      let headCut: { err: unknown } | undefined;
      let sniffed: BodySniff | undefined;
      let seen: Uint8Array = new Uint8Array(0);
      if (res.ok) {
        let ended = false;
        for (;;) {
          const found = sniffBody(seen, ended || labelledSse);
          if (found !== undefined && (found !== 'empty' || ended)) {
            sniffed = found;
            break;
          }
          try {
            const next = await body.next();
            if (next.done) ended = true;
            else {
              timer.activity();
              head.push({ bytes: next.value, t: since() });
              seen = seen.length ? Buffer.concat([seen, next.value]) : next.value;
            }
          } catch (err) {
            headCut = { err };
            ended = true;
          }
        }
      }
      const lead = () => /^([a-z]+:|.)/i.exec(Buffer.from(seen.subarray(0, 64)).toString('utf8').replace(/^\uFEFF/, '').trimStart())?.[0] ?? '';
      const label = contentType ? `labelled ${contentType.split(';')[0].trim()}` : 'sent with no content type';
      if (res.ok && labelledSse && sniffed === 'document') {
        warnings.push(`The body is ${label} but starts with "${lead()}": it was read as one body, not as events.`);
      } else if (res.ok && !labelledSse && sniffed === 'event-stream') {
        warnings.push(`The body is ${label} but starts with "${lead()}", like an event stream: it was read as one.`);
      }
      async function* rest(): AsyncGenerator<Uint8Array> {
        for (const h of head) yield h.bytes;
        if (headCut) throw headCut.err;
        for (;;) {
          const next = await body.next();
          if (next.done) return;
          yield next.value;
        }
      }

      const asStream = res.ok && (labelledSse ? sniffed !== 'document' : sniffed === 'event-stream');
      if (!asStream) {
        const whole = await readBody(rest(), timer);
        bytes = whole.bytes;
        const text = scrub(whole.text, secrets);
        const rawBody = capped(text);
        const cut = 'cut' in whole;
        const cause = cut ? timer.cause() : undefined;
        const idleS = Math.round(this.timeouts.idleMs / 1000);
        if (!res.ok) {
          // The status, the error type and retry-after are known from the headers and the first bytes: a body
          // that stalls or is cut does not turn a 503 into a bare timeout or an "empty body".
          const error = parseGatewayError(res.status, headers, text, { requestUrl: req.url });
          let note = '';
          if (cause === 'cancelled') note = ` (You stopped the run while the error body was arriving, after ${bytes} bytes.)`;
          else if (cause) note = ` (The error body stalled: no bytes for ${idleS} s after ${bytes} bytes.)`;
          else if (cut) note = ` (The connection closed after ${bytes} bytes of the error body: ${networkError(whole.cut).message})`;
          return finish('http-error', `HTTP ${res.status} ${error.type}: ${error.message}${note}`, empty, { error, rawBody });
        }
        if (cut) {
          const kept = rawBody === '' ? {} : { rawBody };
          // The reply as far as it came, read from the JSON closed where it was cut: the partial output is kept
          // here as it is for a stream that is cut.
          const partial = closeCutJson(text, { keepCutStrings: REPLY_TEXT_KEYS });
          const sofar = partial === undefined ? empty : readResponse(protocol, partial).transcript;
          if (cause === 'cancelled') return finish('cancelled', 'Stopped by you while the body was arriving.', sofar, kept);
          if (cause) {
            const reason = `No bytes for ${idleS} s after ${bytes} bytes of the body.`;
            return finish('timeout', reason, sofar, { error: { type: 'network:timeout', message: reason }, ...kept });
          }
          const why = networkError(whole.cut);
          const lead = why.type === 'network:decoding' ? 'The body stopped being readable before it was complete' : 'The connection closed before the body was complete';
          return finish('truncated', `${lead} (${why.message}).`, sofar, kept);
        }
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          const error = parseGatewayError(res.status, headers, text, { requestUrl: req.url });
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
        const t = reading.transcript;
        if (!t.blocks.some((b) => b.kind !== 'text' || b.text !== '') && t.stopReason === undefined && t.rawUsage === undefined && Object.values(t.usage).every((v) => v === undefined)) {
          // `truncated`, not `error-event`: nothing reports an error. A body's stop reason is its terminal
          // marker (protocols.md §0: complete only once the terminal marker arrived), and sources.md §3.4 traces
          // such empty 2xx answers to upstream resets: the answer was cut before it began.
          const shown = text.trim().length > 60 ? `${text.trim().slice(0, 60)}…` : text.trim();
          return finish(
            'truncated',
            `HTTP ${res.status}, but the body (${shown}) holds no content, no stop reason and no usage: the answer never started, most likely an upstream failure.`,
            t,
            { rawBody },
          );
        }
        return finish('complete', 'The gateway returned a complete response.', t, { rawBody });
      }

      const live = createFold(protocol);
      fold = live;
      const parse = createEventParser();
      // Events parsed from one chunk arrived together: they share its arrival time and travel in one push.
      let chunkT = 0;
      let terminalSeen = false;
      let messages = 0;
      // Until the first event, the text so far: a body that yields no events at all is shown, and read for an
      // error, as it came.
      let beforeEvents = '';
      const flushPending = () => {
        const events = log.take();
        if (events) sink.push({ kind: 'events', runId, events });
      };
      const watch = secretWatchingDecoder(secrets);
      const keepBeforeEvents = (text: string) => {
        if (messages === 0 && beforeEvents.length < RESULT_BODY_CAP) beforeEvents += text;
        return text;
      };
      const decoder = { write: (chunk: Uint8Array) => keepBeforeEvents(watch.write(chunk)), end: () => keepBeforeEvents(watch.end()) };
      const reader = createSseReader({
        onMessage: (message) => {
          if (messages++ === 0) beforeEvents = '';
          // Scrubbed before anything reads it: a secret the gateway echoes (in an error event, say) reaches
          // neither the Events list nor the transcript nor history.
          let m = message;
          if (watch.sawSecret) {
            log.scrubbed(secrets);
            const data = scrub(message.data, secrets);
            if (data !== message.data) m = { ...message, data };
          }
          // One parse per event (a template match for hot deltas, else JSON.parse), shared by the Events list and the fold.
          const parsed = parse(m);
          // UTF-8 bytes, as on the wire (`data: …\n\n` plus any `event: …\n`): the live total then matches the final one.
          const size = ascii ? m.data.length + (m.event ? m.event.length + 8 : 0) + 8 : Buffer.byteLength(m.data) + (m.event ? Buffer.byteLength(m.event) + 8 : 0) + 8;
          log.add(chunkT, parsed.type, m.data, m.event, size);
          const step = live.push(m, parsed);
          if (step.content && ttftMs === undefined) ttftMs = chunkT;
          if (step.terminal) terminalSeen = true;
        },
        onComment: (comment) => {
          if (watch.sawSecret) log.scrubbed(secrets);
          const text = watch.sawSecret ? scrub(comment, secrets) : comment;
          log.add(chunkT, 'comment', text, undefined, Buffer.byteLength(text) + 3);
        },
      }, decoder);
      // While every byte so far is ASCII (nearly every stream), an event's UTF-8 size is its length:
      // Buffer.byteLength is a native call that cost a 20k-event firehose ~5 ms.
      let ascii = true;
      const take = (chunk: Uint8Array, t: number) => {
        chunkT = t;
        bytes += chunk.byteLength;
        if (ascii) ascii = isAscii(chunk);
        log.keep(chunk);
        reader.feed(chunk);
        flushPending();
      };
      const noEventsBody = () => (messages === 0 && beforeEvents.trim() !== '' ? scrub(beforeEvents, secrets) : undefined);

      let transportError: unknown;
      try {
        for (const h of head) {
          take(h.bytes, h.t);
          if (terminalSeen) break;
        }
        if (!terminalSeen && headCut) throw headCut.err;
        while (!terminalSeen) {
          const next = await body.next();
          if (next.done) break;
          timer.activity();
          take(next.value, since());
        }
        // The protocol's terminal event ends the run even when a relay holds the connection open (and keeps
        // sending pings): the rest of the body is cancelled.
        if (terminalSeen) await body.return?.();
        else {
          chunkT = since();
          log.ended();
          reader.end();
        }
      } catch (err) {
        transportError = err;
        // A fold that threw leaves the body unread: release the connection, as leaving a for-await would.
        body.return?.().catch(() => undefined);
      }
      flushPending();
      const cause = terminalSeen ? undefined : timer.cause();
      const asSent = noEventsBody();
      const kept = asSent === undefined ? {} : { rawBody: capped(asSent) };
      if (cause === 'cancelled') {
        warnings.push(...live.warnings());
        return finish('cancelled', `Stopped by you after ${log.length} events; the partial output is kept.`, live.transcript(), kept);
      }
      if (cause) {
        warnings.push(...live.warnings());
        return finish('timeout', timeoutReason(cause), live.transcript(), { error: { type: 'network:timeout', message: timeoutReason(cause) }, ...kept });
      }
      const outcome = live.end();
      warnings.push(...outcome.warnings);
      let reason = outcome.reason;
      if (transportError && outcome.verdict === 'truncated') reason += ` (${networkError(transportError).message})`;
      if (asSent !== undefined) {
        // Keep-alive comments may come before a relay's JSON error: they are not part of it.
        const doc = asSent
          .split(/\r\n|\r|\n/)
          .filter((line) => !line.startsWith(':'))
          .join('\n')
          .trim();
        let json: unknown;
        try {
          json = JSON.parse(doc);
        } catch {
          json = undefined;
        }
        const inBody = bodyErrorOf(json);
        if (inBody) {
          return finish('error-event', `HTTP ${res.status} with an error body instead of events: ${inBody.message}`, live.transcript(), {
            error: { status: res.status, type: inBody.type ?? 'error', code: inBody.code, message: inBody.message },
            ...kept,
          });
        }
        reason += ` The body held no events: ${parseGatewayError(res.status, headers, asSent).message}`;
      }
      const error: GatewayErrorInfo | undefined = outcome.error
        ? { type: outcome.error.type ?? 'error', code: outcome.error.code, message: outcome.error.message, status: res.status }
        : undefined;
      return finish(outcome.verdict, reason, live.transcript(), { error, ...kept });
    };
    try {
      return { run: await read(), log };
    } catch (err) {
      // Input no parser foresaw must still end the run with one verdict and what arrived, not leave the
      // window waiting on a run that will never end. Its text may quote the request (a header value, the key).
      timer.cancel();
      const why = scrub(err instanceof Error ? err.message : String(err), secrets);
      const failed = response !== undefined && (response.status < 200 || response.status > 299);
      return { run: finish(failed ? 'http-error' : 'truncated', `The app failed while reading the response (${why}); what arrived before is kept.`, fold?.transcript() ?? empty), log };
    }
  }
}

/** The run with its whole event list, built for this caller (see EventLog). */
function withEvents({ run, log }: KeptRun): FinishedRun {
  return { ...run, events: listEvents(run, log) };
}

/**
 * The same, with the list built only when first read. The finished-run listeners and the run's promise get
 * this: right after a verdict the next run may already be streaming, and a list nobody reads (a run whose
 * history write is off, a probe that only looks at the verdict) should not be built then.
 */
function withLazyEvents({ run, log }: KeptRun): FinishedRun {
  let events: FinishedRun['events'] | undefined;
  return Object.defineProperty({ ...run }, 'events', { enumerable: true, get: () => (events ??= listEvents(run, log)) }) as FinishedRun;
}

function listEvents(run: KeptRun['run'], log: EventLog): FinishedRun['events'] {
  try {
    return log.events();
  } catch (err) {
    // Cannot happen short of a bug in the reader; the run's verdict and output are still worth keeping.
    run.result.warnings.push(`The run's events could not be listed: ${err instanceof Error ? err.message : String(err)}.`);
    return [];
  }
}
