/**
 * Integration: every agent verdict against the embedded simulator and its relays, over real loopback HTTP,
 * driven through the core's `dispatch` with a temp data dir, exactly as a host drives it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentList, AgentReport, AgentResult, Result } from '../../../shared/contract';
import type { AgentId } from '../../../shared/agents/types';
import { createCore, type Core, type Receiver } from '../service';
import type { FinishedRun } from '../runs';
import { LayeredVault } from '../vault';
import { DEMO_KEY, startSimulator, type RecordedRequest, type RunningSimulator } from '../simulator';
import { tempDirs } from '../testing/temp-dirs';

const receiver: Receiver = { send: () => undefined };
const newDir = tempDirs('gp-agents-');
let dataDir: string;
let core: Core;
/** The Demo gateway, started here so that what it received can be read (`requests`). */
let sim: RunningSimulator;
const finished = new Map<string, FinishedRun>();

function value<T>(r: Result<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

const startCore = () =>
  createCore({
    dataDir,
    host: 'web',
    version: 'test',
    vault: new LayeredVault('file', path.join(dataDir, 'keys.json')),
    demoGateway: { baseUrl: sim.url, key: DEMO_KEY },
    onRunFinished: (run) => void finished.set(run.ledger.runId, run),
  });

beforeAll(async () => {
  dataDir = newDir();
  sim = await startSimulator({ port: 0, host: '127.0.0.1' });
  core = await startCore();
});
afterAll(async () => {
  await core.close();
  await sim.close();
});

async function check(agent: AgentId, model: string, smallModel?: string): Promise<AgentResult> {
  return value<AgentResult>(
    await core.dispatch('agents:check', { profileId: 'demo', agent, model, smallModel }, receiver),
  );
}

const step = (r: AgentResult, id: string) => {
  const s = r.steps.find((x) => x.id === id);
  if (!s) throw new Error(`no step ${id} in ${r.steps.map((x) => x.id).join(', ')}`);
  return s;
};

/** What the gateway received while `run` ran: every request of one check. */
async function received<T>(run: () => Promise<T>): Promise<{ result: T; requests: RecordedRequest[] }> {
  const from = sim.requests.length;
  const result = await run();
  return { result, requests: sim.requests.slice(from) };
}

/**
 * Every request carried `expected` (a string is the exact value, a RegExp its form), and the key only in the
 * auth header the Demo profile's scheme puts it in, never in a replayed header.
 */
function expectAgentHeaders(requests: RecordedRequest[], expected: Record<string, string | RegExp>): void {
  expect(requests.length).toBeGreaterThan(0);
  for (const r of requests) {
    for (const [name, value] of Object.entries(expected)) {
      if (typeof value === 'string') expect(r.headers[name], `${name} on ${r.path}`).toBe(value);
      else expect(r.headers[name], `${name} on ${r.path}`).toMatch(value);
    }
    const withKey = Object.entries(r.headers)
      .filter(([, v]) => String(v).includes(DEMO_KEY))
      .map(([n]) => n);
    expect(withKey.length).toBe(1);
    expect(['authorization', 'x-api-key']).toContain(withKey[0]);
  }
}

/** The body a step's run really sent, as the ledger recorded it. */
const sentBody = (runId: string) => JSON.parse(finished.get(runId)!.ledger.body) as Record<string, unknown>;

describe('Codex CLI over /v1/responses', () => {
  it('is ready on a reasoning model: encrypted reasoning round-trips 5 times, the cache is read', async () => {
    const { result: r, requests } = await received(() => check('codex', 'gpt-sim-o3'));
    // The headers of the captured Codex 0.171.0 (captures/codex-unknown-id.json), fresh ids per session.
    expectAgentHeaders(requests, {
      originator: 'codex_exec',
      'user-agent': /^codex_exec\/0\.171\.0 \(.+; .+\) /,
      'x-codex-beta-features': /.+/,
    });
    // The session-id header is the conversation id, the same as the body's prompt_cache_key.
    for (const q of requests) {
      expect(q.headers['session-id']).toBe((q.body as { prompt_cache_key: string }).prompt_cache_key);
      expect(q.headers['thread-id']).toBe(q.headers['session-id']);
    }
    expect(new Set(requests.map((q) => q.headers['session-id'])).size).toBe(4);
    expect(step(r, 'turn-1').runIds.map((id) => finished.get(id)!.ledger.headers.originator)).toEqual(['codex_exec']);
    expect(r.verdict).toMatch(/^ready/);
    expect(step(r, 'reasoning').outcome).toBe('pass');
    const turn2 = step(r, 'turn-2');
    expect(turn2.runIds).toHaveLength(8);
    expect(turn2.evidence).toBe(
      '4 of 4 sessions completed: turn 2 sent the reasoning item, the function_call and its output.',
    );
    const body = sentBody(turn2.runIds[1]);
    expect(body).toMatchObject({
      store: false,
      stream: true,
      include: ['reasoning.encrypted_content'],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      client_metadata: { session_id: body.prompt_cache_key },
    });
    // Tools the replay of a hand-written shape never sent: a relay that translates only functions fails here.
    const types = (body.tools as { type: string }[]).map((t) => t.type);
    expect(types).toEqual(expect.arrayContaining(['function', 'namespace', 'web_search']));
    const input = body.input as Record<string, unknown>[];
    const reasoning = input.find((i) => i.type === 'reasoning');
    expect(reasoning?.encrypted_content).toMatch(/^gAAAAB/);
    const call = input.find((i) => i.type === 'function_call');
    expect(input.find((i) => i.type === 'function_call_output')?.call_id).toBe(call?.call_id);
    expect(body).not.toHaveProperty('instructions');
    expect(input.filter((i) => i.role === 'developer').length).toBeGreaterThan(0);
    expect(step(r, 'cache').evidence).toMatch(/read \d+ tokens from the cache/);
  });

  it('is not ready behind a relay that drops include: the stateless second turn is refused', async () => {
    const r = await check('codex', 'sim-relay-drops-include');
    expect(r.level).toBe('not-ready');
    expect(r.verdict).toMatch(
      /^not ready — Encrypted reasoning returned \(HTTP 200\): the reasoning item came back without encrypted_/,
    );
    expect(r.verdict).toContain(
      "Codex would fail on its second turn: HTTP 400 invalid_request_error: Item with id 'rs_",
    );
    expect(step(r, 'turn-2').evidence).toMatch(/^4 of 4 \(100 %\) sessions failed, first in session 1 on its second/);
  });

  it('is not ready behind a key-pooling relay, failing intermittently with its rate', async () => {
    const r = await check('codex', 'sim-relay-key-pool');
    const turn2 = step(r, 'turn-2');
    expect(r.level).toBe('not-ready');
    expect(turn2.status).toBe(400);
    // Whole sessions one after another meet the rotation at different points: some pass, some fail.
    expect(turn2.evidence).toMatch(
      /^[1-3] of 4 \(\d+ %\) sessions failed — intermittently, first in session [1-4] on its second turn\.$/,
    );
    expect(r.verdict).toMatch(/^not ready — Whole sessions ×4 \(turn 1 \+ turn 2\) \(HTTP 400\)/);
    expect(r.verdict).toMatch(
      /Codex would fail [1-3] of 4 \(\d+ %\) sessions, on its second turn: HTTP 400 .*could not be verified/,
    );
  });

  it('is degraded behind a relay that ignores cache marks: it works, every turn at full price', async () => {
    const r = await check('codex', 'sim-relay-ignores-cache');
    expect(r.verdict).toMatch(/^degraded — Cache read on the repeat turn: cache read stayed 0 on 4 repeats/);
    expect(r.verdict).toContain('every turn costs full price');
  });
});

describe('Claude Code over /v1/messages and count_tokens', () => {
  it('is ready: count_tokens with tools, the small model, signed thinking sent back with the tool_result', async () => {
    const { result: r, requests } = await received(() => check('claude-code', 'claude-sim-sonnet', 'claude-sim-haiku'));
    expectAgentHeaders(requests, {
      'anthropic-version': '2023-06-01',
      'anthropic-beta': /^claude-code-20250219,interleaved-thinking-2025-05-14,/,
      'x-app': 'cli',
      'user-agent': /^claude-cli\/2\.1\.197 \(external, sdk-cli\)$/,
    });
    const paths = requests.map((q) => q.path);
    expect(paths).toContain('/v1/messages/count_tokens');
    expect(requests.find((q) => q.path === '/v1/messages/count_tokens')?.headers['anthropic-beta']).toContain(
      'token-counting-2024-11-01',
    );
    expect(step(r, 'count-tokens').exchange?.requestHeaders['x-app']).toBe('cli');
    expect(finished.get(step(r, 'turn-2').runIds[0])!.ledger.headers['x-app']).toBe('cli');
    expect(r.verdict).toMatch(/^ready/);
    expect(step(r, 'count-tokens').evidence).toMatch(/^counted \d+ input tokens with system and tools/);
    expect(step(r, 'count-tokens').exchange?.requestHeaders['x-api-key']).not.toBe(DEMO_KEY);
    expect(step(r, 'small-model').outcome).toBe('pass');
    expect(step(r, 'thinking').outcome).toBe('pass');
    const turn2 = finished.get(step(r, 'turn-2').runIds[1])!;
    // Claude Code 2.1.197 on an id it does not know: POST /v1/messages?beta=true, its betas, adaptive thinking,
    // a system turn inside messages (captures/claude-code-unknown-id.json).
    expect(turn2.ledger.url).toMatch(/\/v1\/messages\?beta=true$/);
    expect(turn2.ledger.headers['anthropic-beta']).toContain('mid-conversation-system-2026-04-07');
    const body = sentBody(turn2.ledger.runId);
    expect(body).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } });
    const messages = body.messages as { role: string; content: Record<string, unknown>[] }[];
    expect(messages.map((m) => m.role)).toContain('system');
    const assistant = messages.findIndex((m) => m.role === 'assistant');
    expect(messages[assistant].content[0]).toMatchObject({ type: 'thinking', signature: expect.stringMatching(/.+/) });
    expect(messages[assistant + 1].content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: messages[assistant].content.find((b) => b.type === 'tool_use')?.id,
    });
    expect((body.system as Record<string, unknown>[])[1]).toMatchObject({ cache_control: { type: 'ephemeral' } });
    expect((body.tools as unknown[]).length).toBeGreaterThan(20);
    expect(step(r, 'cache').outcome).toBe('pass');
  });

  it('is not ready behind a relay that strips thinking signatures', async () => {
    const r = await check('claude-code', 'sim-relay-strips-signatures');
    expect(r.verdict).toMatch(
      /^not ready — Signed thinking returned \(HTTP 200\): a thinking block came back without its signature/,
    );
    expect(r.verdict).toMatch(
      /Claude Code would fail on its second turn: HTTP 400 .*messages\.\d\.content\.0\.thinking\.signature/,
    );
  });
});

