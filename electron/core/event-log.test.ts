import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../shared/protocols/event-columns';
import type { RawEvent } from '../../shared/protocols/types';
import { createSseReader, parseEvent } from '../../shared/protocols/sse';
import { EventLog } from './event-log';
import { scrub, secretWatchingDecoder } from './secrets';

const KEY = 'sk-test-0123456789abcdef';

/**
 * Reads `body` as the core does (runs.ts): each chunk is kept, then fed; every message and comment is logged,
 * scrubbed once a secret has shown up; each chunk's events are taken for one push. `stopAfter` stops logging
 * part-way, as a run does when its fold throws.
 */
function record(
  body: Uint8Array,
  chunkBytes: number,
  opts: { end?: boolean; stopAfter?: number; untaken?: boolean } = {},
) {
  const log = new EventLog();
  const pushed: RawEvent[][] = [];
  const take = () => {
    const columns = log.take();
    pushed.push(columns ? rowsOf(columns) : []);
  };
  const watch = secretWatchingDecoder([KEY]);
  const stopAfter = opts.stopAfter ?? Infinity;
  let t = 0;
  const reader = createSseReader(
    {
      onMessage: (message) => {
        if (log.length >= stopAfter) return;
        let data = message.data;
        if (watch.sawSecret) {
          log.scrubbed([KEY]);
          data = scrub(data, [KEY]);
        }
        log.add(t, parseEvent({ ...message, data }).type, data, message.event, data.length + 8);
      },
      onComment: (text) => {
        if (log.length >= stopAfter) return;
        if (watch.sawSecret) log.scrubbed([KEY]);
        const clean = watch.sawSecret ? scrub(text, [KEY]) : text;
        log.add(t, 'comment', clean, undefined, clean.length + 3);
      },
    },
    watch,
  );
  for (let at = 0; at < body.length; at += chunkBytes) {
    t += 1.25;
    const chunk = body.subarray(at, at + chunkBytes);
    log.keep(chunk);
    reader.feed(chunk);
    take();
  }
  if (opts.end) {
    log.ended();
    reader.end();
    if (!opts.untaken) take();
  }
  return { log, pushed };
}

const utf8 = (text: string) => new TextEncoder().encode(text);

// Every shape the reader meets: a BOM, event lines, data-only events, comments, CRLF and bare-CR line ends, a
// data field over two lines, multi-byte characters, [DONE] and an unknown event type.
const MIXED = [
  '\uFEFF: keep-alive\n\n',
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1"}}\n\n',
  ...Array.from(
    { length: 40 },
    (_, i) =>
      `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"héllo ${i} 日本 🙂"}}\n\n`,
  ),
  'data: {"id":"c","object":"chat.completion.chunk","choices":[]}\r\n\r\n',
  'event: custom_thing\rdata: first line\rdata: second line\r\r',
  ': another comment\n\n',
  'data: [DONE]\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n',
].join('');

