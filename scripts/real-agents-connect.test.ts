/**
 * Proof against the real thing through "Connect an agent" (docs/agents.md "Proof against the real CLIs"): the
 * pinned Claude Code and Codex CLIs run, with exactly the lines the Agents tab shows, against the agent endpoint
 * of a real core whose profile points at a simulator on loopback that accepts only that profile's key. One short
 * session per CLI: it completes, lands in History as the agent's session, and the key reaches the gateway but
 * never the agent, its output or the data folder. Skipped, saying so, without $AGENT_CLIS (as .ci/run sets it).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentConnection, HistorySummary, ProfilesState, RecordedRun, Result } from '../shared/contract';
import { connectLines } from '../shared/agents/connect-lines';
import { createCore, type Core } from '../electron/core/service';
import { LayeredVault } from '../electron/core/vault';
import { SIM_MODELS, startSimulator, type RunningSimulator } from '../electron/core/simulator';
import { cliPaths, NOTES, toolsRun, type CapturedAgent, type CapturedRequest } from './capture-kit';

const CLIS = process.env.AGENT_CLIS;
const installed = !!CLIS && Object.values(cliPaths(CLIS)).every((p) => existsSync(p));
if (!installed)
  console.warn(
    `real-agents-connect: skipped — the pinned CLIs are not installed under AGENT_CLIS (${CLIS ?? 'unset'}); see docs/agents.md.`,
  );

const PROMPT = `Read the file ${NOTES.name} and tell me in one sentence what it says.`;
/** The agents whose tab lines go through the endpoint here; the chat agent's line is OPENAI_* for any client. */
type Connected = Extract<CapturedAgent, 'claude-code' | 'codex'>;
const MAIN: Record<Connected, string> = { 'claude-code': 'claude-sim-sonnet', codex: 'gpt-sim-o3' };
/** A real-looking key, new per run: the simulator takes no other, so a 200 proves the core sent it. */
const KEY = `sk-ant-api03-${randomBytes(36).toString('base64url')}`;
const NO_TELEMETRY = {
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
};

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
const ok = <T>(r: Result<unknown>): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
};
const receiver = { send: () => undefined };

let sim: RunningSimulator;
let core: Core;
let dataDir: string;
let vaultDir: string;
let profileId: string;

beforeAll(async () => {
  if (!installed) return;
  sim = await startSimulator({ delayMs: 0, keys: { [KEY]: SIM_MODELS.map((m) => m.id) } });
  dataDir = mkdtempSync(path.join(tmpdir(), 'gp-real-connect-'));
  // The key file sits outside the data folder, as the desktop app keeps keys in the OS keychain: everything
  // else the core writes (History, profiles, settings) must be free of the key.
  vaultDir = mkdtempSync(path.join(tmpdir(), 'gp-real-connect-vault-'));
  core = await createCore({
    dataDir,
    host: 'web',
    version: 'test',
    vault: new LayeredVault('file', path.join(vaultDir, 'keys.json')),
  });
  const saved = ok<ProfilesState>(
    await core.dispatch('profiles:save', { name: 'Keyed relay', baseUrl: sim.url, key: KEY }, receiver),
  );
  profileId = saved.profiles.find((p) => p.name === 'Keyed relay')!.id;
  await core.dispatch('profiles:select', { id: profileId }, receiver);
});
afterAll(async () => {
  if (!installed) return;
  await core.close();
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(vaultDir, { recursive: true, force: true });
});

interface Outcome {
  exitCode: number | null;
  output: string;
}

/**
 * Runs the tab's line for `agent` in a shell, print mode appended, in an empty temp dir holding the file the
 * prompt names, with a temp HOME, telemetry off and nothing of ours in the environment but PATH.
 */
