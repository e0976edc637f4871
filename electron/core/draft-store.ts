/**
 * Drafts: each protocol tab's composer (its body and the message being written), so a restart finds what the
 * user left. One file, written atomically and one write after another like presets.json; a file that cannot be
 * used is moved aside and reported, never overwritten.
 */
import path from 'node:path';
import { z } from 'zod';
import { DraftSchema, type ComposerDraft, type ComposerDrafts, type StartupProblem } from '../../shared/contract';
import type { ProtocolId } from '../../shared/protocols/types';
import { readJsonFile, writeJsonAtomic, writeQueue } from './atomic-file';
import { unwritable } from './errors';

const DRAFTS_VERSION = 1;
const DraftsFile = z.object({
  version: z.literal(DRAFTS_VERSION),
  drafts: z.object({
    messages: DraftSchema.optional(),
    chat: DraftSchema.optional(),
    responses: DraftSchema.optional(),
  }),
});

export class DraftStore {
  private drafts: ComposerDrafts = {};
  private readonly file: string;
  /** drafts.json writes, one after another: the last draft saved is the one on disk. */
  private readonly queued = writeQueue();

  constructor(
    dataDir: string,
    /** Keys the vault holds: a draft must never carry one, even pasted into a body by mistake. */
    private readonly secrets: () => string[],
  ) {
    this.file = path.join(dataDir, 'drafts.json');
  }

  async load(): Promise<StartupProblem[]> {
    const read = await readJsonFile(this.file, DraftsFile);
    if (read.problem) return [read.problem];
    if (read.value) this.drafts = read.value.drafts;
    return [];
  }

  list(): ComposerDrafts {
    return structuredClone(this.drafts);
  }

  save(protocol: ProtocolId, body: Record<string, unknown>, draft: string): Promise<{ savedAt: string }> {
    return this.queued(async () => {
      const savedAt = new Date().toISOString();
      const next: ComposerDrafts = { ...this.drafts, [protocol]: this.scrub({ body, draft, savedAt }) };
      try {
        await writeJsonAtomic(this.file, { version: DRAFTS_VERSION, drafts: next });
      } catch (err) {
        throw unwritable(this.file, err);
      }
      this.drafts = next;
      return { savedAt };
    });
  }

  private scrub(value: ComposerDraft): ComposerDraft {
    let text = JSON.stringify(value);
    for (const s of this.secrets()) if (s.length >= 8) text = text.split(s).join('<API_KEY>');
    return JSON.parse(text) as ComposerDraft;
  }
}
