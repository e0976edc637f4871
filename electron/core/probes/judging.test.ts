/**
 * The probes' judgement against a scripted gateway over loopback: the realistic ways a gateway fails each
 * probe (a 200 without the capability) that a well-behaved simulator model may not show. Real RunManager,
 * real HTTP; only the gateway is a script.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { DEFAULT_TIMEOUTS } from '../http/timer';
import { ProfileStore } from '../profiles';
import { RunManager } from '../runs';
import { LayeredVault } from '../vault';
import { ProbeCancelled, runProbe, type ProbeTarget } from './index';
import { readText } from '../simulator/images';
import type { CapabilityId } from '../../../shared/capabilities';
import type { ProtocolId } from '../../../shared/protocols/types';

type Reply = {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  sse?: (string | { event?: string; data: unknown })[];
  delayMs?: number;
};
type Route = (path: string, body: Record<string, unknown>) => Reply;

let route: Route = () => ({ status: 500, json: { error: { message: 'no route' } } });
const seen: { path: string; body: Record<string, unknown> }[] = [];
let server: http.Server;
let dir: string;
let profiles: ProfileStore;
let runs: RunManager;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      seen.push({ path: req.url ?? '', body });
      const reply = route(req.url ?? '', body);
      setTimeout(() => answer(reply), reply.delayMs ?? 0);
    });
    const answer = (reply: Reply) => {
      if (res.destroyed) return;
      if (reply.sse) {
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', ...reply.headers });
        for (const e of reply.sse) {
          if (typeof e === 'string') res.write(`data: ${e}\n\n`);
          else res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${JSON.stringify(e.data)}\n\n`);
        }
        res.end();
        return;
      }
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.json ?? {}));
    };
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(path.join(os.tmpdir(), 'gp-judge-'));
  profiles = new ProfileStore(dir, new LayeredVault(undefined, undefined), {
    demo: { baseUrl: url, key: 'sk-test-0123456789' },
  });
  await profiles.load();
  runs = new RunManager(profiles, DEFAULT_TIMEOUTS);
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  seen.length = 0;
});

function probe(
  protocol: ProtocolId,
  capability: CapabilityId,
  opts: { signal?: AbortSignal; runTimeoutMs?: number } = {},
) {
  const target: ProbeTarget = { profileId: 'demo', model: 'fake-model', protocol, capability };
  return runProbe(
    { runs, profiles, timeouts: DEFAULT_TIMEOUTS },
    target,
    opts.signal ?? new AbortController().signal,
    opts,
  );
}

const messagesText = (text: string, usage: Record<string, unknown> = { input_tokens: 10, output_tokens: 5 }) => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'fake-model',
  content: [{ type: 'text', text }],
  stop_reason: 'end_turn',
  usage,
});
const chatMessage = (
  message: Record<string, unknown>,
  usage: Record<string, unknown> = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'fake-model',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: null, ...message } }],
  usage,
});
const responsesBody = (output: unknown[], extra: Record<string, unknown> = {}) => ({
  id: 'resp_1',
  object: 'response',
  status: 'completed',
  model: 'fake-model',
  output,
  usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
  ...extra,
});

/** The nonce the probe put in its prompt: `nonce "X"` (structured output). */
function promptOf(body: Record<string, unknown>): string {
  const turns = (body.messages ?? body.input) as { content: unknown }[];
  const last = turns[turns.length - 1];
  return typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
}