describe('a chat-completions agent over /v1/chat/completions', () => {
  it('is ready on a tools model, with usage in the last chunk', async () => {
    const { result: r, requests } = await received(() => check('chat-agent', 'gpt-sim-4o'));
    // Qwen Code's captured session: its own user-agent and the openai SDK it bundles.
    expectAgentHeaders(requests, { 'user-agent': /^QwenCode\/\d+\.\d+\.\d+ /, 'x-stainless-lang': 'js' });
    expect(r.verdict).toMatch(/^ready/);
    expect(r.replayed).toMatch(/^Qwen Code \d+\.\d+\.\d+ \(an id it does not know\)$/);
    const body = sentBody(step(r, 'turn-1').runIds[0]) as { tools: { function: { name: string } }[] };
    expect(body).toMatchObject({ stream: true, stream_options: { include_usage: true }, model: 'gpt-sim-4o' });
    expect(body.tools.map((t) => t.function.name)).toContain('read_file');
    // Qwen Code leaves tool_choice to its default: the model chooses from the prompt, which names a file.
    expect(body).not.toHaveProperty('tool_choice');
    expect(step(r, 'usage').outcome).toBe('pass');
  });

  it('is not ready where the relay answers tools with text on Chat Completions only', async () => {
    const chat = await check('chat-agent', 'sim-relay-chat-text-tools');
    expect(chat.verdict).toMatch(/^not ready — Turn 1: tool call \(HTTP 200\): a plain text reply and no tool call/);
    expect(chat.verdict).toContain('The agent would never run its read_file tool');
    // The same relay passes tools through on the other protocols.
    expect((await check('codex', 'sim-relay-chat-text-tools')).level).toBe('ready');
  });

  it('is not ready on a model whose route answers 404, naming the status', async () => {
    const r = await check('codex', 'sim-chat-only');
    expect(r.verdict).toMatch(/^not ready — Turn 1: exec_command call \(as Codex 0\.171\.0 sends it\) \(HTTP 404\)/);
    expect(r.verdict).toContain('Codex would stop on its first request');
  });
});

