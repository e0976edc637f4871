/**
 * Integration: a loopback gateway that echoes the key back escaped the ways JSON and HTTP layers escape it
 * (`\/`, `\u00XX`, URL-encoding), in error bodies, events, comments, reply text and the model list. Driven
 * through `dispatch`; no 8-character window of the key may reach a push, an answer or a file of the data folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promises as fs, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { ModelList, ProfilesState, RecordedRun } from '../../shared/contract';
import type { Core } from './service';
import { Capture, newCore, value } from './testing/core-harness';
import { createFold } from '../../shared/protocols';
import { rowsOf } from '../../shared/protocols/event-columns';

const KEY = 'sk-relay/KEY+0123456789abcdef';
const slashes = (s: string) => s.replaceAll('/', '\\/');
const unicode = (s: string) =>
  [...s].map((c, i) => (i % 2 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}` : c)).join('');
const ESCAPED = [slashes(KEY), unicode(KEY), encodeURIComponent(KEY)];
const windows = Array.from({ length: KEY.length - 7 }, (_, i) => KEY.slice(i, i + 8));
/** The key as HTML character references, decimal or hex by turns, with one more `&` escape before each when asked. */
const references = (s: string, prefix = '&') =>
  [...s]
    .map((c, i) => (i % 2 ? `${prefix}#${c.charCodeAt(0)};` : `${prefix}#x${c.charCodeAt(0).toString(16)};`))
    .join('');
/** `shown`, and URL-decoding twice: every layer a reader could peel off. */
const peeled = (text: string) =>
  shown(text)
    .replace(/%25([0-9a-fA-F]{2})/g, '%$1')
    .replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