describe('tools', () => {
  it('a 200 with text that describes the call is not-supported, with the text as evidence', async () => {
    route = () => ({ json: messagesText('I would call get_weather({"city": "Paris"}) now.') });
    const { result } = await probe('messages', 'tools');
    expect(result.outcome).toBe('not-supported');
    expect(result.status).toBe(200);
    expect(result.message).toMatch(/flattened to text/);
    expect(result.evidence.text).toContain('get_weather');
    expect(result.evidence.runIds).toHaveLength(1);
    expect(seen[0].body.tool_choice).toEqual({ type: 'any' });
  });

  it('arguments that fail the schema are not-supported', async () => {
    route = () => ({
      json: chatMessage({
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"town":"Paris"}' } },
        ],
      }),
    });
    const { result } = await probe('chat', 'tools');
    expect(result.outcome).toBe('not-supported');
    expect(result.message).toMatch(/do not satisfy its schema/);
    expect(seen[0].body.tool_choice).toBe('required');
  });

  it('a function_call item with valid arguments is proven; the round trip needs the fresh nonce back', async () => {
    route = (_p, body) => {
      const input = body.input as Record<string, unknown>[];
      const result = input.find((i) => i.type === 'function_call_output');
      if (result)
        return {
          json: responsesBody([
            {
              type: 'message',
              role: 'assistant',
              content: [{ type: 'output_text', text: `It returned: ${String(result.output)}` }],
            },
          ]),
        };
      return {
        json: responsesBody([
          { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        ]),
      };
    };
    expect((await probe('responses', 'tools')).result.outcome).toBe('proven');
    const rt = await probe('responses', 'tool-roundtrip');
    expect(rt.result.outcome).toBe('proven');
    expect(rt.result.evidence.runIds).toHaveLength(2);
    const second = seen.at(-1)!.body;
    expect(second.tool_choice).toBeUndefined();
    expect(second.input).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'function_call', call_id: 'call_1' })]),
    );
  });

  it('a round trip the gateway accepted (200, a normal turn) whose reply lacks the nonce is inconclusive', async () => {
    route = (_p, body) => {
      const msgs = body.messages as Record<string, unknown>[];
      if (msgs.some((m) => m.role === 'tool')) return { json: chatMessage({ content: 'It is sunny in Paris.' }) };
      return {
        json: chatMessage({
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
        }),
      };
    };
    const { result } = await probe('chat', 'tool-roundtrip');
    expect(result.outcome).toBe('inconclusive');
    expect(result.status).toBe(200);
    expect(result.message).toMatch(/accepted the tool result, but the reply does not repeat its nonce/);
    expect(result.evidence.text).toBe('It is sunny in Paris.');
    expect(result.evidence.runIds).toHaveLength(2);
  });

  it('a round trip whose tool result the gateway refuses is not inconclusive', async () => {
    route = (_p, body) => {
      const msgs = body.messages as Record<string, unknown>[];
      const refused = { message: 'tool messages are not supported', type: 'invalid_request_error' };
      if (msgs.some((m) => m.role === 'tool')) return { status: 400, json: { error: refused } };
      const call = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
      return { json: chatMessage({ tool_calls: [call] }) };
    };
    const { result } = await probe('chat', 'tool-roundtrip');
    expect(result.outcome).not.toBe('inconclusive');
    expect(result.outcome).not.toBe('proven');
    expect(result.status).toBe(400);
  });
});