describe('judged as the real CLIs behaved (docs/agents.md "Judging per agent")', () => {
  it('Claude Code stops where a relay refuses system turns inside messages; Codex never sends them', async () => {
    const claude = await check('claude-code', 'sim-relay-refuses-system-turns');
    expect(claude.verdict).toMatch(
      /^not ready — Turn 1: Read call \(as Claude Code 2\.1\.197 sends it\) \(HTTP 400\): .*messages\.1\.role: Input should be 'user' or 'assistant'/,
    );
    expect((await check('codex', 'sim-relay-refuses-system-turns')).level).toBe('ready');
  });

  it('Codex stops where a relay refuses non-function Responses tools', async () => {
    const r = await check('codex', 'sim-relay-function-tools-only');
    expect(r.verdict).toMatch(
      /^not ready — Turn 1: exec_command call .*tools\.\d+\.type: unsupported tool type 'namespace'/,
    );
    expect(r.verdict).toContain('Codex would stop on its first request');
  });

  it('a cut stream line ends Claude Code and Qwen Code, while Codex skips it', async () => {
    // As the real Claude Code does (agent-reading.ts): turn 1's line inside the thinking block is sent again
    // unstreamed; turn 2's, after the thinking block, ends it.
    const claude = await check('claude-code', 'sim-relay-cuts-stream-line');
    expect(claude.verdict).toMatch(
      /^not ready — Whole sessions ×4 .*Claude Code would fail on its second turn: API Error: JSON Parse error: Unexpected EOF/,
    );
    expect((await check('codex', 'sim-relay-cuts-stream-line')).level).toBe('ready');
    // The chat-completions agent is Qwen Code, which a cut line ends too.
    const chat = await check('chat-agent', 'sim-relay-cuts-stream-line');
    expect(chat.verdict).toMatch(/^not ready — Turn 1: tool call .*API Error: Unexpected end of JSON input/);
    expect(chat.verdict).toContain('The agent would stop on its first request');
  });
});

