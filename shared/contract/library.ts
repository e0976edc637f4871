/**
 * Saving and reusing work: presets, the history of every finished run, export as code and import from curl.
 */
import { z } from 'zod';
import { defineCall, MAX_PAYLOAD_BYTES } from './define';
import { ProtocolSchema, RunSourceSchema, type RecordedRun, type RunCheck, type RunSource } from './runs';
import type { ProtocolId, Verdict } from '../protocols/types';
import { ExpectationSchema, type Expectation } from '../collections/expectations';

export const PRESET_FORMAT = 'gateway-playground-presets';
export const PRESET_VERSION = 2;

/** A comparison column: where the shared prompt goes, and what it overrides there. */
export interface CompareColumn {
  profileId: string;
  protocol: ProtocolId;
  model: string;
  /** Fields merged into this column's translated body (e.g. a different temperature). */
  overrides?: Record<string, unknown>;
}

export interface Preset {
  id: string;
  name: string;
  notes?: string;
  tags: string[];
  protocol: ProtocolId;
  model?: string;
  /** The whole body as composed, unknown fields included. Never a key: keys live only in the vault. */
  body: Record<string, unknown>;
  stream: boolean;
  /** Set when the preset is a saved comparison: `body` is then the shared prompt (Messages shape). */
  compare?: { columns: CompareColumn[] };
  /** Its folder in Collections, top level first; absent or [] outside every folder. */
  folder?: string[];
  /** What a collection run checks about its reply (docs/collections.md). */
  expect?: Expectation;
  createdAt: string;
  updatedAt: string;
}

const PresetFields = {
  name: z.string().trim().min(1, 'a name is required').max(200),
  notes: z.string().max(5000).optional(),
  tags: z.array(z.string().trim().min(1).max(50)).max(20).default([]),
  protocol: ProtocolSchema,
  model: z.string().max(200).optional(),
  body: z.record(z.string(), z.unknown()),
  stream: z.boolean().default(false),
  compare: z
    .object({
      columns: z
        .array(
          z.object({
            profileId: z.string().min(1).max(100),
            protocol: ProtocolSchema,
            model: z.string().max(200),
            overrides: z.record(z.string(), z.unknown()).optional(),
          }),
        )
        .min(1)
        .max(6),
    })
    .optional(),
  folder: z.array(z.string().trim().min(1).max(100)).max(6).optional(),
  expect: ExpectationSchema.optional(),
};