describe('caching', () => {
  const cacheUsage = (write: number, read: number) => ({
    input_tokens: 12,
    output_tokens: 1,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
  });

  it('a marked prefix that wrote 0 and read 0 on both calls is not-supported, with that evidence', async () => {
    route = () => ({ json: messagesText('OK', cacheUsage(0, 0)) });
    const { result } = await probe('messages', 'caching');
    expect(result.outcome).toBe('not-supported');
    expect(result.message).toMatch(/sent twice with cache_control wrote 0 and read 0 tokens/);
    expect(seen).toHaveLength(2);
    expect(seen[0].body.system).toEqual([expect.objectContaining({ cache_control: { type: 'ephemeral' } })]);
    const calls = result.evidence.fields.calls as { cacheWrite?: number; cacheRead?: number }[];
    expect(calls.map((c) => [c.cacheWrite, c.cacheRead])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  }, 20_000);

  it('a write that is never read back stays inconclusive (caching is best effort)', async () => {
    let n = 0;
    route = () => ({ json: messagesText('OK', n++ === 0 ? cacheUsage(5200, 0) : cacheUsage(0, 0)) });
    const { result } = await probe('messages', 'caching');
    expect(result.outcome).toBe('inconclusive');
    expect(result.message).toMatch(/stayed 0 on 4 repeats/);
  }, 30_000);
});

describe('structured output', () => {
  it('fenced JSON is "format ignored"', async () => {
    route = (_p, body) => {
      const n = /nonce "([A-Z0-9]+)"/.exec(promptOf(body))![1];
      return { json: chatMessage({ content: '```json\n' + JSON.stringify({ answer: 'beta', nonce: n }) + '\n```' }) };
    };
    const { result } = await probe('chat', 'structured-output');
    expect(result.outcome).toBe('not-supported');
    expect(result.message).toMatch(/markdown fence/);
  });

  it('three bare, valid replies with the right nonce are proven', async () => {
    route = (_p, body) => {
      const n = /nonce \\?"([A-Z0-9]+)/.exec(promptOf(body))![1];
      return { json: messagesText(JSON.stringify({ answer: 'beta', nonce: n })) };
    };
    const { result } = await probe('messages', 'structured-output');
    expect(result.outcome).toBe('proven');
    expect(result.evidence.runIds).toHaveLength(3);
    expect(seen[0].body.output_config).toMatchObject({ format: { type: 'json_schema' } });
  });

  it('a stale nonce is not-supported', async () => {
    route = () => ({ json: messagesText(JSON.stringify({ answer: 'beta', nonce: 'OLD123' })) });
    expect((await probe('messages', 'structured-output')).result.message).toMatch(/instead of/);
  });
});

describe('token counting', () => {
  const billed = { input_tokens: 400, output_tokens: 1 };
  it('a stub zero is not-supported', async () => {
    route = (p) => (p.endsWith('/count_tokens') ? { json: { input_tokens: 0 } } : { json: messagesText('', billed) });
    const { result } = await probe('messages', 'token-counting');
    expect(result.outcome).toBe('not-supported');
    expect(result.message).toMatch(/stub/);
    expect(result.evidence.fields.countTokens).toMatchObject({
      status: 200,
      url: expect.stringMatching(/\/v1\/messages\/count_tokens$/),
    });
    expect(JSON.stringify(result.evidence.fields.countTokens)).not.toContain('sk-test-0123456789');
  });

  it('404 on count_tokens while /v1/messages serves the model is not-supported', async () => {
    route = (p) =>
      p.endsWith('/count_tokens')
        ? { status: 404, json: { type: 'error', error: { type: 'not_found_error', message: 'Not Found' } } }
        : { json: messagesText('', billed) };
    const { result } = await probe('messages', 'token-counting');
    expect(result.outcome).toBe('not-supported');
    expect(result.status).toBe(404);
  });

  it('within ±10 % of the billed prompt is proven; far off is an estimate', async () => {
    route = (p) =>
      p.endsWith('/count_tokens')
        ? { json: { input_tokens: 420 } }
        : { json: messagesText('', { ...billed, input_tokens: 380, cache_read_input_tokens: 20 }) };
    expect((await probe('messages', 'token-counting')).result.outcome).toBe('proven');
    route = (p) => (p.endsWith('/count_tokens') ? { json: { input_tokens: 30 } } : { json: messagesText('', billed) });
    const off = await probe('messages', 'token-counting');
    expect(off.result.outcome).toBe('not-supported');
    expect(off.result.message).toMatch(/estimate/);
  });
});

describe('streaming', () => {
  const chunk = (content: string) => ({
    id: 'c',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  });
  const end = { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] };

  it('one big delta is not a stream', async () => {
    route = () => ({ sse: [{ data: chunk('1\n2\n3\n…\n60') }, { data: end }, '[DONE]'] });
    const { result } = await probe('chat', 'streaming');
    expect(result.outcome).toBe('not-supported');
    expect(result.message).toMatch(/Only 1 content delta/);
  });

  it('many deltas ending with [DONE] are proven', async () => {
    route = () => ({
      sse: [...Array.from({ length: 60 }, (_, i) => ({ data: chunk(`${i + 1}\n`) })), { data: end }, '[DONE]'],
    });
    const { result } = await probe('chat', 'streaming');
    expect(result.outcome).toBe('proven');
    expect(result.evidence.fields).toMatchObject({ contentDeltas: 60, terminalEvent: '[DONE]' });
  });

  it('many deltas and a finish_reason but no [DONE] are not proven, and the evidence says [DONE] never came', async () => {
    route = () => ({ sse: [...Array.from({ length: 60 }, (_, i) => ({ data: chunk(`${i + 1}\n`) })), { data: end }] });
    const { result } = await probe('chat', 'streaming');
    expect(result.outcome).toBe('not-supported');
    expect(result.message).toMatch(/No data: \[DONE\] arrived, twice in a row/);
    expect(result.message).not.toMatch(/ending with/);
    expect(result.evidence.fields).toMatchObject({ contentDeltas: 60, terminalEvent: null });
    // Retried once, like a cut-off stream: one missing sentinel may be the network.
    expect(seen.filter((s) => s.path === '/v1/chat/completions')).toHaveLength(2);
  });

  it('a missing [DONE] the first time only is retried and proven', async () => {
    let calls = 0;
    route = () => {
      calls++;
      const tail = calls === 1 ? [] : ['[DONE]'];
      return {
        sse: [...Array.from({ length: 20 }, (_, i) => ({ data: chunk(`${i + 1}\n`) })), { data: end }, ...tail],
      };
    };
    const { result } = await probe('chat', 'streaming');
    expect(result.outcome).toBe('proven');
    expect(result.message).toMatch(/ending with data: \[DONE\]/);
    expect(result.evidence.fields).toMatchObject({ terminalEvent: '[DONE]' });
  });

  it('a JSON body for a stream request is not-supported', async () => {
    route = () => ({ json: chatMessage({ content: '1\n2\n3' }) });
    expect((await probe('chat', 'streaming')).result.message).toMatch(/instead of text\/event-stream/);
  });
});