describe('checks at once, as Check all runs them', () => {
  it('checks of different models running together each reach the verdict they reach alone', async () => {
    const [codex, claude, chat, pooled] = await Promise.all([
      check('codex', 'gpt-sim-o3'),
      check('claude-code', 'claude-sim-sonnet', 'claude-sim-haiku'),
      check('chat-agent', 'gpt-sim-4o'),
      check('codex', 'sim-relay-key-pool'),
    ]);
    expect([codex, claude, chat].map((r) => r.verdict)).toEqual([
      expect.stringMatching(/^ready/),
      expect.stringMatching(/^ready/),
      expect.stringMatching(/^ready/),
    ]);
    expect(step(codex, 'turn-2').evidence).toMatch(/^4 of 4 sessions completed/);
    expect([codex, claude].map((r) => step(r, 'cache').outcome)).toEqual(['pass', 'pass']);
    // The key pool rotates over that model's requests only, so the other checks cannot hide its failures.
    expect(step(pooled, 'turn-2').evidence).toMatch(/^[1-3] of 4 \(\d+ %\) sessions failed — intermittently/);
    // Each check's steps hold its own runs, every one sent for its own model.
    for (const r of [codex, claude, chat, pooled]) {
      const models = r.steps.flatMap((s) => s.runIds).map((id) => sentBody(id).model);
      expect(new Set(models)).toEqual(new Set([r.model, ...(r.smallModel ? [r.smallModel] : [])]));
    }
  });

  it("agents:cancel stops the caller's checks of that profile; a stopped check stores nothing", async () => {
    const from = sim.requests.length;
    const input = { profileId: 'demo', agent: 'chat-agent', model: 'sim-fault-stall' };
    const stalled = core.dispatch('agents:check', input, receiver);
    await vi.waitFor(() =>
      expect(sim.requests.slice(from).some((q) => (q.body as { model?: string }).model === 'sim-fault-stall')).toBe(
        true,
      ),
    );
    const otherWindow: Receiver = { send: () => undefined };
    expect(value(await core.dispatch('agents:cancel', { profileId: 'demo' }, otherWindow))).toEqual({ cancelled: 0 });
    expect(value(await core.dispatch('agents:cancel', { profileId: 'demo' }, receiver))).toEqual({ cancelled: 1 });
    expect(await stalled).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    const listed = value<AgentList>(await core.dispatch('agents:list', { profileId: 'demo' }, receiver));
    expect(listed.results.map((r) => r.model)).not.toContain('sim-fault-stall');
  });
});

