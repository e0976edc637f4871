/**
 * Probe results, per profile: the latest result of each model × protocol × capability cell, kept in
 * `<dataDir>/capabilities.json` (versioned, written atomically, a corrupt file moved aside and reported).
 * Results outlive the window that asked for them; history keeps the runs themselves.
 */
import path from 'node:path';
import { z } from 'zod';
import { ProtocolSchema, type StartupProblem } from '../../shared/contract';
import { CAPABILITY_IDS, PROBE_OUTCOMES, resultKey, type CapabilityResult } from '../../shared/capabilities';
import { readJsonFile, writeJsonAtomic, writeQueue } from './atomic-file';

const StoredResult = z.object({
  model: z.string().min(1),
  protocol: ProtocolSchema,
  capability: z.enum(CAPABILITY_IDS),
  outcome: z.enum(PROBE_OUTCOMES),
  message: z.string(),
  status: z.number().int().optional(),
  evidence: z.object({
    runIds: z.array(z.string()),
    fields: z.record(z.string(), z.unknown()),
    explanation: z.string(),
    text: z.string().optional(),
  }),
  at: z.string(),
  attempts: z.number().int().min(0),
  durationMs: z.number().min(0),
  retryAfter: z.string().optional(),
});

const CapabilitiesFile = z.object({
  version: z.literal(1),
  profiles: z.record(z.string(), z.object({ results: z.array(StoredResult) })),
});
type CapabilitiesFile = z.output<typeof CapabilitiesFile>;

export class CapabilityStore {
  readonly file: string;
  private readonly byProfile = new Map<string, Map<string, CapabilityResult>>();
  /** Writes are chained so two probes finishing together cannot interleave their renames out of order. */
  private readonly queued = writeQueue();

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'capabilities.json');
  }

  async load(): Promise<StartupProblem[]> {
    this.byProfile.clear();
    const read = await readJsonFile(this.file, CapabilitiesFile);
    if (read.problem) return [read.problem];
    for (const [profileId, entry] of Object.entries(read.value?.profiles ?? {})) {
      const cells = new Map<string, CapabilityResult>();
      for (const r of entry.results) cells.set(resultKey(r), r);
      this.byProfile.set(profileId, cells);
    }
    return [];
  }

  /** Newest first. */
  list(profileId: string): CapabilityResult[] {
    const cells = this.byProfile.get(profileId);
    if (!cells) return [];
    return [...cells.values()].sort((a, b) => b.at.localeCompare(a.at));
  }

  /** The stored result of one model × protocol, every capability. */
  forTarget(profileId: string, model: string, protocol: CapabilityResult['protocol']): CapabilityResult[] {
    return this.list(profileId).filter((r) => r.model === model && r.protocol === protocol);
  }

  /** Replaces the cell's previous result and persists. */
  async put(profileId: string, result: CapabilityResult): Promise<void> {
    let cells = this.byProfile.get(profileId);
    if (!cells) {
      cells = new Map();
      this.byProfile.set(profileId, cells);
    }
    cells.set(resultKey(result), result);
    await this.persist();
  }

  async forget(profileId: string): Promise<void> {
    if (this.byProfile.delete(profileId)) await this.persist();
  }

  private persist(): Promise<void> {
    return this.queued(() => writeJsonAtomic(this.file, this.snapshot()));
  }

  private snapshot(): CapabilitiesFile {
    const profiles: CapabilitiesFile['profiles'] = {};
    for (const [profileId, cells] of this.byProfile) profiles[profileId] = { results: [...cells.values()] };
    return { version: 1, profiles };
  }
}
