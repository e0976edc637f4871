/**
 * What every probe shares: sending a request as an ordinary run (origin "probe", so it has a ledger, events
 * and a place in history like any other), turning a failed run into the right outcome, and the small
 * per-protocol body shapes. A probe itself only builds its request and reads the evidence.
 */
import { randomInt } from 'node:crypto';
import Ajv, { type ErrorObject } from 'ajv';
import type { CapabilityId, ProbeOutcome } from '../../../shared/capabilities';
import type { ProtocolId, Transcript } from '../../../shared/protocols/types';
import { maxTokensField } from '../../../shared/protocols';
import type { FinishedRun, RunManager, RunSink, RunTag } from '../runs';
import type { ProfileStore } from '../profiles';
import type { Timeouts } from '../http/timer';

export type Body = Record<string, unknown>;

/** What a probe concludes. Run ids are collected by the environment, not by the probe. */
export interface ProbeVerdict {
  outcome: ProbeOutcome;
  message: string;
  explanation: string;
  fields?: Record<string, unknown>;
  text?: string;
  status?: number;
  /** Rate limited: ms the gateway asked to wait before trying again. */
  retryAfterMs?: number;
  /** The failure was a rate limit or overload: worth another attempt later. */
  rateLimited?: boolean;
}

/** Thrown by a probe (or the environment) to end it early with a verdict. */
export class ProbeStop extends Error {
  constructor(readonly verdict: ProbeVerdict) {
    super(verdict.message);
  }
}

/** The probe was stopped (job cancelled, its run cancelled elsewhere): nothing is recorded for this cell. */
export class ProbeCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

export interface ProbeDeps {
  runs: RunManager;
  profiles: ProfileStore;
  timeouts: Timeouts;
}

export interface ProbeTarget {
  profileId: string;
  model: string;
  protocol: ProtocolId;
  capability: CapabilityId;
}

/** Longest a single probe request may take before it is cancelled and the cell called inconclusive. */
export const PROBE_RUN_TIMEOUT_MS = 180_000;

/** Probe runs report nowhere live: their evidence is the finished run (history) and the stored result. */
const SILENT_SINK: RunSink = { push: () => undefined };

export const NONCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A fresh random token per request, so a cached or canned answer cannot pass (docs/protocols.md §7). */
export function nonce(length = 6): string {
  let out = '';
  for (let i = 0; i < length; i++) out += NONCE_ALPHABET[randomInt(NONCE_ALPHABET.length)];
  return out;
}

export class ProbeEnv {
  readonly runIds: string[] = [];
  /** Extra evidence recorded outside runs (token counting's count_tokens exchange). */
  readonly extraEvidence: Record<string, unknown> = {};

  constructor(
    readonly deps: ProbeDeps,
    readonly target: ProbeTarget,
    readonly signal: AbortSignal,
    readonly runTimeoutMs = PROBE_RUN_TIMEOUT_MS,
    /** Where its runs go in History (a Capabilities row, an agent check): see RunTag. */
    readonly tag?: RunTag,
  ) {}

  get protocol(): ProtocolId {
    return this.target.protocol;
  }

  get model(): string {
    return this.target.model;
  }

  /**
   * Sends one request as a run and waits for it to finish, whatever its verdict. `headers`: a replayed
   * client's own (agent checks), sent after the profile's as buildRequest merges them.
   */
  async send(
    body: Body,
    protocol: ProtocolId = this.target.protocol,
    headers?: Readonly<Record<string, string>>,
    query?: string,
  ): Promise<FinishedRun> {
    if (this.signal.aborted) throw new ProbeCancelled();
    const { runId, done } = this.deps.runs.start(
      { profileId: this.target.profileId, protocol, body, warnings: [], origin: 'probe' },
      SILENT_SINK,
      { headers, query, tag: this.tag },
    );
    this.runIds.push(runId);
    let timedOut = false;
    const onAbort = () => this.deps.runs.cancel(runId);
    this.signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      timedOut = true;
      this.deps.runs.cancel(runId);
    }, this.runTimeoutMs);
    timer.unref?.();
    let run: FinishedRun;
    try {
      run = await done;
    } finally {
      clearTimeout(timer);
      this.signal.removeEventListener('abort', onAbort);
    }
    if (run.result.verdict === 'cancelled') {
      if (timedOut && !this.signal.aborted) {
        throw new ProbeStop({
          outcome: 'inconclusive',
          message: `No complete answer within ${Math.round(this.runTimeoutMs / 1000)} s.`,
          explanation: 'The probe request was stopped before it finished, so it shows nothing either way.',
        });
      }
      // Cancelled by the job, by someone stopping this run in the viewer, or by the core shutting down: a
      // stopped request is no evidence, and recording it would overwrite the cell's last real result.
      throw new ProbeCancelled();
    }
    return run;
  }

  /** Sends and insists on a complete answer: anything else ends the probe with the failure's outcome. */
  async call(body: Body, protocol?: ProtocolId): Promise<FinishedRun> {
    const run = await this.send(body, protocol);
    if (run.result.verdict !== 'complete') throw new ProbeStop(failureOf(run));
    return run;
  }

  /** Waits, unless the job is cancelled first. */
  sleep(ms: number): Promise<void> {
    return abortableSleep(ms, this.signal);
  }
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ProbeCancelled());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ProbeCancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const RETRYABLE_STATUS = new Set([429, 503, 529]);
const RETRYABLE_TYPES = /rate_limit|overloaded|too_many|insufficient_capacity/i;

