/**
 * Drafts: each protocol tab's open requests (name, body, the message being written, its last runs, which one is
 * on view), so a restart finds what the user left. One file, written atomically and one write after another like
 * presets.json; a file that cannot be used is moved aside and reported, never overwritten. Version 1 of the file
 * held one draft per protocol: it is still read, each draft becoming that tab's "Request 1".
 */
import path from 'node:path';
import { z } from 'zod';
import {
  LegacyDraftSchema,
  ProtocolDraftsSchema,
  type ComposerDrafts,
  type ProtocolDrafts,
  type RequestDraft,
  type StartupProblem,
} from '../../shared/contract';
import type { ProtocolId } from '../../shared/protocols/types';
import { readJsonFile, writeJsonAtomic, writeQueue } from './atomic-file';
import { unwritable } from './errors';

const DRAFTS_VERSION = 2;
const perProtocol = <S extends z.ZodType>(s: S) =>
  z.object({ messages: s.optional(), chat: s.optional(), responses: s.optional() });
const DraftsFile = z.union([
  z.object({ version: z.literal(DRAFTS_VERSION), drafts: perProtocol(ProtocolDraftsSchema) }),
  z.object({ version: z.literal(1), drafts: perProtocol(LegacyDraftSchema) }),
]);
type LegacyDrafts = Partial<Record<ProtocolId, z.output<typeof LegacyDraftSchema>>>;

/** Version 1's one draft per protocol, as that tab's only request. */
export function fromLegacy(drafts: LegacyDrafts): ComposerDrafts {
  const out: ComposerDrafts = {};
  for (const [protocol, d] of Object.entries(drafts) as [ProtocolId, LegacyDrafts[ProtocolId]][]) {
    if (!d) continue;
    const id = `${protocol}-1`;
    const request: RequestDraft = { id, name: 'Request 1', body: d.body, draft: d.draft, runIds: [], unsent: false };
    out[protocol] = { requests: [request], activeId: id, savedAt: d.savedAt };
  }
  return out;
}

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
    if (read.value) this.drafts = read.value.version === 1 ? fromLegacy(read.value.drafts) : read.value.drafts;
    return [];
  }

  list(): ComposerDrafts {
    return structuredClone(this.drafts);
  }

  /** A protocol's open requests replace the ones kept for it. */
  save(protocol: ProtocolId, requests: RequestDraft[], activeId: string): Promise<{ savedAt: string }> {
    return this.queued(async () => {
      const savedAt = new Date().toISOString();
      const next: ComposerDrafts = { ...this.drafts, [protocol]: this.scrub({ requests, activeId, savedAt }) };
      try {
        await writeJsonAtomic(this.file, { version: DRAFTS_VERSION, drafts: next });
      } catch (err) {
        throw unwritable(this.file, err);
      }
      this.drafts = next;
      return { savedAt };
    });
  }

  private scrub(value: ProtocolDrafts): ProtocolDrafts {
    let text = JSON.stringify(value);
    for (const s of this.secrets()) if (s.length >= 8) text = text.split(s).join('<API_KEY>');
    return JSON.parse(text) as ProtocolDrafts;
  }
}
