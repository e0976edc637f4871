import { z } from 'zod';
import { defineCall } from './define';
import { ProtocolSchema } from './runs';
import type { ProtocolId } from '../protocols/types';

/** One open request of a protocol tab, as it was last edited: kept by the core so it survives a restart. */
export interface RequestDraft {
  id: string;
  /** The name on its tab ("Request 1"). */
  name: string;
  /** The whole body, unknown fields included (a key found in it is replaced before it is written). */
  body: Record<string, unknown>;
  /** The "Message" box: the user turn being written. */
  draft: string;
  /** Its runs, newest last (History has them): the viewer shows the last one after a restart. */
  runIds: string[];
  activeRunId?: string;
  /** The run whose reply already joined the body: it must not join again after a restart. */
  continuedRunId?: string;
  /** The run set aside by a body loaded over it: its reply belongs to another conversation. */
  detachedRunId?: string;
  /** The body changed since its last send. */
  unsent: boolean;
}

/** A protocol tab's open requests, in tab order, and the one on view. */
export interface ProtocolDrafts {
  requests: RequestDraft[];
  activeId: string;
  savedAt: string;
}

export type ComposerDrafts = Partial<Record<ProtocolId, ProtocolDrafts>>;

/** Enough for a long working session; a request is a tab the user reads by name. */
export const MAX_OPEN_REQUESTS = 100;
/** The runs a request keeps a reference to (the viewer needs the last one). */
export const MAX_REQUEST_RUNS = 20;

const RunIdSchema = z.string().max(200);

export const RequestDraftSchema = z.object({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  body: z.record(z.string(), z.unknown()),
  draft: z.string().max(1_000_000),
  runIds: z.array(RunIdSchema).max(MAX_REQUEST_RUNS),
  activeRunId: RunIdSchema.optional(),
  continuedRunId: RunIdSchema.optional(),
  detachedRunId: RunIdSchema.optional(),
  unsent: z.boolean(),
});

export const ProtocolDraftsSchema = z.object({
  requests: z.array(RequestDraftSchema).min(1).max(MAX_OPEN_REQUESTS),
  activeId: z.string(),
  savedAt: z.string(),
});

/** The one-draft-per-protocol shape of drafts.json version 1, still read so a kept draft becomes "Request 1". */
export const LegacyDraftSchema = z.object({
  body: z.record(z.string(), z.unknown()),
  draft: z.string().max(1_000_000),
  savedAt: z.string(),
});

export const DraftSaveInput = z
  .object({
    protocol: ProtocolSchema,
    requests: z.array(RequestDraftSchema.strict()).min(1).max(MAX_OPEN_REQUESTS),
    activeId: z.string().min(1).max(200),
  })
  .strict()
  .refine((i) => i.requests.some((r) => r.id === i.activeId), 'activeId must name one of the requests');

export const draftCalls = {
  'drafts:list': defineCall<{ drafts: ComposerDrafts }>()(z.object({}).strict()),
  'drafts:save': defineCall<{ savedAt: string }>()(DraftSaveInput),
};
