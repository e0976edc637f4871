/**
 * Integration: "Connect an agent" against the simulator on loopback. Requests shaped like Claude Code's and
 * Codex's, sent with fetch and with the official SDKs, come back through the endpoint as they come from the
 * gateway directly, and each exchange is a run in History (origin "agent", the session's id).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import http from 'node:http';
import type {
  AgentConnection,
  AgentSessionUpdate,
  HistorySummary,
  ProfilesState,
  RecordedRun,
} from '../../../shared/contract';
import { DEMO_KEY, startSimulator, type RunningSimulator } from '../simulator';
import type { Core } from '../service';
import { newCore, value } from '../testing/core-harness';

class Listener {
  readonly updates: AgentSessionUpdate[] = [];
  send(name: string, payload: unknown): void {
    if (name === 'agents:update') this.updates.push(payload as AgentSessionUpdate);
  }
}

const CLAUDE_HEADERS = {
  'anthropic-version': '2023-06-01',
  'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14',
  'user-agent': 'claude-cli/2.1.197 (external, cli)',
  'x-app': 'cli',
  'x-stainless-lang': 'js',
  'content-type': 'application/json',
};
const CLAUDE_BODY = {
  model: 'claude-sim-sonnet',
  max_tokens: 256,
  stream: true,
  system: [{ type: 'text', text: 'You are Claude Code.' }],
  messages: [{ role: 'user', content: 'Say hello.' }],
  metadata: { user_id: '{"device_id":"d"}' },
};
const CODEX_HEADERS = {
  originator: 'codex_exec',
  'user-agent': 'codex_exec/0.171.0 (Linux; x86_64)',
  'session-id': 'thread-1',
  'content-type': 'application/json',
  accept: 'text/event-stream',
};
const CODEX_BODY = {
  model: 'gpt-sim-o3',
  instructions: 'You are Codex.',
  input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say hello.' }] }],
  stream: true,
  store: false,
  tools: [],
};

/** The events of an SSE body with the ids and times a gateway makes per answer taken out. */
function events(text: string): string[] {
  return text
    .split(/\n\n/)
    .filter((e) => e.trim() !== '')
    .map((e) =>
      e
        .replace(/"(id|item_id|response_id|created_at|created|call_id)":\s*("[^"]*"|\d+)/g, '"$1":_')
        .replace(/\b(msg|resp|rs|fc|call|chatcmpl|toolu)_[A-Za-z0-9]+/g, '$1_'),
    );
}

describe('agent endpoint: a real agent through the app', () => {
  let core: Core;
  let sim: RunningSimulator;
  let conn: AgentConnection;
  const r = new Listener();

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, delayMs: 0 });
    ({ core } = await newCore(undefined, { demoGateway: { baseUrl: sim.url, key: DEMO_KEY } }));
    conn = value<AgentConnection>(await core.dispatch('agents:connect', { profileId: 'demo' }, r));
  });
  afterAll(async () => {
    await core.close();
    await sim.close();
  });

  const viaEndpoint = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(`${conn.baseUrl}${path}`, { ...init, headers: { 'x-api-key': conn.token, ...init.headers } });

  const historyOf = async (runId: string) => {
    await core.runs.settled();
    return value<RecordedRun>(await core.dispatch('history:get', { runId }, r));
  };
  const lastTurnRunId = () => {
    const turns = r.updates.filter((u) => u.kind === 'turn');
    return turns[turns.length - 1]!.turn.runId;
  };

  it('listens on 127.0.0.1 with a token of its own, not the profile key', () => {
    expect(conn.baseUrl).toBe(`http://127.0.0.1:${conn.port}`);
    expect(conn.token).not.toContain(DEMO_KEY);
    expect(conn.token.length).toBeGreaterThan(30);
  });

  it('streams a Claude Code request back as the gateway sends it, and keeps it in History', async () => {
    const direct = await fetch(`${sim.url}/v1/messages?beta=true`, {
      method: 'POST',
      headers: { ...CLAUDE_HEADERS, 'x-api-key': DEMO_KEY },
      body: JSON.stringify(CLAUDE_BODY),
    });
    const res = await viaEndpoint('/v1/messages?beta=true', {
      method: 'POST',
      headers: CLAUDE_HEADERS,
      body: JSON.stringify(CLAUDE_BODY),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(direct.headers.get('content-type'));
    const got = events(await res.text());
    expect(got.length).toBeGreaterThan(3);
    expect(got).toEqual(events(await direct.text()));

    const seen = sim.requests[sim.requests.length - 1]!;
    expect(seen.headers['x-api-key']).toBe(DEMO_KEY);
    expect(seen.headers['user-agent']).toBe(CLAUDE_HEADERS['user-agent']);
    expect(seen.headers['anthropic-beta']).toBe(CLAUDE_HEADERS['anthropic-beta']);
    expect(seen.headers['x-app']).toBe('cli');

    const run = await historyOf(lastTurnRunId());
    expect(run.origin).toBe('agent');
    expect(run.ledger.sessionId).toBe(conn.sessionId);
    expect(run.ledger.url).toBe(`${sim.url}/v1/messages?beta=true`);
    expect(run.ledger.headers['user-agent']).toBe(CLAUDE_HEADERS['user-agent']);
    expect(run.ledger.headers['x-api-key']).toMatch(/^\[redacted/);
    expect(run.result.verdict).toBe('complete');
    const list = value<{ runs: HistorySummary[] }>(await core.dispatch('history:list', {}, r));
    expect(list.runs.find((s) => s.runId === run.ledger.runId)).toMatchObject({
      origin: 'agent',
      sessionId: conn.sessionId,
    });
    const ended = r.updates.filter((u) => u.kind === 'turn' && u.turn.runId === run.ledger.runId).pop();
    expect(ended).toMatchObject({
      turn: { agent: 'claude-code', path: '/v1/messages?beta=true', verdict: 'complete', status: 200 },
    });
  });

  it('streams a Codex request (Bearer token) back as the gateway sends it', async () => {
    const direct = await fetch(`${sim.url}/v1/responses`, {
      method: 'POST',
      headers: { ...CODEX_HEADERS, authorization: `Bearer ${DEMO_KEY}` },
      body: JSON.stringify(CODEX_BODY),
    });
    const res = await fetch(`${conn.baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { ...CODEX_HEADERS, authorization: `Bearer ${conn.token}` },
      body: JSON.stringify(CODEX_BODY),
    });
    expect(res.status).toBe(200);
    const got = events(await res.text());
    expect(got.length).toBeGreaterThan(3);
    expect(got).toEqual(events(await direct.text()));
    const seen = sim.requests[sim.requests.length - 1]!;
    expect(seen.headers.originator).toBe('codex_exec');
    expect(seen.headers['session-id']).toBe('thread-1');
    const run = await historyOf(lastTurnRunId());
    expect(run).toMatchObject({ origin: 'agent', ledger: { protocol: 'responses', sessionId: conn.sessionId } });
    expect(run.result.verdict).toBe('complete');
  });

  it('serves the official SDKs pointed at it with the local token', async () => {
    const anthropic = new Anthropic({ apiKey: conn.token, baseURL: conn.baseUrl, maxRetries: 0 });
    const stream = anthropic.messages.stream({
      model: 'claude-sim-sonnet',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const message = await stream.finalMessage();
    expect(message.content.length).toBeGreaterThan(0);
    const count = await anthropic.messages.countTokens({
      model: 'claude-sim-sonnet',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(count.input_tokens).toBeGreaterThan(0);
    const counted = await historyOf(lastTurnRunId());
    expect(counted.result).toMatchObject({
      verdict: 'complete',
      reason: `Counted ${count.input_tokens} input tokens.`,
    });

    const openai = new OpenAI({ apiKey: conn.token, baseURL: `${conn.baseUrl}/v1`, maxRetries: 0 });
    const chunks: string[] = [];
    const chat = await openai.chat.completions.create({
      model: 'gpt-sim-4o',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    for await (const c of chat) chunks.push(c.choices[0]?.delta?.content ?? '');
    expect(chunks.join('')).not.toBe('');
    const models = await openai.models.list();
    expect(models.data.length).toBeGreaterThan(0);
    const listed = await historyOf(lastTurnRunId());
    expect(listed.result.verdict).toBe('complete');
  });

  it('answers a bare HEAD / itself', async () => {
    const before = sim.requests.length;
    const res = await fetch(`${conn.baseUrl}/`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(sim.requests.length).toBe(before);
  });

  it('refuses a wrong token, a wrong Host, an Origin, an oversized body and an unknown path', async () => {
    const before = sim.requests.length;
    const wrong = await fetch(`${conn.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'not-the-token', 'content-type': 'application/json' },
      body: JSON.stringify(CLAUDE_BODY),
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const none = await fetch(`${conn.baseUrl}/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: { type: 'authentication_error' } });

    const status = (headers: Record<string, string>, path = '/v1/models', method = 'GET', body?: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port: conn.port, path, method, headers: { 'x-api-key': conn.token, ...headers } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    expect(await status({ host: `evil.example:${conn.port}` })).toBe(421);
    expect(await status({ origin: 'https://evil.example' })).toBe(403);
    expect(await status({}, '/v1/files')).toBe(404);
    expect(await status({}, '/v1/messages', 'GET')).toBe(404);
    const huge = 'x'.repeat(33 * 1024 * 1024);
    expect(await status({ 'content-type': 'application/json' }, '/v1/messages', 'POST', huge)).toBe(413);
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: conn.port,
          path: '/v1/messages',
          method: 'POST',
          headers: { 'x-api-key': conn.token, 'transfer-encoding': 'chunked' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      const piece = Buffer.alloc(1024 * 1024, 0x20);
      for (let i = 0; i < 34; i++) req.write(piece);
      req.end();
    });
    expect(streamed).toBe(413);
    expect(sim.requests.length).toBe(before);
  });

  it('closes the port on Disconnect', async () => {
    const other = value<AgentConnection>(await core.dispatch('agents:connect', { profileId: 'demo' }, r));
    expect(other.port).not.toBe(conn.port);
    await expect(fetch(`${conn.baseUrl}/`, { method: 'HEAD' })).rejects.toThrow();
    expect(value<{ closed: boolean }>(await core.dispatch('agents:disconnect', {}, r)).closed).toBe(true);
    await expect(fetch(`${other.baseUrl}/`, { method: 'HEAD' })).rejects.toThrow();
    expect(r.updates.some((u) => u.kind === 'closed' && u.sessionId === other.sessionId)).toBe(true);
  });

  it('closes the port when another profile is selected, and when the core closes', async () => {
    const saved = value<ProfilesState>(
      await core.dispatch('profiles:save', { name: 'Other', baseUrl: sim.url, key: DEMO_KEY }, r),
    );
    const otherId = saved.profiles.find((p) => p.name === 'Other')!.id;
    const open = value<AgentConnection>(await core.dispatch('agents:connect', { profileId: 'demo' }, r));
    expect((await fetch(`${open.baseUrl}/`, { method: 'HEAD' })).status).toBe(200);
    await core.dispatch('profiles:select', { id: otherId }, r);
    await expect(fetch(`${open.baseUrl}/`, { method: 'HEAD' })).rejects.toThrow();
    expect(r.updates).toContainEqual({
      kind: 'closed',
      sessionId: open.sessionId,
      reason: 'Another profile was selected.',
    });

    const { core: second } = await newCore(undefined, { demoGateway: { baseUrl: sim.url, key: DEMO_KEY } });
    const last = value<AgentConnection>(await second.dispatch('agents:connect', { profileId: 'demo' }, r));
    await second.close();
    await expect(fetch(`${last.baseUrl}/`, { method: 'HEAD' })).rejects.toThrow();
  });
});
