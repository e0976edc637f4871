/**
 * Agent check results, per profile: the latest result of each agent × model, kept in `<dataDir>/agents.json`
 * (versioned, written atomically, a corrupt file moved aside and reported), like capability-store.ts.
 */
import path from 'node:path';
import { z } from 'zod';
import type { StartupProblem } from '../../../shared/contract';
import { AGENT_IDS, AGENT_LEVELS, agentResultKey, STEP_OUTCOMES, type AgentResult } from '../../../shared/agents/types';
import { readJsonFile, writeJsonAtomic } from '../atomic-file';

const Exchange = z.object({
  method: z.string(),
  url: z.string(),
  requestHeaders: z.record(z.string(), z.string()),
  requestBody: z.string(),
  status: z.number().int().optional(),
  responseHeaders: z.record(z.string(), z.string()).optional(),
  responseBody: z.string().optional(),
  error: z.string().optional(),
});

const Step = z.object({
  id: z.string(),
  title: z.string(),
  outcome: z.enum(STEP_OUTCOMES),
  evidence: z.string(),
  status: z.number().int().optional(),
  runIds: z.array(z.string()),
  exchange: Exchange.optional(),
  consequence: z.string().optional(),
});

const StoredResult = z.object({
  agent: z.enum(AGENT_IDS),
  model: z.string().min(1),
  replayId: z.string().optional(),
  smallModel: z.string().optional(),
  replayed: z.string().optional(),
  level: z.enum(AGENT_LEVELS),
  verdict: z.string(),
  steps: z.array(Step),
  at: z.string(),
  durationMs: z.number().min(0),
});

const AgentsFile = z.object({
  version: z.literal(1),
  profiles: z.record(z.string(), z.object({ results: z.array(StoredResult) })),
});
type AgentsFile = z.output<typeof AgentsFile>;

export class AgentStore {
  readonly file: string;
  private readonly byProfile = new Map<string, Map<string, AgentResult>>();
  /** Writes are chained so two checks finishing together cannot interleave their renames out of order. */
  private writing: Promise<void> = Promise.resolve();

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'agents.json');
  }

  async load(): Promise<StartupProblem[]> {
    this.byProfile.clear();
    const read = await readJsonFile(this.file, AgentsFile);
    if (read.problem) return [read.problem];
    for (const [profileId, entry] of Object.entries(read.value?.profiles ?? {})) {
      this.byProfile.set(profileId, new Map(entry.results.map((r) => [agentResultKey(r), r])));
    }
    return [];
  }

  /** Newest first. */
  list(profileId: string): AgentResult[] {
    return [...(this.byProfile.get(profileId)?.values() ?? [])].sort((a, b) => b.at.localeCompare(a.at));
  }

  async put(profileId: string, result: AgentResult): Promise<void> {
    let cells = this.byProfile.get(profileId);
    if (!cells) {
      cells = new Map();
      this.byProfile.set(profileId, cells);
    }
    cells.set(agentResultKey(result), result);
    await this.persist();
  }

  async forget(profileId: string): Promise<void> {
    if (this.byProfile.delete(profileId)) await this.persist();
  }

  private persist(): Promise<void> {
    const next = this.writing.then(() => writeJsonAtomic(this.file, this.snapshot()));
    // A failed write must not wedge every later one; the caller of this write still sees its error.
    this.writing = next.catch(() => undefined);
    return next;
  }

  private snapshot(): AgentsFile {
    const profiles: AgentsFile['profiles'] = {};
    for (const [profileId, cells] of this.byProfile) profiles[profileId] = { results: [...cells.values()] };
    return { version: 1, profiles };
  }
}