describe('results and the report', () => {
  it('keeps results per profile across a restart, with when each was measured; reports without the key', async () => {
    const listed = value<AgentList>(await core.dispatch('agents:list', { profileId: 'demo' }, receiver));
    expect(listed.results.length).toBeGreaterThanOrEqual(9);
    const stored = JSON.parse(readFileSync(path.join(dataDir, 'agents.json'), 'utf8')) as { version: number };
    expect(stored.version).toBe(1);
    await core.close();
    core = await startCore();
    const again = value<AgentList>(await core.dispatch('agents:list', { profileId: 'demo' }, receiver));
    expect(again.results.map((r) => `${r.agent}|${r.model}|${r.at}`).sort()).toEqual(
      listed.results.map((r) => `${r.agent}|${r.model}|${r.at}`).sort(),
    );
    // A stored verdict says which captured agent release it is for.
    expect(again.results.find((r) => r.agent === 'codex' && r.model === 'gpt-sim-o3')?.replayed).toBe(
      'Codex 0.171.0 (an id it does not know)',
    );
    const report = value<AgentReport>(await core.dispatch('agents:report', { profileId: 'demo' }, receiver));
    expect(report.markdown).toContain('| gpt-sim-o3 | ready (');
    expect(report.markdown).toContain('replaying Codex 0.171.0');
    expect(report.markdown).toMatch(/\*\*not ready — Signed thinking returned/);
    expect(report.html).toMatch(/^<!DOCTYPE html>/);
    expect(report.html).not.toMatch(/<script|src=|href=/);
    expect(report.markdown + report.html).not.toContain(DEMO_KEY);
  });

  it('refuses an unknown agent by field', async () => {
    const r = await core.dispatch(
      'agents:check',
      { profileId: 'demo', agent: 'cursor', model: 'gpt-sim-4o' },
      receiver,
    );
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.fields?.agent).toBeTruthy();
  });
});
