/**
 * Sessions recorded through "Connect an agent" saved as replays (docs/agents.md "Saved replays"): the agent's
 * own requests, with no credential, no local token and no secret header in them, kept in
 * `<dataDir>/agent-replays.json` (versioned, written atomically) and replayed by the same check as a capture.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Ledger, StartupProblem } from '../../../shared/contract';
import { AGENT_IDS, type AgentId, type SavedReplayInfo } from '../../../shared/agents/types';
import { readJsonFile, writeJsonAtomic } from '../atomic-file';
import { RunError } from '../errors';
import { scrubDeep } from '../secrets';
import type { Capture, CapturedAgent, CapturedRequest } from './captures';
import { placeholders } from './captures/placeholders';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

export interface SavedReplay extends Omit<SavedReplayInfo, 'requests'> {
  /** Indexes in `requests` of the turn that called the tool and of the turn that sent its result. */
  turns: [number, number];
  requests: CapturedRequest[];
}

/** Headers never kept: credentials (the profile's or the local token) and what the transport sets. */
const DROPPED = new Set([
  'authorization',
  'x-api-key',
  'api-key',
  'cookie',
  'proxy-authorization',
  'content-length',
  'host',
  'connection',
]);

const CHECK_OF: Record<string, { agent: AgentId; replayAs: CapturedAgent }> = {
  '/v1/messages': { agent: 'claude-code', replayAs: 'claude-code' },
  '/v1/responses': { agent: 'codex', replayAs: 'codex' },
  '/v1/chat/completions': { agent: 'chat-agent', replayAs: 'qwen-code' },
};

/** The machinery a saved replay is checked with (replay.ts): Messages as Claude Code, chat as Qwen Code. */
export const replayAs = (agent: AgentId): CapturedAgent =>
  agent === 'chat-agent' ? 'qwen-code' : agent === 'claude-code' ? 'claude-code' : 'codex';

const routeOf = (p: string) => p.split('?')[0];

/** The tool whose result this turn sends back, by the call id it answers; undefined when it sends none. */
export function answeredTool(route: string, body: Json): string | undefined {
  const names = new Map<unknown, string>();
  let answered: unknown;
  const items = [
    ...(Array.isArray(body.messages) ? (body.messages as unknown[]) : []),
    ...(Array.isArray(body.input) ? (body.input as unknown[]) : []),
  ].filter(isObj);
  for (const m of items) {
    if (route === '/v1/responses') {
      if (m.type === 'function_call') names.set(m.call_id, String(m.name));
      if (m.type === 'function_call_output') answered ??= m.call_id;
    }
    if (route === '/v1/chat/completions') {
      for (const c of Array.isArray(m.tool_calls) ? m.tool_calls.filter(isObj) : [])
        names.set(c.id, String(isObj(c.function) ? c.function.name : ''));
      if (m.role === 'tool') answered ??= m.tool_call_id;
    }
    if (route === '/v1/messages' && Array.isArray(m.content)) {
      for (const b of m.content.filter(isObj)) {
        if (b.type === 'tool_use') names.set(b.id, String(b.name));
        if (b.type === 'tool_result') answered ??= b.tool_use_id;
      }
    }
  }
  return answered === undefined ? undefined : names.get(answered);
}

/** The agent's own headers of a ledger: no credential, no header the profile adds, nothing redacted. */
function agentHeaders(ledger: Ledger, profileHeaders: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(ledger.headers)) {
    const name = k.toLowerCase();
    if (DROPPED.has(name) || profileHeaders.has(name) || v.includes('[redacted')) continue;
    out[name] = v;
  }
  return out;
}

export interface RecordedSession {
  name: string;
  profileName: string;
  /** The session's exchanges, oldest first. */
  ledgers: Ledger[];
  /** The profile's secrets and the session's local token: none of them may stay in what is saved. */
  secrets: readonly string[];
  /** Names of the headers the profile adds to every request (its own, not the agent's). */
  profileHeaders: readonly string[];
}

/**
 * A saved replay from a recorded session: its requests scrubbed and with per-session ids as placeholders, and
 * the first turn that sends a tool's result back (turn two) with the turn before it that called it (turn one).
 */
