/**
 * Collections (docs/collections.md): presets arranged in folders, with `{{variables}}` per profile and per
 * folder, and what each request expects when a collection runs. The requests themselves stay presets; this
 * domain adds where they sit and the values their variables take.
 */
import { z } from 'zod';
import { defineCall } from './define';
import { PRESETS_FILE_MAX_BYTES, type Preset } from './library';
import type { ExpectationCheck } from '../collections/expectations';
import type { ProtocolId, Verdict } from '../protocols/types';

export const FolderName = z
  .string()
  .trim()
  .min(1, 'a folder needs a name')
  .max(100)
  .refine((s) => !/[\p{Cc}/]/u.test(s), 'a folder name cannot hold a slash or a control character');
/** Where a request or a folder sits, top level first: ["Smoke", "Tools"]. [] is outside every folder. */
export const FolderPath = z.array(FolderName).max(6);
export type FolderPath = string[];

export const VariableName = z
  .string()
  .regex(/^[A-Za-z_][\w.-]{0,63}$/, 'a variable name is a letter or _, then letters, digits, _, - or .');
export const VariableMap = z.record(VariableName, z.string().max(100_000)).refine((m) => Object.keys(m).length <= 200, {
  message: 'at most 200 variables in one place',
});

/** A folder with its variables. A folder also exists while a request sits in it; this keeps empty ones too. */
export interface Folder {
  path: string[];
  variables: Record<string, string>;
}

export interface CollectionsState {
  folders: Folder[];
  /** Per profile id: variables that apply to every request sent on that profile. */
  profileVariables: Record<string, Record<string, string>>;
}

export interface ForeignImportResult {
  format: 'Postman' | 'Bruno';
  /** The folder the collection landed in (its own name, made unique). */
  folder: string[];
  imported: number;
  variables: number;
  leftOut: { name: string; reason: string }[];
}

export const collectionCalls = {
  'collections:list': defineCall<CollectionsState>()(z.object({}).strict()),
  /** Creates the folder when new; sets its variables when given. */
  'collections:save': defineCall<CollectionsState>()(
    z.object({ path: FolderPath.min(1), variables: VariableMap.optional() }).strict(),
  ),
  /** Renames the folder's last name; the requests and folders inside move with it. */
  'collections:rename': defineCall<CollectionsState>()(
    z.object({ path: FolderPath.min(1), name: FolderName }).strict(),
  ),
  /** Only an empty folder is deleted: a request is never lost with the folder it sat in. */
  'collections:delete': defineCall<CollectionsState>()(z.object({ path: FolderPath.min(1) }).strict()),
  /** Puts a request in a folder, before another request or at the folder's end: drag to reorder. */
  'collections:move': defineCall<Preset>()(
    z
      .object({
        id: z.string().min(1).max(100),
        folder: FolderPath,
        before: z.string().min(1).max(100).optional(),
      })
      .strict(),
  ),
  'variables:save': defineCall<CollectionsState>()(
    z.object({ profileId: z.string().min(1).max(100), variables: VariableMap }).strict(),
  ),
  /** A Postman (v2.x) or Bruno (JSON export) collection: its requests to the send endpoints, into a new folder. */
  'collections:import': defineCall<ForeignImportResult>()(
    z.object({ text: z.string().max(PRESETS_FILE_MAX_BYTES) }).strict(),
  ),
};

/** One request of a collection run, as its row shows it. */
export interface CollectionRunRow {
  presetId: string;
  name: string;
  folder: string[];
  protocol: ProtocolId;
  model?: string;
  state: 'waiting' | 'running' | 'passed' | 'failed' | 'skipped';
  /** The run in History and the stream viewer, once sent. */
  runId?: string;
  verdict?: Verdict;
  status?: number;
  ttftMs?: number;
  totalMs?: number;
  inputTokens?: number;
  outputTokens?: number;
  /** Each expectation of the request, held or not. */
  checks: ExpectationCheck[];
  /** Why it failed or was skipped, in words. */
  reason?: string;
}

export interface CollectionRunProgress {
  collectionRunId: string;
  folder: string[];
  profileName: string;
  startedAt: string;
  state: 'running' | 'finished' | 'stopped';
  rows: CollectionRunRow[];
}

export const COLLECTION_RUN_LIMITS = { concurrency: 8, requests: 500 } as const;

export const collectionRunCalls = {
  /** Sends every request at or under the folder, in order, `concurrency` at a time, on the profile. */
  'collections:run': defineCall<{ collectionRunId: string }>()(
    z
      .object({
        profileId: z.string().min(1).max(100),
        folder: FolderPath.min(1),
        concurrency: z.number().int().min(1).max(COLLECTION_RUN_LIMITS.concurrency).default(1),
      })
      .strict(),
  ),
  'collections:stop': defineCall<{ stopped: boolean }>()(
    z.object({ collectionRunId: z.string().min(1).max(100) }).strict(),
  ),
};
