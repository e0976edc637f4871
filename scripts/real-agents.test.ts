/**
 * Proof against the real thing (docs/agents.md "Proof against the real CLIs"): the pinned Claude Code, Codex and
 * Qwen Code CLIs (captures/versions.json) run in print mode against the Demo gateway, and for every `sim-relay-*`
 * model the real CLI's outcome must agree with the app's Check (Qwen Code's with the chat-completions agent's). Needs the CLIs installed under $AGENT_CLIS
 * (`npm i --prefix "$AGENT_CLIS" …`, as .ci/run does); skipped, saying so, without it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentResult, Result } from '../shared/contract';
import { createCore, type Core } from '../electron/core/service';
import { LayeredVault } from '../electron/core/vault';
import { DEMO_KEY, SIM_MODELS, startSimulator, type RunningSimulator } from '../electron/core/simulator';
import { cliPaths, runAgent, toolsRun, type AgentSession, type CapturedAgent } from './capture-kit';

const CLIS = process.env.AGENT_CLIS;
const installed = !!CLIS && Object.values(cliPaths(CLIS)).every((p) => existsSync(p));
if (!installed)
  console.warn(
    `real-agents: skipped — the pinned CLIs are not installed under AGENT_CLIS (${CLIS ?? 'unset'}); see docs/agents.md.`,
  );

const PROMPT = 'Read the file notes.txt and tell me in one sentence what it says.';
const MAIN: Record<CapturedAgent, string> = {
  'claude-code': 'claude-sim-sonnet',
  codex: 'gpt-sim-o3',
  'qwen-code': 'gpt-sim-4o',
};
/** Real sessions on an intermittent relay: compared by its rate over several sessions, within 20 points. */
const SESSIONS = 4;

let sim: RunningSimulator;
let core: Core;
let dataDir: string;

beforeAll(async () => {
  if (!installed) return;
  sim = await startSimulator({ delayMs: 0 });
  dataDir = mkdtempSync(path.join(tmpdir(), 'gp-real-agents-'));
  core = await createCore({
    dataDir,
    host: 'web',
    version: 'test',
    vault: new LayeredVault('file', path.join(dataDir, 'keys.json')),
    demoGateway: { baseUrl: sim.url, key: DEMO_KEY },
  });
});
afterAll(async () => {
  if (!installed) return;
  await core.close();
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const session = (agent: CapturedAgent, model: string): Promise<AgentSession> =>
  runAgent({ agent, model, prompt: PROMPT, clis: CLIS ?? '', gateway: sim.url, key: DEMO_KEY });

/**
 * A real session did the task: exit 0 and a tool executed (Qwen Code ends at 0 with a text answer where a
 * relay turned the tool call into text, never reading the file).
 */
async function done(agent: CapturedAgent, model: string): Promise<boolean> {
  const s = await session(agent, model);
  return s.exitCode === 0 && toolsRun(s.requests).length > 0;
}

async function check(agent: CapturedAgent, model: string): Promise<AgentResult> {
  const r = (await core.dispatch(
    'agents:check',
    {
      profileId: 'demo',
      // Qwen Code is what the Check's chat-completions agent replays.
      agent: agent === 'qwen-code' ? 'chat-agent' : agent,
      model,
      ...(agent === 'claude-code' ? { smallModel: model } : {}),
    },
    { send: () => undefined },
  )) as Result<AgentResult>;
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe.skipIf(!installed)('the real CLIs against the Demo gateway', () => {
  it.each(['claude-code', 'codex', 'qwen-code'] as const)(
    '%s completes a session: a harmless tool executed, the next turn accepted, exit 0',
    async (agent) => {
      const s = await session(agent, MAIN[agent]);
      expect(s.exitCode, s.stderr.slice(-1000)).toBe(0);
      const ran = toolsRun(s.requests);
      console.log(`${agent}: executed ${ran.join('; ')}`);
      expect(ran.length).toBeGreaterThan(0);
      expect(ran.join(' ')).toMatch(/notes\.txt/);
      const turns = s.requests.filter((r) => r.method === 'POST');
      expect(turns.length).toBeGreaterThanOrEqual(2);
      expect(turns.every((r) => r.status === 200)).toBe(true);
    },
    150_000,
  );

  it('agrees with the Check on every sim-relay-* model (the agreement matrix)', async () => {
    const relays = SIM_MODELS.filter((m) => m.relay).map((m) => m.id);
    const rows: string[] = [];
    const disagreements: string[] = [];
    for (const model of relays) {
      for (const agent of ['claude-code', 'codex', 'qwen-code'] as const) {
        let failed = 0;
        // Only a relay that fails some requests needs several real sessions to show its rate.
        const n = model === 'sim-relay-key-pool' ? SESSIONS : 1;
        for (let i = 0; i < n; i++) if (!(await done(agent, model))) failed++;
        const verdict = await check(agent, model);
        const turn2 = verdict.steps.find((s) => s.id === 'turn-2');
        const k = /^(\d+) of (\d+)/.exec(turn2?.evidence ?? '');
        const checkRate = verdict.level !== 'not-ready' ? 0 : k ? Number(k[1]) / Number(k[2]) : 1;
        const realRate = failed / n;
        const agree =
          (realRate === 0) === (checkRate === 0) && (realRate === 1) === (checkRate === 1)
            ? Math.abs(realRate - checkRate) <= 0.2 || (realRate > 0 && realRate < 1)
            : false;
        const row = `| ${model} | ${agent} | real: ${failed} of ${n} sessions failed | Check: ${verdict.level} (${Math.round(checkRate * 100)} %) | ${agree ? 'agree' : 'DISAGREE'} |`;
        rows.push(row);
        if (!agree) disagreements.push(`${row}\n  ${verdict.verdict}`);
      }
    }
    console.log(['| Model | Agent | Real CLI | Check | |', '| --- | --- | --- | --- | --- |', ...rows].join('\n'));
    expect(disagreements).toEqual([]);
  }, 900_000);
});
