import { z } from 'zod';
import { defineCall } from './define';
import type { GatewayErrorInfo } from './errors';
import type { EventColumns } from '../protocols/event-columns';
import type { ProtocolId, RawEvent, Transcript, Usage, Verdict } from '../protocols/types';

export const ProtocolSchema = z.enum(['messages', 'chat', 'responses']);

/** The request exactly as sent: the key is redacted before this object exists. */
export interface Ledger {
  runId: string;
  protocol: ProtocolId;
  profileId: string;
  profileName: string;
  model?: string;
  stream: boolean;
  method: 'POST' | 'GET';
  url: string;
  /** The proxy it went through (from https_proxy / http_proxy / all_proxy), credentials redacted; absent when sent direct. */
  proxy?: string;
  headers: Record<string, string>;
  body: string;
  bodyBytes: number;
  startedAt: string;
  /** Capability warnings the user sent anyway (protocol-switch guard). */
  warnings: string[];
  /** A connected agent's exchange (origin "agent"): the session it belongs to. */
  sessionId?: string;
  /** A connected agent's path as it asked for it, query included (`/v1/messages?beta=true`). */
  path?: string;
}

export interface ResponseInfo {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  contentType?: string;
  ttfbMs: number;
}

export interface RunMetrics {
  status?: number;
  ttfbMs?: number;
  ttftMs?: number;
  totalMs: number;
  events: number;
  bytes: number;
  /** Output tokens per second from first token to end, when output tokens were reported. */
  outputTokensPerSec?: number;
  usage: Usage;
}

export interface RunResult {
  verdict: Verdict;
  /** The verdict in words: what ended the run. */
  reason: string;
  error?: GatewayErrorInfo;
  metrics: RunMetrics;
  transcript: Transcript;
  warnings: string[];
  response?: ResponseInfo;
  /** Non-streaming body (or a non-SSE body on a streaming request), cut at RESULT_BODY_CAP characters. */
  rawBody?: string;
  endedAt: string;
}

export { RESULT_BODY_CAP } from './constants';

/**
 * Main → renderer. Delta-only: events are sent once each, batched about once a frame, as columns (see
 * event-columns.ts); exactly one `end`.
 */
export type RunUpdate =
  | { kind: 'started'; runId: string; ledger: Ledger }
  | { kind: 'response'; runId: string; response: ResponseInfo }
  | { kind: 'events'; runId: string; events: EventColumns }
  | { kind: 'end'; runId: string; result: RunResult };

export const RunStartInput = z
  .object({
    profileId: z.string().min(1).max(100),
    protocol: ProtocolSchema,
    /** The body as the user wrote it: unknown fields are sent as typed. */
    body: z.record(z.string(), z.unknown()),
    /** Capability warnings shown before sending (kept in the ledger). */
    warnings: z.array(z.string().max(500)).max(50).default([]),
    /**
     * Who started it: compare columns and probes tag their runs; History's Source filter reads it (RUN_SOURCES).
     * "load" and "collection" are for a load tab's trial request and a collection runner's requests.
     */
    origin: z.enum(['composer', 'compare', 'probe', 'replay', 'load', 'collection']).default('composer'),
  })
  .strict();
export type RunStartInput = z.input<typeof RunStartInput>;

/**
 * Where a run came from, as History's "Source" filter names it: "mine" is what the user sent (the composer, a
 * preset, a replay), the rest are runs the app sent for a screen. "collection" is a collection runner's.
 */
export const RUN_SOURCES = ['mine', 'compare', 'capabilities', 'agents', 'load', 'collection'] as const;
export type RunSource = (typeof RUN_SOURCES)[number];
export const RunSourceSchema = z.enum(RUN_SOURCES);

/** The check a run was one step of (a Capabilities row's probes, an agent check, a connected session). */
export interface RunCheck {
  /** Every run of one check shares it. */
  id: string;
  /** What History's row for the check says, e.g. "Capabilities · claude-sim-sonnet". */
  label: string;
  /** What one run of it is called, singular: "probe", "step", "request". */
  unit: string;
}

/** A finished run as recorded: enough to show it in the stream viewer exactly as it happened. */
export interface RecordedRun {
  ledger: Ledger;
  response?: ResponseInfo;
  events: RawEvent[];
  result: RunResult;
  origin: string;
  /** Absent in runs recorded before sources existed: History infers it (electron/core/history-source.ts). */
  source?: RunSource;
  check?: RunCheck;
}

export const runCalls = {
  'runs:start': defineCall<{ runId: string }>()(RunStartInput),
  /** A recently finished run (probe evidence, compare columns), kept in memory by the core. */
  'runs:get': defineCall<RecordedRun>()(z.object({ runId: z.string().min(1).max(100) }).strict()),
  'runs:cancel': defineCall<{ cancelled: boolean }>()(z.object({ runId: z.string().min(1).max(100) }).strict()),
};