describe('EventLog', () => {
  it('hands each event to exactly one push, and a push with nothing new does not grow afterwards', () => {
    const log = new EventLog();
    const pushes = [3, 0, 5, 2].map((n) => {
      for (let i = 0; i < n; i++)
        log.add(
          log.length,
          i % 2 ? 'ping' : 'content_block_delta',
          `x${log.length}`,
          i % 2 ? undefined : 'content_block_delta',
          10 + log.length,
        );
      return log.take();
    });
    expect(pushes[1]).toBeUndefined();
    expect(pushes.map((p) => (p ? rowsOf(p).map((e) => e.seq) : []))).toEqual([[0, 1, 2], [], [3, 4, 5, 6, 7], [8, 9]]);
    expect(log.length).toBe(10);
    expect(pushes[2]).toEqual({
      first: 3,
      t: [3, 4, 5, 6, 7],
      type: ['content_block_delta', 'ping', 'content_block_delta', 'ping', 'content_block_delta'],
      data: ['x3', 'x4', 'x5', 'x6', 'x7'],
      size: [13, 14, 15, 16, 17],
      event: ['content_block_delta', null, 'content_block_delta', null, 'content_block_delta'],
    });
    // A push's columns are its own: later events do not grow them.
    expect(pushes[0]?.t).toEqual([0, 1, 2]);
    expect(pushes[0]?.data).toEqual(['x0', 'x1', 'x2']);
  });

  it('lists afterwards exactly the events it pushed, for any split of the body into chunks', () => {
    const body = utf8(MIXED);
    for (const chunkBytes of [1, 2, 3, 5, 7, 64, 1000, 65_536]) {
      const { log, pushed } = record(body, chunkBytes, { end: true });
      const live = pushed.flat();
      expect(live.length).toBe(47);
      const listed = log.events();
      expect(listed).toEqual(live);
      // Built anew on each call: a list one caller changes is not the next caller's.
      expect(log.events()).toEqual(listed);
      expect(log.events()[5]).not.toBe(listed[5]);
    }
    const { log } = record(body, 7, { end: true });
    const listed = log.events();
    expect(listed[0]).toMatchObject({ seq: 0, type: 'comment', data: 'keep-alive' });
    expect(listed[2]).toMatchObject({
      type: 'content_block_delta',
      event: 'content_block_delta',
      t: expect.any(Number),
    });
    expect(JSON.parse(listed[41].data).delta.text).toBe('héllo 39 日本 🙂');
    expect(listed[43]).toMatchObject({ type: 'custom_thing', event: 'custom_thing', data: 'first line\nsecond line' });
    expect(listed.at(-1)).toMatchObject({ seq: 46, type: 'message_stop', data: '{"type":"message_stop"}' });
  });

  it('lists the events not yet taken for a push too', () => {
    const { log, pushed } = record(utf8(MIXED), 300, { end: true, untaken: true });
    const listed = log.events();
    const rest = log.take();
    expect(rest && rest.data.length).toBeGreaterThan(0);
    expect(listed).toEqual([...pushed.flat(), ...rowsOf(rest!)]);
    expect(listed).toHaveLength(47);
  });

  it('lists an event still waiting for its blank line only when the reader was ended with it', () => {
    const body = utf8(MIXED);
    const ended = record(body, 100, { end: true }).log;
    const cut = record(body, 100).log;
    expect(ended.events().at(-1)?.type).toBe('message_stop');
    // A cancelled or timed-out run never ends its reader: its last, unfinished event was never an event.
    expect(cut.length).toBe(46);
    expect(cut.events()).toHaveLength(46);
    expect(cut.events().at(-1)?.data).toBe('[DONE]');
  });

  it('a run that stopped part-way through a chunk lists only the events it had', () => {
    const { log, pushed } = record(utf8(MIXED), 65_536, { end: true, stopAfter: 12 });
    expect(log.events()).toHaveLength(12);
    expect(log.events()).toEqual(pushed.flat());
  });

  it('a secret the gateway echoed is scrubbed from the listed payloads as from the pushed ones', () => {
    const body = utf8(
      `${MIXED.slice(0, -31)}event: error\ndata: {"type":"error","error":{"type":"authentication_error","message":"bad key ${KEY}"}}\n\n: echoed ${KEY}\n\n`,
    );
    const { log, pushed } = record(body, 33, { end: true });
    const listed = log.events();
    expect(listed).toEqual(pushed.flat());
    expect(JSON.stringify(listed)).not.toContain(KEY);
    expect(listed.at(-2)?.data).toContain('bad key [redacted]');
    expect(listed.at(-1)).toMatchObject({ type: 'comment', data: 'echoed [redacted]' });
  });

  it('says so when the kept bytes hold fewer events than it logged, instead of shifting payloads', () => {
    const { log } = record(utf8(MIXED), 1000, { end: true });
    log.add(99, 'ping', 'x', undefined, 1);
    expect(() => log.events()).toThrow("reading the body again gave 47 of the run's 48 events");
  });
});
