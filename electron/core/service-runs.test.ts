/**
 * Integration: the core against real simulated gateways over loopback HTTP (runs end with exactly one verdict and keep partial output), driven through
 * `dispatch` exactly as both hosts drive it (see testing/core-harness.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { promises as fs, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { ProfilesState, RunResult } from '../../shared/contract';
import { rowsOf } from '../../shared/protocols/event-columns';
import type { Core } from './service';
import { Capture, newCore, value } from './testing/core-harness';

describe('core: runs end with exactly one verdict and keep partial output', () => {
  let core: Core;
  let coreDir: string;
  let r: Capture;
  beforeAll(async () => ({ core, dataDir: coreDir } = await newCore(undefined, { timeouts: { idleMs: 600 } })));
  afterAll(() => core.close());
  afterEach(() => undefined);

  const start = async (protocol: string, body: Record<string, unknown>, receiver = r) =>
    value<{ runId: string }>(await core.dispatch('runs:start', { profileId: 'demo', protocol, body }, receiver)).runId;

  const bodies: Record<string, (model: string) => Record<string, unknown>> = {
    messages: (model) => ({ model, max_tokens: 256, stream: true, messages: [{ role: 'user', content: 'Say hello' }] }),
    chat: (model) => ({
      model,
      max_completion_tokens: 256,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Say hello' }],
    }),
    responses: (model) => ({ model, max_output_tokens: 256, stream: true, input: 'Say hello' }),
  };

  for (const protocol of ['messages', 'chat', 'responses']) {
    it(`${protocol}: streams events in order and ends complete with usage and timings`, async () => {
      r = new Capture();
      const runId = await start(protocol, bodies[protocol]('claude-sim-sonnet'));
      const result = await r.end(runId);
      expect(result.verdict).toBe('complete');
      const updates = r.updates(runId);
      expect(updates[0].kind).toBe('started');
      expect(updates.filter((u) => u.kind === 'end')).toHaveLength(1);
      expect(updates.at(-1)!.kind).toBe('end');
      const seqs = updates.flatMap((u) => (u.kind === 'events' ? rowsOf(u.events).map((e) => e.seq) : []));
      expect(seqs).toEqual([...seqs.keys()]);
      expect(result.metrics.events).toBe(seqs.length);
      expect(result.metrics.ttftMs).toBeGreaterThan(0);
      expect(result.metrics.totalMs).toBeGreaterThanOrEqual(result.metrics.ttftMs!);
      expect(result.metrics.usage.output).toBeGreaterThan(0);
      const text = result.transcript.blocks
        .filter((b) => b.kind === 'text')
        .map((b) => (b.kind === 'text' ? b.text : ''))
        .join('');
      expect(text.split(' ').length).toBeGreaterThan(10);
      const ledger = updates[0].kind === 'started' ? updates[0].ledger : undefined;
      expect(ledger?.url).toMatch(/\/v1\/(messages|chat\/completions|responses)$/);
      expect(JSON.stringify(ledger?.headers)).toContain('[redacted');
      expect(r.raw.join('')).not.toContain('demo-key');
    });
  }

  it('non-streaming: one JSON body read into the same transcript', async () => {
    r = new Capture();
    const runId = await start('chat', { model: 'gpt-sim-4o', messages: [{ role: 'user', content: 'hi' }] });
    const result = await r.end(runId);
    expect(result.verdict).toBe('complete');
    expect(result.rawBody).toContain('chat.completion');
    expect(result.metrics.usage.inputTotal).toBeGreaterThan(0);
    const recorded = value<{ ledger: { runId: string }; result: RunResult }>(
      await core.dispatch('runs:get', { runId }, r),
    );
    expect(recorded.ledger.runId).toBe(runId);
    expect(recorded.result.verdict).toBe('complete');
    expect(await core.dispatch('runs:get', { runId: 'run_gone' }, r)).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('a cut stream is "truncated", names the missing terminal event and keeps the partial text', async () => {
    r = new Capture();
    const runId = await start('messages', bodies.messages('sim-fault-cut'));
    const result = await r.end(runId);
    expect(result.verdict).toBe('truncated');
    expect(result.reason).toMatch(/message_stop/);
    expect(result.transcript.blocks.some((b) => b.kind === 'text' && b.text.length > 0)).toBe(true);
  });

  it('an error event inside a 200 stream is "error-event" with its type', async () => {
    r = new Capture();
    const runId = await start('messages', bodies.messages('sim-fault-midstream-error'));
    const result = await r.end(runId);
    expect(result.verdict).toBe('error-event');
    expect(result.error?.type).toBe('overloaded_error');
    expect(result.transcript.blocks.length).toBeGreaterThan(0);
  });

  it('a 429 is "http-error" with the message and retry-after', async () => {
    r = new Capture();
    const runId = await start('chat', bodies.chat('sim-fault-429'));
    const result = await r.end(runId);
    expect(result.verdict).toBe('http-error');
    expect(result.error).toMatchObject({ status: 429, retryAfter: 30 });
    expect(result.error!.requestId).toBeTruthy();
  });

  it('an HTML 502 page is kept as text, not parsed', async () => {
    r = new Capture();
    const runId = await start('responses', bodies.responses('sim-fault-html-502'));
    const result = await r.end(runId);
    expect(result.verdict).toBe('http-error');
    expect(result.error).toMatchObject({ status: 502, type: 'gateway_error' });
    expect(result.rawBody).toMatch(/<html/i);
  });

  it('a stream that goes quiet ends "timeout" with what arrived', async () => {
    r = new Capture();
    const runId = await start('chat', bodies.chat('sim-fault-stall'));
    const result = await r.end(runId);
    expect(result.verdict).toBe('timeout');
    expect(result.reason).toMatch(/went quiet/);
    expect(result.metrics.events).toBeGreaterThan(0);
  });

  it('Stop mid-stream ends "cancelled" and keeps the partial text', async () => {
    r = new Capture();
    const runId = await start('responses', bodies.responses('sim-fault-slow'));
    for (
      let i = 0;
      i < 100 &&
      !r.updates(runId).some((u) => u.kind === 'events' && u.events.type.includes('response.output_text.delta'));
      i++
    ) {
      await new Promise((res) => setTimeout(res, 50));
    }
    expect(value<{ cancelled: boolean }>(await core.dispatch('runs:cancel', { runId }, r)).cancelled).toBe(true);
    const result = await r.end(runId);
    expect(result.verdict).toBe('cancelled');
    expect(result.transcript.blocks.some((b) => b.kind === 'text' && b.text.length > 0)).toBe(true);
    expect(value<{ cancelled: boolean }>(await core.dispatch('runs:cancel', { runId }, r)).cancelled).toBe(false);
  });

  it('split UTF-8 and events split across TCP writes fold to the same text as a clean stream', async () => {
    r = new Capture();
    const a = await start('messages', bodies.messages('sim-fault-fragmented'));
    const result = await r.end(a);
    expect(result.verdict).toBe('complete');
    const text = result.transcript.blocks.map((b) => (b.kind === 'text' ? b.text : '')).join('');
    expect(text).toMatch(/é/);
    expect(text).not.toContain('\uFFFD');
  });

  it("one window cannot stop another window's run, even knowing its id", async () => {
    r = new Capture();
    const other = new Capture();
    const runId = await start('chat', bodies.chat('sim-fault-slow'));
    // A window that never started a run, then one that has runs of its own.
    expect(value<{ cancelled: boolean }>(await core.dispatch('runs:cancel', { runId }, other)).cancelled).toBe(false);
    const theirs = await start('chat', bodies.chat('sim-fault-slow'), other);
    expect(value<{ cancelled: boolean }>(await core.dispatch('runs:cancel', { runId }, other)).cancelled).toBe(false);
    await new Promise((res) => setTimeout(res, 100));
    expect(r.updates(runId).some((u) => u.kind === 'end')).toBe(false);
    expect(value<{ cancelled: boolean }>(await core.dispatch('runs:cancel', { runId: theirs }, other)).cancelled).toBe(
      true,
    );
    expect(value<{ cancelled: boolean }>(await core.dispatch('runs:cancel', { runId }, r)).cancelled).toBe(true);
    expect((await r.end(runId)).verdict).toBe('cancelled');
    expect((await other.end(theirs)).verdict).toBe('cancelled');
  });

  it('a closed window aborts its runs', async () => {
    const gone = new Capture();
    const runId = await start('chat', bodies.chat('sim-fault-slow'), gone);
    await new Promise((res) => setTimeout(res, 150));
    core.receiverClosed(gone);
    await new Promise((res) => setTimeout(res, 200));
    expect(core.runs.activeCount()).toBe(0);
    expect(gone.updates(runId).some((u) => u.kind === 'end')).toBe(false);
  });

  it('a key the gateway echoes mid-stream, even split across TCP writes, is redacted everywhere it would show', async () => {
    r = new Capture();
    const key = 'sk-echoed-key-5f3a9c2e7b41';
    const frames = [
      `event: message_start\ndata: {"type":"message_start","message":{"id":"msg_echo","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":0}}}\n\n`,
      `event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n`,
      `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"you sent ${key}"}}\n\n`,
      `: relay saw ${key}\n\n`,
      `event: error\ndata: {"type":"error","error":{"type":"authentication_error","message":"key ${key} was revoked"}}\n\n`,
    ].join('');
    const cut = frames.indexOf(key) + 9;
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frames.slice(0, cut));
      setTimeout(() => res.end(frames.slice(cut)), 40);
    });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
    try {
      const saved = value<ProfilesState>(
        await core.dispatch(
          'profiles:save',
          {
            name: 'Echo',
            baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            key,
            keyStorage: 'persist',
          },
          r,
        ),
      );
      const p = saved.profiles.find((x) => x.name === 'Echo')!;
      const runId = value<{ runId: string }>(
        await core.dispatch('runs:start', { profileId: p.id, protocol: 'messages', body: bodies.messages('m') }, r),
      ).runId;
      const result = await r.end(runId);
      expect(result.verdict).toBe('error-event');
      expect(result.reason).toContain('key [redacted] was revoked');
      expect(result.transcript.blocks[0]).toMatchObject({ kind: 'text', text: 'you sent [redacted]' });
      expect(r.text(runId)).toContain('[redacted]');
      expect(
        r
          .updates(runId)
          .flatMap((u) => (u.kind === 'events' ? rowsOf(u.events) : []))
          .find((e) => e.type === 'comment')?.data,
      ).toBe('relay saw [redacted]');
      const recorded = await core.dispatch('runs:get', { runId }, r);
      expect(JSON.stringify(recorded)).toContain('[redacted]');
      value(await core.dispatch('history:list', {}, r));
      expect(r.raw.join('')).not.toContain(key);
      expect(JSON.stringify(recorded)).not.toContain(key);
      for (const f of await fs.readdir(coreDir, { recursive: true })) {
        const file = path.join(coreDir, f);
        if (statSync(file).isFile()) expect(readFileSync(file, 'utf8')).not.toContain(key);
      }
    } finally {
      await new Promise<void>((res) => server.close(() => res()));
    }
  });

  /** A one-off gateway on loopback, saved as a profile the core can run against. */
  async function gateway(name: string, handler: http.RequestListener) {
    const server = http.createServer(handler);
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
    const saved = value<ProfilesState>(
      await core.dispatch(
        'profiles:save',
        { name, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
        r,
      ),
    );
    const profileId = saved.profiles.find((x) => x.name === name)!.id;
    return {
      run: async (protocol: string, body: Record<string, unknown>) =>
        value<{ runId: string }>(await core.dispatch('runs:start', { profileId, protocol, body }, r)).runId,
      close: () => {
        server.closeAllConnections();
        return new Promise<void>((res) => server.close(() => res()));
      },
    };
  }

  const MESSAGES_STREAM = [
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":0}}}\n\n',
    'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}\n\n',
    'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
    'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}\n\n',
    'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  ].join('');

  it('the terminal event ends the run even when a relay holds the connection open, silent or pinging', async () => {
    for (const pings of [false, true]) {
      r = new Capture();
      const timers: NodeJS.Timeout[] = [];
      const g = await gateway(`Held open ${pings}`, (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(MESSAGES_STREAM);
        if (pings) timers.push(setInterval(() => res.write(': ping\n\n'), 100));
      });
      try {
        const runId = await g.run('messages', bodies.messages('m'));
        // The idle timeout here is 600 ms: waiting for the close would end "timeout", or never with pings.
        const result = await r.end(runId, 3000);
        expect(result.verdict).toBe('complete');
        expect(result.transcript.blocks[0]).toMatchObject({ kind: 'text', text: 'Hello' });
        expect(result.metrics.totalMs).toBeLessThan(500);
      } finally {
        timers.forEach(clearInterval);
        await g.close();
      }
    }
  });

  it('a non-streamed reply reports tokens per second over the whole request, not over reading a finished body', async () => {
    r = new Capture();
    const g = await gateway('Slow JSON', (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'msg_2',
            type: 'message',
            role: 'assistant',
            model: 'm',
            content: [{ type: 'text', text: 'Hi there' }],
            stop_reason: 'end_turn',
            usage: { input_tokens: 5, output_tokens: 30 },
          }),
        );
      }, 300);
    });
    try {
      const result = await r.end(
        await g.run('messages', { model: 'm', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }),
      );
      expect(result.verdict).toBe('complete');
      expect(result.metrics.outputTokensPerSec).toBeGreaterThan(0);
      expect(result.metrics.outputTokensPerSec).toBeLessThanOrEqual(30 / 0.3);
    } finally {
      await g.close();
    }
  });

  const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));
  /** A gateway that writes each piece of a stream after its delay, then closes. */
  const scripted = (name: string, steps: [delayMs: number, text: string][]) =>
    gateway(name, (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      void (async () => {
        for (const [ms, text] of steps) {
          if (ms) await sleep(ms);
          res.write(text);
        }
        res.end();
      })();
    });
  const chatChunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

  it('tokens per second counts hidden reasoning time: from the response headers when the reasoning never streamed', async () => {
    const usage = `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 10, completion_tokens: 1010, total_tokens: 1020, completion_tokens_details: { reasoning_tokens: 1000 } } })}\n\n`;
    const reply = (visibleThinking: boolean): [number, string][] => [
      [0, chatChunk({ role: 'assistant', content: '' })],
      ...(visibleThinking ? [[0, chatChunk({ reasoning_content: 'Let me think.' })] as [number, string]] : []),
      // The model reasons for 400 ms before its first visible word (the idle timeout here is 600 ms).
      [400, chatChunk({ content: 'Hello' })],
      ...Array.from({ length: 9 }, () => [10, chatChunk({ content: ' word' })] as [number, string]),
      [0, chatChunk({}, 'stop')],
      [0, usage],
      [0, 'data: [DONE]\n\n'],
    ];
    for (const visibleThinking of [false, true]) {
      r = new Capture();
      const g = await scripted(`Reasoning ${visibleThinking}`, reply(visibleThinking));
      try {
        const result = await r.end(await g.run('chat', bodies.chat('m')));
        const m = result.metrics;
        expect(result.verdict).toBe('complete');
        expect(m.usage).toMatchObject({ output: 1010, reasoning: 1000 });
        expect(m.ttftMs! - m.ttfbMs!).toBeLessThan(visibleThinking ? 300 : 1e9);
        // Hidden: 1,010 tokens over at least the 400 ms of reasoning, not over the 100 ms of visible words.
        const from = visibleThinking ? m.ttftMs! : m.ttfbMs!;
        expect(m.outputTokensPerSec).toBeCloseTo((1010 / (m.totalMs - from)) * 1000, 0);
        if (!visibleThinking) expect(m.outputTokensPerSec).toBeLessThan(1010 / 0.4);
      } finally {
        await g.close();
      }
    }
  });

  it('a Messages stream cut before message_delta reports output as not reported, and no tokens per second', async () => {
    r = new Capture();
    const named = (o: { type: string }) => `event: ${o.type}\ndata: ${JSON.stringify(o)}\n\n`;
    const g = await scripted('Cut Messages', [
      [
        0,
        named({
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: 'm',
            content: [],
            usage: { input_tokens: 20, output_tokens: 1 },
          },
        } as { type: string }),
      ],
      [
        0,
        named({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } as { type: string }),
      ],
      ...Array.from(
        { length: 20 },
        () =>
          [
            5,
            named({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'token ' } } as {
              type: string;
            }),
          ] as [number, string],
      ),
    ]);
    try {
      const result = await r.end(await g.run('messages', bodies.messages('m')));
      expect(result.verdict).toBe('truncated');
      expect(result.metrics.usage).toEqual({ inputTotal: 20 });
      expect(result.metrics.usage.output).toBeUndefined();
      expect(result.metrics.outputTokensPerSec).toBeUndefined();
    } finally {
      await g.close();
    }
  });

  it('event sizes are UTF-8 bytes: the live byte total of a CJK stream equals the final byte count', async () => {
    r = new Capture();
    const g = await scripted('CJK', [
      [0, chatChunk({ role: 'assistant', content: '' })],
      ...Array.from(
        { length: 10 },
        () => [2, chatChunk({ content: '你好世界，这是一个测试。🚀' })] as [number, string],
      ),
      [0, chatChunk({}, 'stop')],
      [0, 'data: [DONE]\n\n'],
    ]);
    try {
      const runId = await g.run('chat', bodies.chat('m'));
      const result = await r.end(runId);
      const events = r.updates(runId).flatMap((u) => (u.kind === 'events' ? rowsOf(u.events) : []));
      expect(events).toHaveLength(13);
      for (const e of events) expect(e.size).toBe(Buffer.byteLength(`data: ${e.data}\n\n`));
      expect(events.reduce((n, e) => n + e.size, 0)).toBe(result.metrics.bytes);
    } finally {
      await g.close();
    }
  });

  it('Responses text that arrives only in output_item.done still gives a time to first token', async () => {
    r = new Capture();
    const ev = (o: Record<string, unknown> & { type: string }) => `event: ${o.type}\ndata: ${JSON.stringify(o)}\n\n`;
    const item = {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Hello there', annotations: [] }],
    };
    const g = await scripted('Done-only Responses', [
      [0, ev({ type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } })],
      [
        0,
        ev({
          type: 'response.output_item.added',
          output_index: 0,
          item: { ...item, status: 'in_progress', content: [] },
        }),
      ],
      [150, ev({ type: 'response.output_item.done', output_index: 0, item })],
      [
        0,
        ev({
          type: 'response.completed',
          response: { id: 'resp_1', status: 'completed', output: [item], usage: { input_tokens: 5, output_tokens: 3 } },
        }),
      ],
    ]);
    try {
      const result = await r.end(await g.run('responses', bodies.responses('m')));
      expect(result.verdict).toBe('complete');
      expect(result.transcript.blocks).toEqual([{ kind: 'text', text: 'Hello there' }]);
      expect(result.metrics.ttftMs).toBeGreaterThanOrEqual(result.metrics.ttfbMs! + 100);
    } finally {
      await g.close();
    }
  });

  it('a 200 body that failed part way keeps the output and usage it carries', async () => {
    r = new Capture();
    const g = await gateway('Failed body', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'resp_1',
          object: 'response',
          status: 'failed',
          error: { code: 'server_error', message: 'upstream died' },
          output: [
            {
              type: 'message',
              id: 'msg_1',
              role: 'assistant',
              content: [{ type: 'output_text', text: 'Partial answer so far' }],
            },
          ],
          usage: { input_tokens: 300, output_tokens: 40 },
        }),
      );
    });
    try {
      const result = await r.end(await g.run('responses', { model: 'm', input: 'hi' }));
      expect(result.verdict).toBe('error-event');
      expect(result.reason).toContain('upstream died');
      expect(result.transcript.blocks).toEqual([
        expect.objectContaining({ kind: 'text', text: 'Partial answer so far' }),
      ]);
      expect(result.metrics.usage).toMatchObject({ inputTotal: 300, output: 40 });
    } finally {
      await g.close();
    }
  });

  it('an HTML error page with an out-of-range character reference still ends the run, as text', async () => {
    r = new Capture();
    const g = await gateway('Odd HTML', (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><head><title>Bad gateway</title></head><body>Upstream &#99999999; failed &#233;</body></html>');
    });
    try {
      const result = await r.end(await g.run('chat', bodies.chat('m')), 3000);
      expect(result.verdict).toBe('http-error');
      expect(result.error?.message).toContain('&#99999999;');
      expect(result.error?.message).toContain('é');
    } finally {
      await g.close();
    }
  });

  it('a refused connection is "network-error" and names it', async () => {
    r = new Capture();
    const server = http.createServer();
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((res) => server.close(() => res()));
    const saved = value<ProfilesState>(
      await core.dispatch('profiles:save', { name: 'Closed port', baseUrl: `http://127.0.0.1:${port}` }, r),
    );
    const p = saved.profiles.find((x) => x.name === 'Closed port')!;
    const runId = value<{ runId: string }>(
      await core.dispatch('runs:start', { profileId: p.id, protocol: 'chat', body: bodies.chat('x') }, r),
    ).runId;
    const result = await r.end(runId);
    expect(result.verdict).toBe('network-error');
    expect(result.error?.type).toBe('network:refused');
  });
});
