/**
 * npm run bench — the agent endpoint ("Connect an agent", docs/agents.md) against a direct request.
 *
 * The same streamed Messages request is sent straight to the simulator and through the endpoint, interleaved.
 * Budgets (docs/architecture.md §9), medians of the rounds' paired figures:
 *   added time to first byte < 1 ms (the agent gets each chunk before the app reads it)
 *   every byte the same, once per-answer ids are set aside
 * The firehose rate through the endpoint is printed beside the direct one, with no budget: the client, the
 * endpoint and its run share this process.
 *
 * BENCH_TTFB_ROUNDS (40), BENCH_EVENTS (20,000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { AgentConnection, Result } from '../shared/contract';
import { createCore } from '../electron/core/service';
import { LayeredVault } from '../electron/core/vault';
import { DEMO_KEY } from '../electron/core/simulator';

const ROUNDS = Number(process.env.BENCH_TTFB_ROUNDS ?? 40);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);

const simProcess = spawn(process.execPath, ['--import', 'tsx', 'bench/sim-process.ts'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const simUrl = await new Promise<string>((resolve) =>
  simProcess.stdout!.once('data', (d) => resolve(String(d).trim())),
);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gp-bench-agent-'));
const core = await createCore({
  dataDir,
  host: 'web',
  version: 'bench',
  vault: new LayeredVault(undefined, undefined),
  demoGateway: { baseUrl: simUrl, key: DEMO_KEY },
});
const connected = (await core.dispatch(
  'agents:connect',
  { profileId: 'demo' },
  { send: () => undefined },
)) as Result<AgentConnection>;
if (!connected.ok) throw new Error(connected.error.message);
const conn = connected.value;

const request = (base: string, key: string, n: number) =>
  fetch(`${base}/v1/messages?beta=true`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': key,
      'anthropic-version': '2023-06-01',
      'user-agent': 'claude-cli/2.1.197 (external, cli)',
    },
    body: JSON.stringify({
      model: 'sim-firehose',
      max_tokens: n,
      stream: true,
      messages: [{ role: 'user', content: 'Stream as fast as you can.' }],
    }),
  });

interface Reading {
  ttfbMs: number;
  ms: number;
  text: string;
}

async function read(base: string, key: string, n: number): Promise<Reading> {
  const t0 = performance.now();
  const res = await request(base, key, n);
  let ttfbMs: number | undefined;
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    ttfbMs ??= performance.now() - t0;
    text += decoder.decode(chunk, { stream: true });
  }
  return { ttfbMs: ttfbMs ?? NaN, ms: performance.now() - t0, text };
}

const sameIds = (text: string) => text.replace(/"id":"[^"]*"/g, '"id":_');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const failures: string[] = [];

await read(simUrl, DEMO_KEY, 50);
await read(conn.baseUrl, conn.token, 50);
const added: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const first = i % 2 === 0;
  const a = first ? await read(simUrl, DEMO_KEY, 50) : undefined;
  const b = await read(conn.baseUrl, conn.token, 50);
  const direct = a ?? (await read(simUrl, DEMO_KEY, 50));
  added.push(b.ttfbMs - direct.ttfbMs);
  if (sameIds(b.text) !== sameIds(direct.text)) failures.push(`round ${i}: the bytes through the endpoint differ`);
}
const addedMs = median(added);
console.log(
  `Agent endpoint, ${ROUNDS} interleaved rounds: added time to first byte ${addedMs.toFixed(3)} ms median (budget < 1 ms)`,
);
if (addedMs >= 1) failures.push(`added TTFB ${addedMs.toFixed(3)} ms ≥ 1 ms`);

const direct = await read(simUrl, DEMO_KEY, EVENTS);
const through = await read(conn.baseUrl, conn.token, EVENTS);
if (sameIds(direct.text) !== sameIds(through.text)) failures.push('the firehose through the endpoint differs');
console.log(
  `Firehose of ${EVENTS.toLocaleString('en-US')} deltas: direct ${direct.ms.toFixed(0)} ms, through the endpoint ${through.ms.toFixed(0)} ms (${(direct.ms / through.ms).toFixed(2)}×)`,
);

await core.close();
simProcess.kill('SIGTERM');
rmSync(dataDir, { recursive: true, force: true });
if (failures.length) {
  console.error(`FAILED: ${failures.join('; ')}`);
  process.exit(1);
}