/** What an HTML or Markdown viewer shows of a text: its character references decoded. */
const shown = (text: string) =>
  text
    .replace(/&#[xX]([0-9a-fA-F]+);?/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number(d)));

describe('core: a gateway that echoes the key escaped gets it scrubbed everywhere', () => {
  let core: Core;
  let dataDir: string;
  let server: http.Server;
  let profileId: string;
  let answer: (res: http.ServerResponse, url: string) => void = (res) => res.writeHead(500).end();
  const r = new Capture();

  beforeAll(async () => {
    ({ core, dataDir } = await newCore());
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => answer(res, req.url ?? ''));
    });
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const saved = value<ProfilesState>(await core.dispatch('profiles:save', { name: 'Echo', baseUrl, key: KEY }, r));
    profileId = saved.profiles.find((p) => p.name === 'Echo')!.id;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((res) => server.close(() => res()));
    await core.close();
  });

  const raw = (res: http.ServerResponse, status: number, type: string, text: string) =>
    res.writeHead(status, { 'content-type': type }).end(text);
  const run = async (protocol: string, stream: boolean) => {
    const body = { model: 'm', stream, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] };
    const { runId } = value<{ runId: string }>(await core.dispatch('runs:start', { profileId, protocol, body }, r));
    const result = await r.end(runId);
    await core.runs.settled();
    const again = await core.dispatch('runs:get', { runId }, r);
    const history = await core.dispatch('history:get', { runId }, r);
    // History's exports leave the app: the HAR (the body as received, an event stream written back) and the JSON.
    const exported = async (format: string) =>
      value<{ text: string }>(await core.dispatch('history:export', { runIds: [runId], format }, r)).text;
    const [har, json] = [await exported('har'), await exported('json')];
    return { result, runId, seen: JSON.stringify([result, again, history, har, json]) };
  };

  /** No window of the key in what was seen, any push, or any file of the data folder. */
  const expectNowhere = async (seen: string) => {
    const out = [seen, ...r.raw].join('\n');
    for (const w of windows) expect(shown(out)).not.toContain(w);
    for (const f of await fs.readdir(dataDir, { recursive: true })) {
      const file = path.join(dataDir, f);
      if (!statSync(file).isFile()) continue;
      const text = shown(readFileSync(file, 'utf8'));
      for (const w of windows) expect(text, file).not.toContain(w);
    }
  };

  it('in a 401 error body, escaped three ways', async () => {
    answer = (res) =>
      raw(res, 401, 'application/json', `{"error":{"type":"auth","message":"bad key ${ESCAPED.join(' / ')}"}}`);
    const { result, seen } = await run('messages', false);
    expect(result.verdict).toBe('http-error');
    expect(result.error?.message).toBe('bad key [redacted] / [redacted] / [redacted]');
    await expectNowhere(seen);
  });

  it('in error events and comments of a stream', async () => {
    answer = (res) =>
      raw(
        res,
        200,
        'text/event-stream',
        `: ping ${ESCAPED[2]}\n\n` +
          `event: x-${ESCAPED[0]}\ndata: {}\n\n` +
          `event: error\ndata: {"type":"error","error":{"type":"x","message":"${ESCAPED[1]}"}}\n\n`,
      );
    const { result, seen } = await run('messages', true);
    expect(result.verdict).toBe('error-event');
    expect(result.reason).toContain('[redacted]');
    await expectNowhere(seen);
  });

  it('in the reply text of a complete document', async () => {
    const reply = {
      id: 'c',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: `key: ${ESCAPED[0]}` }, finish_reason: 'stop' }],
    };
    answer = (res) =>
      raw(res, 200, 'application/json', JSON.stringify(reply).replace(ESCAPED[0].replaceAll('\\', '\\\\'), ESCAPED[0]));
    const { result, seen } = await run('chat', false);
    expect(result.verdict).toBe('complete');
    expect(result.transcript.blocks).toEqual([{ kind: 'text', text: 'key: [redacted]' }]);
    await expectNowhere(seen);
  });

  it('in model names, before the list is cached', async () => {
    answer = (res) =>
      raw(
        res,
        200,
        'application/json',
        `{"object":"list","data":[{"id":"m-1","object":"model","owned_by":"x","display_name":"for ${ESCAPED[1]}"}]}`,
      );
    const list = value<ModelList>(await core.dispatch('models:list', { profileId, refresh: true }, r));
    expect(list.models.map((m) => m.id)).toEqual(['m-1']);
    await expectNowhere(JSON.stringify(list));
  });

  it('in a count_tokens error page of the Claude Code check, as HTML references, decoded by parsing', async () => {
    // The page writes the key as references (`&#115;…`), and once more with the `&` itself escaped
    // (`&#38;#115;…`): reading the page decodes one layer, so only a scrub after parsing sees the second.
    answer = (res, url) =>
      url.startsWith('/v1/messages/count_tokens')
        ? raw(
            res,
            400,
            'text/html',
            `<html><body><h1>Bad key ${references(KEY)}</h1><p>or ${references(KEY, '&#38;')}</p></body></html>`,
          )
        : raw(res, 500, 'application/json', '{"error":{"type":"x","message":"down"}}');
    const check = value<{ steps: { id: string; evidence: string }[] }>(
      await core.dispatch('agents:check', { profileId, agent: 'claude-code', model: 'm', smallModel: 'm' }, r),
    );
    const step = check.steps.find((s) => s.id === 'count-tokens')!;
    expect(step.evidence).toContain('[redacted]');
    const list = await core.dispatch('agents:list', { profileId }, r);
    const report = await core.dispatch('agents:report', { profileId }, r);
    await expectNowhere(JSON.stringify([check, list, report]));
  });

  const splitForms: [string, string][] = [
    ['as written', KEY],
    ['as HTML references', references(KEY)],
    ['URL-encoded twice', encodeURIComponent(encodeURIComponent(KEY))],
    ['with one character a reference', KEY.replace('-', '&#45;')],
  ];
  for (const [name, form] of splitForms) {
    it(`split over 4-character text deltas, ${name}: never whole in the window, the events or history`, async () => {
      const text = `Your key is ${form} — keep it.`;
      const deltas = Array.from({ length: Math.ceil(text.length / 4) }, (_, i) => text.slice(i * 4, i * 4 + 4));
      const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
      answer = (res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(sse('message_start', { type: 'message_start', message: { id: 'm', model: 'm', usage: {} } }));
        res.write(
          sse('content_block_start', {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'text', text: '' },
          }),
        );
        for (const d of deltas)
          res.write(
            sse('content_block_delta', {
              type: 'content_block_delta',
              index: 0,
              delta: { type: 'text_delta', text: d },
            }),
          );
        res.write(sse('content_block_stop', { type: 'content_block_stop', index: 0 }));
        res.end(sse('message_stop', { type: 'message_stop' }));
      };
      const { result, runId, seen } = await run('messages', true);
      expect(result.verdict).toBe('complete');
      // The window folds the pushed events as they come: after every push, what it shows holds no key.
      const fold = createFold('messages');
      for (const u of r.updates(runId)) {
        if (u.kind !== 'events') continue;
        for (const e of rowsOf(u.events)) if (e.type !== 'comment') fold.push({ event: e.event, data: e.data });
        const shownNow = fold
          .transcript()
          .blocks.map((b) => ('text' in b ? b.text : ''))
          .join('');
        for (const w of windows) expect(peeled(shownNow)).not.toContain(w);
      }
      const streamed = fold
        .transcript()
        .blocks.map((b) => ('text' in b ? b.text : ''))
        .join('');
      expect(streamed).toContain('[redacted]');
      expect(streamed).toContain('— keep it.');
      await expectNowhere(peeled(seen));
      // The events kept for the Events list and history, folded again as a reopened run is: no key either.
      const history = value<RecordedRun>(await core.dispatch('history:get', { runId }, r));
      const again = createFold('messages');
      for (const e of history.events) if (e.type !== 'comment') again.push({ event: e.event, data: e.data });
      const kept = again
        .transcript()
        .blocks.map((b) => ('text' in b ? b.text : ''))
        .join('');
      expect(kept).toContain('[redacted]');
      for (const w of windows) expect(peeled(kept)).not.toContain(w);
    });
  }
});