describe('failures', () => {
  it('429 is inconclusive and carries the retry-after', async () => {
    route = () => ({
      status: 429,
      headers: { 'retry-after': '2' },
      json: { error: { message: 'slow down', type: 'rate_limit_exceeded' } },
    });
    const out = await probe('chat', 'tools');
    expect(out.result.outcome).toBe('inconclusive');
    expect(out.rateLimited).toBe(true);
    expect(out.retryAfterMs).toBe(2000);
    expect(out.result.retryAfter).toBeDefined();
  });

  it('a 400 is an error with its status and message', async () => {
    route = () => ({
      status: 400,
      json: { error: { message: 'Unknown parameter: reasoning', type: 'invalid_request_error' } },
    });
    const { result } = await probe('responses', 'thinking');
    expect(result).toMatchObject({ outcome: 'error', status: 400 });
    expect(result.message).toContain('Unknown parameter: reasoning');
  });
});

describe('stopping', () => {
  const slow = () => ({ delayMs: 5_000, json: chatMessage({ content: 'late' }) });

  it('a probe request that takes too long is inconclusive', async () => {
    route = slow;
    const { result } = await probe('chat', 'tools', { runTimeoutMs: 100 });
    expect(result.outcome).toBe('inconclusive');
    expect(result.message).toMatch(/No complete answer within/);
  });

  it('a cancelled job, or a probe run stopped from outside, records nothing', async () => {
    route = slow;
    const ctrl = new AbortController();
    const pending = probe('chat', 'tools', { signal: ctrl.signal });
    setTimeout(() => ctrl.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(ProbeCancelled);

    const outside = probe('chat', 'tools');
    await new Promise((r) => setTimeout(r, 50));
    expect(runs.activeCount()).toBe(1);
    runs.cancelAll();
    await expect(outside).rejects.toBeInstanceOf(ProbeCancelled);
  });
});

describe('thinking', () => {
  it('zero reasoning tokens is "parameter ignored"', async () => {
    route = () => ({
      json: chatMessage(
        { content: '0.05' },
        { prompt_tokens: 40, completion_tokens: 3, completion_tokens_details: { reasoning_tokens: 0 } },
      ),
    });
    const { result } = await probe('chat', 'thinking');
    expect(result.outcome).toBe('not-supported');
    expect(result.message).toMatch(/0 reasoning tokens/);
  });

  it('Messages falls back to the budgeted form when adaptive is rejected', async () => {
    route = (_p, body) => {
      const t = body.thinking as { type: string };
      if (t.type === 'adaptive')
        return {
          status: 400,
          json: {
            type: 'error',
            error: { type: 'invalid_request_error', message: 'thinking.type: adaptive is not supported' },
          },
        };
      return {
        json: {
          ...messagesText('0.05'),
          content: [
            { type: 'thinking', thinking: 'x', signature: 'sig' },
            { type: 'text', text: '0.05' },
          ],
        },
      };
    };
    const { result } = await probe('messages', 'thinking');
    expect(result.outcome).toBe('proven');
    expect(result.evidence.runIds).toHaveLength(2);
    expect(result.evidence.fields.requested).toBe('thinking enabled, budget 2048');
  });
});

describe('background', () => {
  it('accepted (queued + id) says the result cannot be fetched', async () => {
    route = () => ({ json: { id: 'resp_bg', object: 'response', status: 'queued', output: [], background: true } });
    const { result } = await probe('responses', 'background');
    expect(result.outcome).toBe('proven');
    expect(result.message).toMatch(/five endpoints include no way to fetch the result/);
    expect(result.evidence.fields).toMatchObject({ status: 'queued', id: 'resp_bg', retrieval: 'unsupported' });
  });

  it('answered in the foreground means the flag was ignored', async () => {
    route = () => ({
      json: responsesBody([{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'OK' }] }]),
    });
    expect((await probe('responses', 'background')).result.outcome).toBe('not-supported');
  });
});