export function replayFromSession(s: RecordedSession): SavedReplay {
  const profileHeaders = new Set(s.profileHeaders.map((h) => h.toLowerCase()));
  const raw: CapturedRequest[] = s.ledgers.map((l) => {
    let body: unknown = l.body || undefined;
    try {
      if (l.body) body = JSON.parse(l.body);
    } catch {
      // kept as text: the replay skips it
    }
    return {
      method: l.method,
      path: l.path ?? new URL(l.url).pathname,
      headers: agentHeaders(l, profileHeaders),
      body,
    };
  });
  const scrubbed = scrubDeep(raw, [...s.secrets]);
  const at2 = scrubbed.findIndex(
    (r) => CHECK_OF[routeOf(r.path)] && isObj(r.body) && answeredTool(routeOf(r.path), r.body),
  );
  if (at2 < 0)
    throw new RunError(
      'invalid_input',
      'This session has no turn that sends a tool’s result back: a replay needs the turn that called a tool and the one after it.',
    );
  const second = scrubbed[at2];
  const route = routeOf(second.path);
  const asked = (second.body as Json).model;
  const model = typeof asked === 'string' ? asked : '';
  const at1 = scrubbed.findLastIndex(
    (r, i) => i < at2 && routeOf(r.path) === route && isObj(r.body) && r.body.model === model,
  );
  if (at1 < 0) throw new RunError('invalid_input', 'The turn that called the tool is not in this session.');
  const check = CHECK_OF[route];
  return {
    id: `replay_${randomUUID()}`,
    name: s.name,
    agent: check.agent,
    client: (second.headers['user-agent'] ?? 'an unnamed client').split(' ')[0],
    profileName: s.profileName,
    model,
    savedAt: new Date().toISOString(),
    tool: answeredTool(route, second.body as Json) ?? '',
    turns: [at1, at2],
    requests: placeholders(scrubbed, { model }),
  };
}

/** A saved replay as the replay machinery reads a capture. */
export function asCapture(r: SavedReplay): Capture {
  return {
    agent: replayAs(r.agent),
    version: r.client,
    capturedAt: r.savedAt,
    modelIdKnown: false,
    model: r.model,
    prompt: '',
    exitCode: null,
    toolsRun: [],
    requests: r.requests,
  };
}

export const infoOf = ({ turns: _turns, requests, ...info }: SavedReplay): SavedReplayInfo => ({
  ...info,
  requests: requests.length,
});

const Stored = z.object({
  id: z.string().min(1),
  name: z.string(),
  agent: z.enum(AGENT_IDS),
  client: z.string(),
  profileName: z.string(),
  model: z.string(),
  savedAt: z.string(),
  tool: z.string(),
  turns: z.tuple([z.number().int().min(0), z.number().int().min(0)]),
  requests: z.array(
    z.object({
      method: z.string(),
      path: z.string(),
      headers: z.record(z.string(), z.string()),
      body: z.unknown().optional(),
      status: z.number().optional(),
    }),
  ),
});
const ReplaysFile = z.object({ version: z.literal(1), replays: z.array(Stored) });

export class SavedReplayStore {
  readonly file: string;
  private replays: SavedReplay[] = [];
  private writing: Promise<void> = Promise.resolve();

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'agent-replays.json');
  }

  async load(): Promise<StartupProblem[]> {
    const read = await readJsonFile(this.file, ReplaysFile);
    if (read.problem) return [read.problem];
    this.replays = read.value?.replays ?? [];
    return [];
  }

  /** Newest first. */
  list(): SavedReplay[] {
    return [...this.replays].sort((a, b) => b.savedAt.localeCompare(a.savedAt));
  }

  get(id: string): SavedReplay | undefined {
    return this.replays.find((r) => r.id === id);
  }

  async put(replay: SavedReplay): Promise<void> {
    this.replays = [...this.replays.filter((r) => r.id !== replay.id), replay];
    await this.persist();
  }

  async delete(id: string): Promise<boolean> {
    const before = this.replays.length;
    this.replays = this.replays.filter((r) => r.id !== id);
    if (this.replays.length === before) return false;
    await this.persist();
    return true;
  }

  private persist(): Promise<void> {
    const next = this.writing.then(() => writeJsonAtomic(this.file, { version: 1, replays: this.replays }));
    // A failed write must not wedge every later one; the caller of this write still sees its error.
    this.writing = next.catch(() => undefined);
    return next;
  }
}