/**
 * A run that did not complete, as a probe outcome. A status code never proves anything: an HTTP error is an
 * `error` with its status and message; a rate limit, overload or timeout is `inconclusive` (try again).
 */
export function failureOf(run: FinishedRun): ProbeVerdict {
  const r = run.result;
  const status = r.response?.status ?? (typeof r.error?.status === 'number' ? r.error.status : undefined);
  const err = r.error;
  const errType = err?.type ?? '';
  const errMessage = err?.message ?? r.reason;
  const retryAfterMs =
    err && 'retryAfter' in err && typeof err.retryAfter === 'number' ? Math.round(err.retryAfter * 1000) : undefined;
  switch (r.verdict) {
    case 'http-error':
      if ((status !== undefined && RETRYABLE_STATUS.has(status)) || RETRYABLE_TYPES.test(errType)) {
        return {
          outcome: 'inconclusive',
          status,
          rateLimited: true,
          retryAfterMs,
          message: `Rate limited or overloaded (HTTP ${status}${retryAfterMs !== undefined ? `, retry-after ${fmtSeconds(retryAfterMs)}` : ''}): ${errMessage}`,
          explanation: 'The gateway refused to answer for now, which says nothing about the capability.',
          fields: { errorType: errType },
        };
      }
      return {
        outcome: 'error',
        status,
        message: `HTTP ${status ?? '?'}${errType && errType !== 'gateway_error' ? ` ${errType}` : ''}: ${errMessage}`,
        explanation: 'The gateway rejected the probe request, so the capability could not be observed.',
        fields: { errorType: errType, ...(err && 'code' in err && err.code ? { errorCode: err.code } : {}) },
      };
    case 'error-event':
      if (RETRYABLE_TYPES.test(errType)) {
        return {
          outcome: 'inconclusive',
          status,
          rateLimited: true,
          message: `The response carried an error (${errType}): ${errMessage}`,
          explanation:
            'The gateway reported a transient failure inside the response, which says nothing about the capability.',
        };
      }
      return {
        outcome: 'error',
        status,
        message: `HTTP ${status ?? '?'} with an error in the response${errType ? ` (${errType})` : ''}: ${errMessage}`,
        explanation: 'The answer was an error, so the capability could not be observed.',
      };
    case 'timeout':
      return {
        outcome: 'inconclusive',
        status,
        message: r.reason,
        explanation: 'The request timed out, which says nothing about the capability; try again.',
      };
    case 'truncated':
      return {
        outcome: 'inconclusive',
        status,
        message: r.reason,
        explanation: 'The answer was cut off before its end, so the evidence is incomplete; try again.',
      };
    case 'network-error':
      return {
        outcome: 'error',
        message: errMessage,
        explanation: 'The gateway could not be reached.',
        fields: { errorType: errType },
      };
    case 'cancelled':
    case 'complete':
      return { outcome: 'inconclusive', status, message: r.reason, explanation: 'The request did not finish.' };
  }
}

export function fmtSeconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return ms < 10_000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms / 1000)} s`;
}

/** A minimal one-turn request in the protocol's own shape. `content` may be a string or content parts. */
export function userBody(protocol: ProtocolId, model: string, content: unknown, maxTokens: number): Body {
  const body: Body = { model };
  // Responses rejects max_output_tokens below 16 upstream.
  body[maxTokensField(protocol)] = protocol === 'responses' ? Math.max(16, maxTokens) : maxTokens;
  if (protocol === 'responses') body.input = [{ role: 'user', content }];
  else body.messages = [{ role: 'user', content }];
  return body;
}

/** The visible reply: text blocks joined. */
export function replyText(t: Transcript): string {
  return t.blocks
    .filter((b): b is Extract<typeof b, { kind: 'text' }> => b.kind === 'text')
    .map((b) => b.text)
    .join('');
}

const TEXT_CAP = 600;
export function capText(text: string, cap = TEXT_CAP): string {
  return text.length > cap ? `${text.slice(0, cap)}…` : text;
}

export function statusOf(run: FinishedRun): number | undefined {
  return run.response?.status;
}

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new WeakMap<object, ReturnType<typeof ajv.compile>>();

/** Validates with ajv; returns the errors in words, or undefined when valid. */
export function schemaErrors(schema: object, value: unknown): string | undefined {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(value)) return undefined;
  return (validate.errors ?? [])
    .map((e: ErrorObject) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
    .join('; ');
}