describe('vision', () => {
  /** The image the probe sent, in whichever protocol shape. */
  function sentImage(body: Record<string, unknown>): Buffer {
    const parts = ((body.messages ?? body.input) as { content: Record<string, unknown>[] }[])[0].content;
    const part = parts[0];
    if (part.type === 'image') return Buffer.from((part.source as { data: string }).data, 'base64');
    const url = part.type === 'image_url' ? (part.image_url as { url: string }).url : (part.image_url as string);
    expect(url).toMatch(/^data:image\/png;base64,/);
    return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
  }

  /** The text-only control call (§7.6) carries no image. */
  const hasImage = (body: Record<string, unknown>) =>
    ((body.messages ?? body.input) as { content: Record<string, unknown>[] }[])[0].content.some(
      (p) => p.type !== 'text' && p.type !== 'input_text',
    );

  const answer = (protocol: ProtocolId, text: string) => ({
    json:
      protocol === 'messages'
        ? messagesText(text)
        : protocol === 'chat'
          ? chatMessage({ content: text })
          : responsesBody([{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }]),
  });

  it('a gateway that drops the image and always answers "Red." is never proven (50 probes)', async () => {
    const protocols: ProtocolId[] = ['messages', 'chat', 'responses'];
    for (let i = 0; i < 50; i++) {
      const protocol = protocols[i % protocols.length];
      route = () => answer(protocol, 'Red.');
      const { result } = await probe(protocol, 'vision');
      expect(result.outcome, `probe ${i + 1} on ${protocol}: ${result.message}`).toBe('not-supported');
      expect(result.status).toBe(200);
    }
  });

  it('no other fixed answer passes either: a nonce-like word, a made-up reading, an empty reply', async () => {
    const nonces = new Set<unknown>();
    for (const text of ['K7PX2M', 'The text in the image is ABCDEF.', '']) {
      for (let i = 0; i < 5; i++) {
        route = () => answer('chat', text);
        const { result } = await probe('chat', 'vision');
        expect(result.outcome, `answering "${text}": ${result.message}`).toBe('not-supported');
        nonces.add(result.evidence.fields.nonce);
      }
    }
    expect(nonces.size).toBe(15);
  });

  it('the nonce is only in the pixels: the prompt does not carry it, the PNG shows it', async () => {
    route = () => ({ json: messagesText('Red.') });
    const { result } = await probe('messages', 'vision');
    const secret = result.evidence.fields.nonce as string;
    expect(secret).toMatch(/^[A-Z2-9]{6}$/);
    expect(JSON.stringify(seen[0].body)).not.toContain(secret);
    const image = (seen[0].body.messages as { content: { type: string }[] }[])[0].content[0];
    expect(image).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png' } });
    expect(readText(sentImage(seen[0].body))).toBe(secret);
    // Then the control call: the same prompt, no image.
    expect(seen).toHaveLength(2);
    expect(hasImage(seen[1].body)).toBe(false);
    expect(JSON.stringify(seen[1].body)).toContain('Reply with only the text in the image.');
  });

  it("a control call that fails (429) leaves the image's token cost unknown and does not undo the reading", async () => {
    route = (_path, body) =>
      hasImage(body)
        ? answer('messages', readText(sentImage(body)) ?? '')
        : {
            status: 429,
            headers: { 'retry-after': '30' },
            json: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
          };
    const { result } = await probe('messages', 'vision');
    expect(result.outcome, result.message).toBe('proven');
    expect(result.evidence.fields).toMatchObject({ read: true, controlInputTokens: undefined });
    expect(result.evidence.fields.imageInputTokens).toBeUndefined();
    expect(result.message).toMatch(/whether the image was billed is unknown/);
  });

  it('reading the text back proves it, in any case, spacing or sentence', async () => {
    const answers = [
      (t: string) => t,
      (t: string) => `The image says "${t.toLowerCase()}".`,
      (t: string) => `${t.slice(0, 3)} ${t.slice(3)}`,
    ];
    for (const [i, protocol] of (['messages', 'chat', 'responses'] as const).entries()) {
      route = (_path, body) =>
        answer(protocol, hasImage(body) ? answers[i](readText(sentImage(body)) ?? '') : 'There is no image.');
      const { result } = await probe(protocol, 'vision');
      expect(result.outcome, `${protocol}: ${result.message}`).toBe('proven');
      expect(result.evidence.fields).toMatchObject({ read: true, nonce: expect.stringMatching(/^[A-Z2-9]{6}$/) });
    }
  });
});