function runLine(agent: Connected, conn: AgentConnection, timeoutMs = 120_000): Promise<Outcome> {
  const lines = connectLines(conn.baseUrl, conn.token, MAIN[agent]);
  const line = lines.find((l) => l.id === agent)!.text;
  const home = mkdtempSync(path.join(tmpdir(), 'agent-home-'));
  const cwd = mkdtempSync(path.join(tmpdir(), 'agent-cwd-'));
  writeFileSync(path.join(cwd, NOTES.name), NOTES.text);
  // The Codex line sets the provider; config.toml only turns off what would reach the network.
  writeFileSync(path.join(home, 'config.toml'), 'check_for_update_on_startup = false\n[analytics]\nenabled = false\n');
  const command =
    agent === 'claude-code'
      ? `${line} -p ${quote(PROMPT)}`
      : `${line} exec --skip-git-repo-check -s read-only -m ${MAIN.codex} ${quote(PROMPT)}`;
  const bin = path.join(CLIS ?? '', 'node_modules/.bin');
  return new Promise<Outcome>((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], {
      cwd,
      env: {
        PATH: [bin, path.dirname(process.execPath), process.env.PATH ?? '/usr/bin:/bin'].join(':'),
        HOME: home,
        CODEX_HOME: home,
        TERM: 'dumb',
        NO_COLOR: '1',
        ...NO_TELEMETRY,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      rmSync(home, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
      resolve({ exitCode: code, output });
    });
  });
}

/** Every file under `dir` whose bytes hold `needle` (plain or base64). */
function filesHolding(dir: string, needle: string): string[] {
  const forms = [needle, Buffer.from(needle).toString('base64')];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile())
    .filter((f) => {
      const text = readFileSync(f, 'latin1');
      return forms.some((s) => text.includes(s));
    });
}

describe.skipIf(!installed)('the real CLIs through "Connect an agent"', () => {
  it.each(['claude-code', 'codex'] as const)(
    '%s runs the tab line: a session completes and History holds it, the key never reaching the agent',
    async (agent) => {
      const conn = ok<AgentConnection>(await core.dispatch('agents:connect', { profileId }, receiver));
      expect(conn.token).not.toBe(KEY);
      const seenBefore = sim.requests.length;
      const s = await runLine(agent, conn);
      await core.runs.settled();
      ok(await core.dispatch('agents:disconnect', {}, receiver));
      expect(s.exitCode, s.output.slice(-1500)).toBe(0);

      const listed = ok<{ runs: HistorySummary[] }>(await core.dispatch('history:list', { limit: 1000 }, receiver));
      const mine = listed.runs.filter((r) => r.sessionId === conn.sessionId);
      const runs = await Promise.all(
        mine.map(async (r) => ok<RecordedRun>(await core.dispatch('history:get', { runId: r.runId }, receiver))),
      );
      const turns = runs.filter((r) => r.ledger.method === 'POST');
      expect(turns.length).toBeGreaterThanOrEqual(2);
      for (const r of mine) expect(r).toMatchObject({ origin: 'agent', verdict: 'complete', status: 200 });
      expect(runs.every((r) => r.origin === 'agent' && r.ledger.sessionId === conn.sessionId)).toBe(true);

      // What the agent executed, read from the results it sent back as History recorded them.
      const requests: CapturedRequest[] = turns.map((r) => ({
        method: r.ledger.method,
        path: r.ledger.path ?? r.ledger.url,
        headers: r.ledger.headers,
        body: JSON.parse(r.ledger.body) as unknown,
      }));
      const ran = toolsRun(requests);
      console.log(`${agent} through the endpoint: ${turns.length} turns, executed ${ran.join('; ')}`);
      expect(ran.join(' ')).toMatch(/notes\.txt/);

      // The key reached the gateway on every forwarded turn, and nowhere else.
      const atGateway = sim.requests.slice(seenBefore);
      expect(atGateway.length).toBeGreaterThanOrEqual(2);
      for (const r of atGateway)
        expect([r.headers['x-api-key'], r.headers.authorization]).toContainEqual(
          expect.stringContaining(KEY) as unknown,
        );
      expect(s.output).not.toContain(KEY);
      expect(JSON.stringify(runs)).not.toContain(KEY);
      expect(filesHolding(dataDir, KEY)).toEqual([]);
    },
    180_000,
  );
});
