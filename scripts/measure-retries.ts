/**
 * How often each real CLI (captures/versions.json) retries a failed turn, and how long it waits: each runs
 * once against a gateway on loopback that answers every turn with one status (429, 500, 529, 404, 400) in the
 * protocol's error shape and no retry-after, and the requests it made are counted with their times. What it
 * prints is what electron/core/agents/retries.ts records (docs/agents.md "Retries").
 *
 *   AGENT_CLIS=/tmp/agent-clis npx tsx scripts/measure-retries.ts [status …]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runAgent, type CapturedAgent } from './capture-kit';

const CLIS = process.env.AGENT_CLIS ?? '/tmp/agent-clis';
const STATUSES = process.argv.slice(2).map(Number).filter(Boolean);
const AGENTS: [CapturedAgent, string][] = [
  ['claude-code', 'claude-sim-sonnet'],
  ['codex', 'gpt-sim-o3'],
  ['qwen-code', 'gpt-sim-4o'],
];

const errorBody = (path: string, status: number) =>
  path.startsWith('/v1/messages')
    ? { type: 'error', error: { type: status === 529 ? 'overloaded_error' : 'api_error', message: `status ${status}` } }
    : { error: { message: `status ${status}`, type: 'server_error', code: null } };

async function failing(status: number) {
  const turns: number[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method !== 'POST') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ object: 'list', data: [] }));
      }
      turns.push(Date.now());
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errorBody(req.url ?? '', status)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, turns, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function measure(agent: CapturedAgent, model: string, status: number) {
  const gw = await failing(status);
  const t0 = Date.now();
  const s = await runAgent(
    { agent, model, prompt: 'Say hi.', clis: CLIS, gateway: gw.url, key: 'sk-measure' },
    undefined,
    300_000,
  );
  await gw.close();
  const gaps = gw.turns.slice(1).map((t, i) => ((t - gw.turns[i]) / 1000).toFixed(1));
  return {
    agent,
    status,
    requests: gw.turns.length,
    gapsS: gaps,
    totalS: ((Date.now() - t0) / 1000).toFixed(1),
    exitCode: s.exitCode,
    said: (s.stderr + s.stdout).trim().split('\n').slice(-2).join(' ').slice(0, 200),
  };
}

const statuses = STATUSES.length ? STATUSES : [429, 500, 529, 404, 400];
const results = await Promise.all(
  statuses.flatMap((status) => AGENTS.map(([agent, model]) => measure(agent, model, status))),
);
for (const r of results) console.log(JSON.stringify(r));
