/**
 * Agreement against a gateway the app has not seen (docs/agents.md "Proof against the real CLIs"): the pinned
 * real CLIs and the app's Check, side by side, through a relay written in this test (unseen-relay.ts, not the
 * simulator's relays) in front of the Demo gateway. For each of its breaks — `system` turns refused with a 422
 * of its own, non-function Responses tools refused in its own shape, a stream line cut elsewhere, pooled keys
 * failing one turn in three with a 429 or a 502 — the real agent's outcome must agree with the Check, and an
 * intermittent rate be within 20 points. Needs $AGENT_CLIS, as real-agents.test.ts; skipped, saying so, without.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentResult, ProfilesState, Result } from '../shared/contract';
import { createCore, type Core } from '../electron/core/service';
import { LayeredVault } from '../electron/core/vault';
import { DEMO_KEY, startSimulator, type RunningSimulator } from '../electron/core/simulator';
import { cliPaths, runAgent, toolsRun, type CapturedAgent } from './capture-kit';
import { startUnseenRelay, UNSEEN_MODES, type UnseenMode, type UnseenRelay } from './unseen-relay';

const CLIS = process.env.AGENT_CLIS;
const installed = !!CLIS && Object.values(cliPaths(CLIS)).every((p) => existsSync(p));
if (!installed)
  console.warn(
    `real-agents-unseen: skipped — the pinned CLIs are not installed under AGENT_CLIS (${CLIS ?? 'unset'}); see docs/agents.md.`,
  );

const PROMPT = 'Read the file notes.txt and tell me in one sentence what it says.';
const AGENTS: CapturedAgent[] = ['claude-code', 'codex', 'qwen-code'];
const MAIN: Record<CapturedAgent, string> = {
  'claude-code': 'claude-sim-sonnet',
  codex: 'gpt-sim-o3',
  'qwen-code': 'gpt-sim-4o',
};
/** Real sessions on the intermittent relay: compared by rate, within 20 points. */
const POOL_SESSIONS = 3;

let sim: RunningSimulator;
let core: Core;
let dataDir: string;
const relays: UnseenRelay[] = [];
const sink = { send: () => undefined };

beforeAll(async () => {
  if (!installed) return;
  sim = await startSimulator({ delayMs: 0 });
  dataDir = mkdtempSync(path.join(tmpdir(), 'gp-real-unseen-'));
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
  await Promise.all(relays.map((r) => r.close()));
  await core.close();
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A relay of its own (a pool's rotation is not shared with another agent or with the Check). */
async function relay(mode: UnseenMode): Promise<UnseenRelay> {
  const r = await startUnseenRelay(mode, sim.url);
  relays.push(r);
  return r;
}

/** A profile pointing at `url`, as a user would add the relay. */
async function profileFor(name: string, url: string): Promise<string> {
  const saved = (await core.dispatch(
    'profiles:save',
    { name, baseUrl: url, key: DEMO_KEY, authScheme: 'both', extraHeaders: {} },
    sink,
  )) as Result<ProfilesState>;
  if (!saved.ok) throw new Error(saved.error.message);
  return saved.value.profiles.find((p) => p.name === name)!.id;
}

async function check(profileId: string, agent: CapturedAgent, model: string): Promise<AgentResult> {
  const r = (await core.dispatch(
    'agents:check',
    { profileId, agent: agent === 'qwen-code' ? 'chat-agent' : agent, model },
    sink,
  )) as Result<AgentResult>;
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** One cell: the real CLI's sessions and the Check, through a fresh relay of `mode`. */
async function cell(mode: UnseenMode, agent: CapturedAgent): Promise<{ row: string; agree: boolean; why: string }> {
  const model = MAIN[agent];
  const real = await relay(mode);
  const checked = await relay(mode);
  const n = mode === 'pool' ? POOL_SESSIONS : 1;
  const realSessions = async () => {
    let failed = 0;
    for (let i = 0; i < n; i++) {
      const s = await runAgent({ agent, model, prompt: PROMPT, clis: CLIS ?? '', gateway: real.url, key: DEMO_KEY });
      if (!(s.exitCode === 0 && toolsRun(s.requests).length > 0)) failed++;
    }
    return failed;
  };
  const profileId = await profileFor(`Unseen ${mode} ${agent}`, checked.url);
  const [failed, verdict] = await Promise.all([realSessions(), check(profileId, agent, model)]);
  const sessions = verdict.steps.find((s) => s.id === 'turn-2');
  const k = /^(\d+) of (\d+)/.exec(sessions?.evidence ?? '');
  const checkRate = verdict.level !== 'not-ready' ? 0 : k ? Number(k[1]) / Number(k[2]) : 1;
  const realRate = failed / n;
  const agree =
    (realRate === 0) === (checkRate === 0) &&
    (realRate === 1) === (checkRate === 1) &&
    (Math.abs(realRate - checkRate) <= 0.2 || (realRate > 0 && realRate < 1));
  const row = `| ${mode} | ${agent} | real: ${failed} of ${n} sessions failed (${real.failed} of ${real.turns} turns refused) | Check: ${verdict.level} (${Math.round(checkRate * 100)} %) | ${agree ? 'agree' : 'DISAGREE'} |`;
  return { row, agree, why: verdict.verdict };
}

describe.skipIf(!installed)('the real CLIs and the Check through a relay the app has not seen', () => {
  it('agree on every break of the unseen relay (the agreement matrix)', async () => {
    // One break at a time, its three agents at once (each with relays of its own): the machine stays responsive.
    const cells = [];
    for (const mode of UNSEEN_MODES) cells.push(...(await Promise.all(AGENTS.map((agent) => cell(mode, agent)))));
    console.log(
      [
        '| Unseen relay | Agent | Real CLI | Check | |',
        '| --- | --- | --- | --- | --- |',
        ...cells.map((c) => c.row),
      ].join('\n'),
    );
    expect(cells.filter((c) => !c.agree).map((c) => `${c.row}\n  ${c.why}`)).toEqual([]);
  }, 600_000);
});