export const PresetSchema = z.object({
  id: z.string().min(1).max(100),
  ...PresetFields,
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const PresetSaveInput = z
  .object({
    id: z.string().min(1).max(100).optional(),
    ...PresetFields,
    /** Without an id: save over the preset that already has this name (the user chose Replace), instead of refusing. */
    replace: z.boolean().optional(),
  })
  .strict();

export interface HistorySummary {
  runId: string;
  startedAt: string;
  protocol: ProtocolId;
  model?: string;
  profileName: string;
  origin: string;
  /** A connected agent's session (origin "agent"). */
  sessionId?: string;
  verdict: Verdict;
  /** How many warnings the run ended with (events skipped, a body read oddly); absent in an older index. */
  warnings?: number;
  status?: number;
  ttftMs?: number;
  totalMs: number;
  outputTokens?: number;
  events: number;
  /** Bytes this run takes on disk. */
  bytes: number;
  /** The first characters of the output, for the list and the text filter. */
  preview: string;
  /** Where it came from (History's Source filter); inferred for runs recorded before it was kept. */
  source?: RunSource;
  /** The check it was one step of: History shows the check as one row. */
  check?: RunCheck;
  /** A name the user gave it (searchable). */
  name?: string;
  /** Pinned: listed first, and kept when History is cleared or trimmed. */
  pinned?: boolean;
  /**
   * Set on a row that stands for a whole check in a grouped list: how many of its runs match the filter. The
   * row's other fields are the check's newest matching run.
   */
  groupCount?: number;
}

export interface HistorySettings {
  maxRuns: number;
  maxBytes: number;
}

export const HistoryFilter = z
  .object({
    protocol: ProtocolSchema.optional(),
    model: z.string().max(200).optional(),
    verdict: z
      .enum(['complete', 'truncated', 'error-event', 'http-error', 'network-error', 'timeout', 'cancelled'])
      .optional(),
    /** true: only runs that ended with warnings; false: only runs without (a clean "complete"). */
    withWarnings: z.boolean().optional(),
    text: z.string().max(200).optional(),
    /** Where the runs came from; absent or "all": every source. */
    source: z.union([RunSourceSchema, z.literal('all')]).optional(),
    /** One row per check (a group row, `groupCount`) instead of one per run. */
    grouped: z.boolean().optional(),
    /** In a grouped list, the checks whose runs follow their row. */
    expanded: z.array(z.string().max(200)).max(100).optional(),
    limit: z.number().int().min(1).max(1000).default(200),
    offset: z.number().int().min(0).default(0),
  })
  .strict();

export type ExportLanguage = 'curl' | 'python' | 'typescript' | 'http';

export interface CurlImport {
  protocol?: ProtocolId;
  path: string;
  method: string;
  body?: Record<string, unknown>;
  /** Things the user should know: the key was not stored, an option was ignored… */
  notes: string[];
}

const Id = z.object({ id: z.string().min(1).max(100) }).strict();

/** A run (or a selection) as a file: HAR 1.2 for a browser's network panel, or the recorded runs as JSON. */
export type HistoryExportFormat = 'har' | 'json';
export const HISTORY_EXPORT_FORMAT = 'gateway-playground-runs';
/** The most runs one export takes. */
export const HISTORY_EXPORT_MAX = 500;
const RunId = z.object({ runId: z.string().min(1).max(100) }).strict();

/** The largest presets file an import takes (one call's payload, less room for the call around it). */
export const PRESETS_FILE_MAX_BYTES = MAX_PAYLOAD_BYTES - 64 * 1024;

export const libraryCalls = {
  'presets:list': defineCall<{ presets: Preset[] }>()(z.object({}).strict()),
  'presets:save': defineCall<Preset>()(PresetSaveInput),
  'presets:rename': defineCall<Preset>()(
    z.object({ id: z.string().min(1).max(100), name: PresetFields.name }).strict(),
  ),
  'presets:duplicate': defineCall<Preset>()(Id),
  /** Returns the deleted preset so the UI can undo with presets:restore. */
  'presets:delete': defineCall<{ deleted: Preset }>()(Id),
  'presets:restore': defineCall<Preset>()(z.object({ preset: PresetSchema }).strict()),
  'presets:export': defineCall<{ text: string; count: number }>()(
    z.object({ ids: z.array(z.string().max(100)).max(10_000).optional() }).strict(),
  ),
  /** With onConflict "ask", a name clash imports nothing and lists the clashing names for the user to decide. */
  'presets:import': defineCall<{ imported: number; replaced: number; conflicts: string[] }>()(
    z
      .object({
        text: z.string().max(PRESETS_FILE_MAX_BYTES),
        onConflict: z.enum(['ask', 'keep-both', 'replace']).default('ask'),
      })
      .strict(),
  ),
  'history:list': defineCall<{ runs: HistorySummary[]; total: number; bytes: number }>()(HistoryFilter),
  'history:get': defineCall<RecordedRun>()(RunId),
  'history:delete': defineCall<{ deleted: boolean }>()(RunId),
  /** An empty name removes it. */
  'history:rename': defineCall<HistorySummary>()(
    z.object({ runId: z.string().min(1).max(100), name: z.string().trim().max(200) }).strict(),
  ),
  'history:pin': defineCall<HistorySummary>()(
    z.object({ runId: z.string().min(1).max(100), pinned: z.boolean() }).strict(),
  ),
  /** Keys and secret headers redacted (docs/security.md §4). */
  'history:export': defineCall<{ fileName: string; text: string; count: number }>()(
    z
      .object({
        runIds: z.array(z.string().min(1).max(100)).min(1).max(HISTORY_EXPORT_MAX),
        format: z.enum(['har', 'json']),
      })
      .strict(),
  ),
  'history:clear': defineCall<{ deleted: number }>()(z.object({}).strict()),
  'history:settings': defineCall<HistorySettings>()(
    z
      .object({
        maxRuns: z.number().int().min(1).max(100_000).optional(),
        maxBytes: z
          .number()
          .int()
          .min(1024 * 1024)
          .max(100 * 1024 ** 3)
          .optional(),
      })
      .strict(),
  ),
  /** A recorded run's request as code, from its ledger: the URL and headers it was sent with, not its profile's current ones. */
  'history:code': defineCall<{ code: string; language: ExportLanguage }>()(
    z
      .object({ runId: z.string().min(1).max(100), language: z.enum(['curl', 'python', 'typescript', 'http']) })
      .strict(),
  ),
  'export:code': defineCall<{ code: string; language: ExportLanguage }>()(
    z
      .object({
        profileId: z.string().min(1).max(100),
        protocol: ProtocolSchema,
        body: z.record(z.string(), z.unknown()),
        language: z.enum(['curl', 'python', 'typescript', 'http']),
      })
      .strict(),
  ),
  'import:curl': defineCall<CurlImport>()(z.object({ text: z.string().max(20 * 1024 * 1024) }).strict()),
};
