import { describe, expect, it } from 'vitest';
import { createFold, readResponse, parseEvent, PROTOCOL_IDS } from './index';
import { createSseReader } from './sse';
import { fixtureProtocol, fixtures, runFold, type Chunking } from './fixtures/harness';

describe('createFold / readResponse', () => {
  it('dispatches per protocol', () => {
    for (const protocol of PROTOCOL_IDS) {
      const fold = createFold(protocol);
      expect(fold.transcript()).toEqual({ blocks: [], usage: {} });
      expect(fold.end().verdict).toBe('truncated');
    }
    expect(readResponse('messages', { content: [{ type: 'text', text: 'a' }] }).transcript.blocks).toEqual([
      { kind: 'text', text: 'a' },
    ]);
    expect(readResponse('chat', { choices: [{ message: { content: 'b' } }] }).transcript.blocks).toEqual([
      { kind: 'text', text: 'b' },
    ]);
    expect(
      readResponse('responses', { output: [{ type: 'message', content: [{ type: 'output_text', text: 'c' }] }] })
        .transcript.blocks,
    ).toEqual([{ kind: 'text', text: 'c' }]);
  });

  it('push accepts a pre-parsed event and folds it', () => {
    const fold = createFold('messages');
    const message = { event: 'message_start', data: '{"type":"message_start","message":{"id":"m"}}' };
    expect(fold.push(message, parseEvent(message))).toEqual({ content: false, terminal: false });
    expect(fold.transcript().id).toBe('m');
  });
});

describe('a fold read without copying', () => {
  it('gives the blocks and usage its transcript gives, after every event of every recorded stream', () => {
    for (const name of Object.keys(fixtures) as (keyof typeof fixtures)[]) {
      const fold = createFold(fixtureProtocol[name]);
      let pushed = 0;
      createSseReader({
        onMessage: (m) => {
          fold.push(m);
          pushed++;
          const t = fold.transcript();
          expect(fold.blocks(), `${name} after ${pushed} events`).toEqual(t.blocks);
          expect(fold.usage(), `${name} after ${pushed} events`).toEqual(t.usage);
        },
      }).feed(fixtures[name]);
      expect(pushed, name).toBeGreaterThan(3);
      // What usage() hands out is the caller's: changing it leaves the fold's count as it was.
      const before = fold.transcript().usage;
      fold.usage().output = -1;
      expect(fold.transcript().usage, name).toEqual(before);
    }
  });
});

describe('tool-call ids', () => {
  const chunk = (delta: object, finish: string | null = null) => ({
    data: JSON.stringify({
      id: 'c',
      object: 'chat.completion.chunk',
      model: 'm',
      choices: [{ index: 0, delta, finish_reason: finish }],
    }),
  });
  const call = (index: number, id: string | undefined, name: string) => ({
    tool_calls: [{ index, ...(id === undefined ? {} : { id }), type: 'function', function: { name, arguments: '{}' } }],
  });

  it('two calls that share an id, or a call with none, are warned about: their results could not be told apart', () => {
    const fold = createFold('chat');
    for (const m of [
      chunk(call(0, 'call_1', 'a')),
      chunk(call(1, 'call_1', 'b')),
      chunk(call(2, undefined, 'c')),
      chunk({}, 'tool_calls'),
      { data: '[DONE]' },
    ])
      fold.push(m);
    const outcome = fold.end();
    expect(outcome.verdict).toBe('complete');
    expect(outcome.warnings).toEqual([
      '2 tool calls share the id call_1: the gateway cannot tell their results apart.',
      'A tool call has no id: a tool result cannot name the call it answers.',
    ]);
    expect(fold.warnings()).toEqual(outcome.warnings);
    const body = {
      choices: [
        {
          message: {
            tool_calls: [0, 1].map(() => ({ id: 'x', type: 'function', function: { name: 'f', arguments: '{}' } })),
          },
          finish_reason: 'tool_calls',
        },
      ],
    };
    expect(readResponse('chat', body).warnings).toContain(
      '2 tool calls share the id x: the gateway cannot tell their results apart.',
    );
  });

  it('calls with ids of their own raise nothing', () => {
    const fold = createFold('chat');
    for (const m of [
      chunk(call(0, 'call_1', 'a')),
      chunk(call(1, 'call_2', 'b')),
      chunk({}, 'tool_calls'),
      { data: '[DONE]' },
    ])
      fold.push(m);
    expect(fold.end().warnings).toEqual([]);
  });
});

describe('every fixture folds identically however the bytes are chunked', () => {
  const chunkings: Chunking[] = ['bytes', { random: 7 }, { random: 99 }, { random: 12345 }];
  for (const [name, text] of Object.entries(fixtures) as [keyof typeof fixtures, string][]) {
    it(name, () => {
      const protocol = fixtureProtocol[name];
      const whole = runFold(protocol, text, 'whole');
      expect(whole.transcript.blocks.length).toBeGreaterThan(0);
      for (const chunking of chunkings) {
        const other = runFold(protocol, text, chunking);
        expect(other.transcript).toEqual(whole.transcript);
        expect(other.outcome).toEqual(whole.outcome);
        expect(other.steps).toEqual(whole.steps);
      }
      // CRLF and bare CR line endings frame the same events.
      for (const eol of ['\r\n', '\r']) {
        const converted = runFold(protocol, text.replace(/\n/g, eol), 'bytes');
        expect(converted.transcript).toEqual(whole.transcript);
        expect(converted.outcome).toEqual(whole.outcome);
      }
    });
  }
});
