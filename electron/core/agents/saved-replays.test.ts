/**
 * Integration (docs/agents.md "Saved replays"): a Codex session recorded through "Connect an agent" (its
 * captured turns sent over HTTP with the local token, against the simulator on loopback) is saved as a replay
 * in a temp data dir — with no key, no local token and no secret header in the file — and checked on other
 * models with the same verdict machinery as the captures.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AgentConnection,
  AgentResult,
  AgentSessionUpdate,
  ProfilesState,
  RecordedRun,
  SavedReplayInfo,
} from '../../../shared/contract';
import type { Block } from '../../../shared/protocols/types';
import { startSimulator, type RunningSimulator } from '../simulator';
import type { Core } from '../service';
import { newCore, value } from '../testing/core-harness';
import { replaySession } from './replay';
import { replayFromSession } from './saved-replays';

const KEY = 'sk-relay-saved-replay-0123456789abcdef';
const SECRET = 'helicone-secret-value-77';
const MODELS = ['gpt-sim-o3', 'gpt-sim-4o', 'sim-relay-function-tools-only'];

class Listener {
  readonly turns = new Map<string, AgentSessionUpdate>();
  send(name: string, payload: unknown): void {
    const u = payload as AgentSessionUpdate;
    if (name === 'agents:update' && u.kind === 'turn') this.turns.set(u.turn.runId, u);
  }
}

describe('saved replays: a connected session saved and checked on other models', () => {
  let core: Core;
  let dataDir: string;
  let sim: RunningSimulator;
  let conn: AgentConnection;
  let profileId: string;
  const r = new Listener();

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, delayMs: 0, keys: { [KEY]: MODELS } });
    ({ core, dataDir } = await newCore());
    const saved = value<ProfilesState>(
      await core.dispatch(
        'profiles:save',
        { name: 'Relay', baseUrl: sim.url, key: KEY, authScheme: 'bearer', extraHeaders: { 'helicone-auth': SECRET } },
        r,
      ),
    );
    profileId = saved.profiles.find((p) => p.name === 'Relay')!.id;
    conn = value<AgentConnection>(await core.dispatch('agents:connect', { profileId }, r));
  });
  afterAll(async () => {
    await core.close();
    await sim.close();
  });

  /** One turn through the endpoint as Codex sends it, the token also pasted into the prompt; its recorded run. */
  const viaEndpoint = async (turn: { path: string; headers: Record<string, string>; body: object }) => {
    const res = await fetch(`${conn.baseUrl}${turn.path}`, {
      method: 'POST',
      headers: { ...turn.headers, 'content-type': 'application/json', authorization: `Bearer ${conn.token}` },
      body: JSON.stringify(turn.body),
    });
    await res.text();
    const ended = () => [...r.turns.values()].every((u) => u.kind === 'turn' && u.turn.verdict);
    for (let i = 0; i < 200 && !ended(); i++) await new Promise((ok) => setTimeout(ok, 20));
    const runId = [...r.turns.keys()].at(-1)!;
    return value<RecordedRun>(await core.dispatch('runs:get', { runId }, r));
  };

  it('saves the session without the key, the token or the secret header, and checks it on other models', async () => {
    const session = replaySession('codex', 'gpt-sim-o3');
    const turn1 = structuredClone(session.turn1);
    // An agent may echo its own key into a prompt: the saved file must not keep it.
    (turn1.body.input as unknown[]).unshift({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: `my key is ${conn.token}` }],
    });
    const first = await viaEndpoint(turn1);
    expect(first.result.verdict).toBe('complete');
    const call = first.result.transcript.blocks.find(
      (b): b is Extract<Block, { kind: 'tool_call' }> => b.kind === 'tool_call',
    )!;
    const second = await viaEndpoint(session.turn2(first.result.transcript, call));
    expect(second.result.verdict).toBe('complete');

    const info = value<SavedReplayInfo>(
      await core.dispatch('replays:save', { name: 'Codex on the relay', runIds: [...r.turns.keys()] }, r),
    );
    expect(info).toMatchObject({ agent: 'codex', client: 'codex_exec/0.171.0', tool: 'exec_command', requests: 2 });
    const file = readFileSync(path.join(dataDir, 'agent-replays.json'), 'utf8');
    expect(file).toContain('"originator": "codex_exec"');
    for (const secret of [KEY, SECRET, conn.token, 'helicone-auth']) expect(file).not.toContain(secret);
    expect(value<SavedReplayInfo[]>(await core.dispatch('replays:list', {}, r)).map((x) => x.id)).toEqual([info.id]);

    const check = async (model: string) =>
      value<AgentResult>(
        await core.dispatch('agents:check', { profileId, agent: 'codex', model, replayId: info.id }, r),
      );
    const ready = await check('gpt-sim-4o');
    expect(ready.level, ready.verdict).toBe('ready');
    expect(ready.replayId).toBe(info.id);
    expect(ready.replayed).toMatch(/^the saved session “Codex on the relay” \(codex_exec\/0\.171\.0 on gpt-sim-o3, /);
    expect(ready.steps[0].title).toBe('Turn 1: exec_command call (as the saved session sent it)');
    // Codex's namespace and web_search tools were recorded too: a relay refusing them fails the saved session.
    const refused = await check('sim-relay-function-tools-only');
    expect(refused.level).toBe('not-ready');
    expect(refused.verdict).toContain("this relay accepts only 'function' tools");

    // Results of the saved replay are kept apart from the capture's on the same model.
    const list = value<{ results: AgentResult[] }>(await core.dispatch('agents:list', { profileId }, r));
    expect(list.results.filter((x) => x.replayId === info.id)).toHaveLength(2);

    expect(value<{ deleted: boolean }>(await core.dispatch('replays:delete', { id: info.id }, r)).deleted).toBe(true);
    const gone = await core.dispatch(
      'agents:check',
      { profileId, agent: 'codex', model: 'gpt-sim-4o', replayId: info.id },
      r,
    );
    expect(gone.ok).toBe(false);
  }, 60_000);

  it('refuses a session with no turn that sends a tool result back, saying what a replay needs', () => {
    expect(() =>
      replayFromSession({
        name: 'x',
        profileName: 'p',
        secrets: [],
        profileHeaders: [],
        ledgers: [
          {
            runId: 'run_1',
            protocol: 'messages',
            profileId: 'p',
            profileName: 'p',
            stream: true,
            method: 'POST',
            url: 'http://gw/v1/messages',
            path: '/v1/messages?beta=true',
            headers: {},
            body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
            bodyBytes: 10,
            startedAt: '2026-11-28T00:00:00.000Z',
            warnings: [],
            sessionId: 'agent_1',
          },
        ],
      }),
    ).toThrow(/no turn that sends a tool’s result back/);
  });
});
