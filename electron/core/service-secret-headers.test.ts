/**
 * Integration: the core against real simulated gateways over loopback HTTP (a secret extra header the gateway echoes back), driven through
 * `dispatch` exactly as both hosts drive it (see testing/core-harness.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promises as fs, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { CapabilityList, ModelList, ProfilesState, TokenCount } from '../../shared/contract';
import type { Core } from './service';
import { Capture, newCore, value } from './testing/core-harness';

describe('core: a secret extra header the gateway echoes back is scrubbed like the key', () => {
  const TOKEN = 'sk-hel-ECHOED-7f3a9c2e5b41d806';
  const HELICONE = `Bearer ${TOKEN}`;
  let core: Core;
  let dataDir: string;
  let server: http.Server;
  let profileId: string;
  /** What the gateway does with the next request; it is handed the helicone-auth value it received. */
  let answer: (req: http.IncomingMessage, res: http.ServerResponse, echoed: string) => void = (_q, res) =>
    res.writeHead(500).end();
  const r = new Capture();

  beforeAll(async () => {
    ({ core, dataDir } = await newCore());
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => answer(req, res, String(req.headers['helicone-auth'])));
    });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const saved = value<ProfilesState>(
      await core.dispatch(
        'profiles:save',
        { name: 'Echoing relay', baseUrl, key: 'sk-relay-key-0123456789', extraHeaders: { 'helicone-auth': HELICONE } },
        r,
      ),
    );
    profileId = saved.profiles.find((p) => p.name === 'Echoing relay')!.id;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((res) => server.close(() => res()));
    await core.close();
  });

  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const unauthorized = (echoed: string) => ({
    type: 'error',
    error: { type: 'authentication_error', message: `invalid helicone-auth: ${echoed}` },
  });
  const chatBody = (stream: boolean) => ({ model: 'm', stream, messages: [{ role: 'user', content: 'hi' }] });

  const run = async (protocol: string, body: Record<string, unknown>) => {
    const { runId } = value<{ runId: string }>(await core.dispatch('runs:start', { profileId, protocol, body }, r));
    const result = await r.end(runId);
    await core.runs.settled();
    return { runId, result };
  };

  /** Neither the value nor its token alone in any push, any answer given here, or any file of the data folder. */
  const expectNowhere = async (...answers: unknown[]) => {
    const out = [...r.raw, ...answers.map((a) => JSON.stringify(a))].join('\n');
    expect(out).not.toContain(TOKEN);
    for (const f of await fs.readdir(dataDir, { recursive: true })) {
      const file = path.join(dataDir, f);
      if (statSync(file).isFile()) expect(readFileSync(file, 'utf8'), file).not.toContain(TOKEN);
    }
  };

  it('in a 401 JSON error body', async () => {
    answer = (_req, res, echoed) => json(res, 401, unauthorized(echoed));
    const { runId, result } = await run('chat', chatBody(false));
    expect(result.verdict).toBe('http-error');
    expect(result.error?.message).toBe('invalid helicone-auth: [redacted]');
    expect(result.rawBody).toContain('invalid helicone-auth: [redacted]');
    await expectNowhere(
      result,
      await core.dispatch('history:get', { runId }, r),
      await core.dispatch('runs:get', { runId }, r),
    );
  });

  it('in a response header and the status text', async () => {
    answer = (_req, res, echoed) => {
      res.statusMessage = `OK for ${echoed.slice('Bearer '.length)}`;
      json(
        res,
        200,
        { id: 'c', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] },
        { 'x-debug': `helicone-auth=${echoed}`, 'x-echo-helicone-auth': echoed },
      );
    };
    const { runId, result } = await run('chat', chatBody(false));
    expect(result.verdict).toBe('complete');
    expect(result.response?.statusText).toBe('OK for [redacted]');
    expect(result.response?.headers).toMatchObject({
      'x-debug': 'helicone-auth=[redacted]',
      'x-echo-helicone-auth': '[redacted]',
    });
    await expectNowhere(result, await core.dispatch('history:get', { runId }, r));
  });

  it("inside a streamed event's data, split across two network chunks", async () => {
    answer = (_req, res, echoed) => {
      const frames = [
        'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n',
        `data: {"error":{"type":"authentication_error","message":"invalid helicone-auth: ${echoed}"}}\n\n`,
      ].join('');
      const cut = frames.indexOf(TOKEN) + 6;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frames.slice(0, cut));
      setTimeout(() => res.end(frames.slice(cut)), 40);
    };
    const { runId, result } = await run('chat', chatBody(true));
    expect(result.verdict).toBe('error-event');
    expect(result.reason).toContain('invalid helicone-auth: [redacted]');
    expect(r.text(runId)).toContain('invalid helicone-auth: [redacted]');
    await expectNowhere(result, await core.dispatch('history:get', { runId }, r));
  });

  it('in the models list error', async () => {
    answer = (_req, res, echoed) => json(res, 401, unauthorized(echoed));
    const list = value<ModelList>(await core.dispatch('models:list', { profileId, refresh: true }, r));
    expect(list.error?.message).toBe('invalid helicone-auth: [redacted]');
    await expectNowhere(list);
  });

  it('in the token count error, for the composer and for the token-counting probe', async () => {
    answer = (req, res, echoed) => {
      if (req.url?.endsWith('/count_tokens')) json(res, 401, unauthorized(echoed));
      else
        json(res, 200, {
          id: 'msg',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          stop_reason: 'max_tokens',
          usage: { input_tokens: 300, output_tokens: 1 },
        });
    };
    const body = { model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };
    const count = value<TokenCount>(
      await core.dispatch('tokens:count', { profileId, protocol: 'messages', body, useGateway: 'always' }, r),
    );
    expect(count.source).toBe('estimate');
    expect(count.fallbackReason).toContain('invalid helicone-auth: [redacted]');

    const { jobId } = value<{ jobId: string }>(
      await core.dispatch(
        'capabilities:probe',
        { profileId, models: ['m'], protocols: ['messages'], capabilities: ['token-counting'] },
        r,
      ),
    );
    for (
      let waited = 0;
      value<CapabilityList>(await core.dispatch('capabilities:list', { profileId }, r)).jobs.some(
        (j) => j.jobId === jobId,
      );
      waited += 20
    ) {
      if (waited > 20_000) throw new Error(`probe job ${jobId} did not finish`);
      await new Promise((res) => setTimeout(res, 20));
    }
    const probed = value<CapabilityList>(await core.dispatch('capabilities:list', { profileId }, r));
    const cell = probed.results.find((x) => x.capability === 'token-counting');
    expect(cell?.message).toContain('invalid helicone-auth: [redacted]');
    expect(readFileSync(path.join(dataDir, 'capabilities.json'), 'utf8')).toContain('[redacted]');
    await expectNowhere(count, probed);
  });

  it('a credential-named header holding an ordinary word is no secret to scrub: the answer it appears in stays whole', async () => {
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const saved = value<ProfilesState>(
      await core.dispatch(
        'profiles:save',
        { name: 'Auth mode', baseUrl, key: 'sk-relay-key-0123456789', extraHeaders: { 'x-auth-mode': 'null' } },
        r,
      ),
    );
    const completion = {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
    answer = (_req, res) => json(res, 200, completion);
    const { runId } = value<{ runId: string }>(
      await core.dispatch(
        'runs:start',
        { profileId: saved.profiles.find((p) => p.name === 'Auth mode')!.id, protocol: 'chat', body: chatBody(false) },
        r,
      ),
    );
    const result = await r.end(runId);
    expect(result.verdict).toBe('complete');
    expect(result.rawBody).toContain('"logprobs":null');
  });
});
