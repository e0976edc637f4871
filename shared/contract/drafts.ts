import { z } from 'zod';
import { defineCall } from './define';
import { ProtocolSchema } from './runs';
import type { ProtocolId } from '../protocols/types';

/** A protocol tab's composer as it was last edited: kept by the core so it survives a restart. */
export interface ComposerDraft {
  /** The whole body, unknown fields included (a key found in it is replaced before it is written). */
  body: Record<string, unknown>;
  /** The "Message" box: the user turn being written. */
  draft: string;
  savedAt: string;
}

export type ComposerDrafts = Partial<Record<ProtocolId, ComposerDraft>>;

export const DraftSchema = z.object({
  body: z.record(z.string(), z.unknown()),
  draft: z.string().max(1_000_000),
  savedAt: z.string(),
});

export const DraftSaveInput = z
  .object({ protocol: ProtocolSchema, body: z.record(z.string(), z.unknown()), draft: z.string().max(1_000_000) })
  .strict();

export const draftCalls = {
  'drafts:list': defineCall<{ drafts: ComposerDrafts }>()(z.object({}).strict()),
  'drafts:save': defineCall<{ savedAt: string }>()(DraftSaveInput),
};
