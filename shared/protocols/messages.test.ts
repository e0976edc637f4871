import { describe, expect, it } from 'vitest';
import { createMessagesFold, readMessagesResponse } from './messages';
import { cutBefore, fixtures, runFold, sse } from './fixtures/harness';

const start = (usage: Record<string, unknown> | null = { input_tokens: 10, output_tokens: 1 }) =>
  sse.named({
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [],
      stop_reason: null,
      ...(usage ? { usage } : {}),
    },
  });
const blockStart = (index: number, content_block: Record<string, unknown>) =>
  sse.named({ type: 'content_block_start', index, content_block });
const delta = (index: number, d: Record<string, unknown>) =>
  sse.named({ type: 'content_block_delta', index, delta: d });
const blockStop = (index: number) => sse.named({ type: 'content_block_stop', index });
const messageDelta = (stop_reason: string | null, usage?: Record<string, unknown>) =>
  sse.named({ type: 'message_delta', delta: { stop_reason, stop_sequence: null }, ...(usage ? { usage } : {}) });
const stop = sse.named({ type: 'message_stop' });

describe('Messages fold over recorded-style fixtures', () => {
  it('folds a text stream with a ping', () => {
    const run = runFold('messages', fixtures.messagesText);
    expect(run.transcript).toEqual({
      id: 'msg_01TextFixtureA1b2C3d4',
      model: 'claude-sonnet-4-6',
      blocks: [
        {
          kind: 'text',
          text: 'Server-sent events stream text/event-stream frames over one HTTP response — café ☕ 日本語 🚀.',
        },
      ],
      stopReason: 'end_turn',
      usage: { inputTotal: 14, output: 23 },
      rawUsage: { input_tokens: 14, output_tokens: 23 },
    });
    expect(run.transcript.usage.inputCached).toBeUndefined();
    expect(run.outcome.verdict).toBe('complete');
    expect(run.outcome.warnings).toEqual([]);
    expect(run.steps.map((s) => s.type)).toContain('ping');
    expect(run.steps.filter((s) => s.terminal)).toHaveLength(1);
  });

  it('accumulates tool input across input_json_delta and parses it at content_block_stop', () => {
    const run = runFold('messages', fixtures.messagesToolUse);
    expect(run.transcript.blocks).toEqual([
      { kind: 'text', text: "I'll check the weather in Paris." },
      {
        kind: 'tool_call',
        id: 'toolu_01FixtureWeatherCall',
        name: 'get_weather',
        argsText: '{"city": "Paris"}',
        args: { city: 'Paris' },
        complete: true,
      },
    ]);
    expect(run.transcript.stopReason).toBe('tool_use');
    // Reported zeros stay zeros: only absent counters are undefined.
    expect(run.transcript.usage).toEqual({ inputTotal: 377, inputCached: 0, inputCacheWrite: 0, output: 65 });
    expect(run.outcome.verdict).toBe('complete');
  });

  it('does not parse partial tool JSON before content_block_stop', () => {
    const fold = createMessagesFold();
    fold.push({ event: 'message_start', data: JSON.stringify({ type: 'message_start', message: { id: 'm' } }) });
    fold.push({
      data: JSON.stringify({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 't', name: 'f', input: {} },
      }),
    });
    fold.push({
      data: JSON.stringify({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"a": ' },
      }),
    });
    const mid = fold.transcript().blocks[0];
    expect(mid).toMatchObject({ kind: 'tool_call', argsText: '{"a": ', complete: false });
    expect(mid).not.toHaveProperty('args');
    expect(mid).not.toHaveProperty('argsError');
  });

  it('keeps thinking with its signature, redacted thinking, and tolerates citations_delta', () => {
    const run = runFold('messages', fixtures.messagesThinking);
    expect(run.transcript.blocks).toEqual([
      {
        kind: 'thinking',
        text: 'The user asks 17 × 23. 17 × 20 = 340, 17 × 3 = 51, so 391.',
        signature: 'EqQBCkYIBxgCKkBfixtureSignatureAAAA==',
      },
      {
        kind: 'thinking',
        text: '',
        redacted: true,
        data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB9URj2pLmN8YU==',
      },
      { kind: 'text', text: '17 × 23 = 391.' },
    ]);
    expect(run.transcript.usage).toEqual({
      inputTotal: 40 + 2048 + 4096,
      inputCached: 4096,
      inputCacheWrite: 2048,
      output: 120,
      reasoning: 88,
    });
    expect(run.outcome).toMatchObject({ verdict: 'complete', warnings: [] });
    const contentSteps = run.steps.filter((s) => s.content).map((s) => s.type);
    expect(contentSteps).toEqual([
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
    ]);
  });

  it('reads whitespace-padded JSON, a tool block that never stopped, and a last event without its blank line', () => {
    const run = runFold('messages', fixtures.messagesPadded);
    expect(run.outcome.verdict).toBe('complete');
    expect(run.transcript.stopReason).toBe('max_tokens');
    expect(run.transcript.blocks[0]).toEqual({ kind: 'text', text: 'Writing the file now.' });
    expect(run.transcript.blocks[1]).toMatchObject({ kind: 'tool_call', name: 'make_file', complete: false });
    expect(run.outcome.warnings.join('\n')).toMatch(/make_file never got its content_block_stop/);
    expect(run.transcript.usage).toEqual({ inputTotal: 450, inputCached: 0, inputCacheWrite: 0, output: 124 });
  });

  it('turns an error event into an error-event verdict, keeps partial text, and ignores a following [DONE] silently', () => {
    const run = runFold('messages', fixtures.messagesError);
    expect(run.outcome).toMatchObject({
      verdict: 'error-event',
      error: { type: 'overloaded_error', message: 'Overloaded' },
      warnings: [],
    });
    expect(run.outcome.reason).toMatch(/overloaded_error/);
    expect(run.transcript.blocks).toEqual([{ kind: 'text', text: 'Partial ans' }]);
  });
});

describe('Messages fold: terminal cases', () => {
  it('truncated when the connection closes before message_stop, naming it and the event count', () => {
    const body = cutBefore(fixtures.messagesText, '"message_stop"');
    const run = runFold('messages', body);
    expect(run.outcome.verdict).toBe('truncated');
    expect(run.outcome.reason).toBe('The connection closed before message_stop arrived (9 events received).');
    expect(run.transcript.blocks[0]).toMatchObject({ kind: 'text' });
    expect(run.transcript.stopReason).toBe('end_turn');
  });

  it('an empty body is truncated with no events received', () => {
    expect(runFold('messages', '').outcome.reason).toBe(
      'The connection closed before message_stop arrived (no events received).',
    );
  });

  it('a 200 stream whose only frame is an error is an error-event', () => {
    const run = runFold('messages', sse.named({ type: 'error', error: { type: 'api_error', message: 'Internal' } }));
    expect(run.outcome).toMatchObject({ verdict: 'error-event', error: { type: 'api_error', message: 'Internal' } });
    expect(run.outcome.warnings).toEqual([]);
  });

  it('an error event with a plain-text payload is an error-event', () => {
    const run = runFold('messages', start() + 'event: error\ndata: Internal Server Error\n\n');
    expect(run.outcome).toMatchObject({ verdict: 'error-event', error: { message: 'Internal Server Error' } });
  });

  it('an `event: error` line is an error-event whatever its JSON looks like, with the partial text kept', () => {
    for (const payload of ['{"type":"overloaded_error","message":"Overloaded"}', '{"message":"upstream overloaded"}']) {
      const run = runFold(
        'messages',
        start() +
          blockStart(0, { type: 'text', text: '' }) +
          delta(0, { type: 'text_delta', text: 'Hi' }) +
          `event: error\ndata: ${payload}\n\n`,
      );
      expect(run.outcome.verdict).toBe('error-event');
      expect(run.outcome.error?.message).toMatch(/overloaded/i);
      expect(run.transcript.blocks[0]).toMatchObject({ kind: 'text', text: 'Hi' });
    }
    const typed = runFold(
      'messages',
      start() + 'event: error\ndata: {"type":"overloaded_error","message":"Overloaded"}\n\n',
    );
    expect(typed.outcome.error).toMatchObject({ type: 'overloaded_error', message: 'Overloaded' });
  });

  it('accepts an OpenAI-shaped error envelope on the Anthropic route', () => {
    const run = runFold(
      'messages',
      start() + sse.data({ error: { message: 'quota', type: 'insufficient_quota', code: 429 } }),
    );
    expect(run.outcome).toMatchObject({
      verdict: 'error-event',
      error: { type: 'insufficient_quota', code: '429', message: 'quota' },
    });
  });

  it('[DONE] before message_stop is ignored with a warning, never completion', () => {
    const run = runFold(
      'messages',
      start() +
        blockStart(0, { type: 'text', text: '' }) +
        delta(0, { type: 'text_delta', text: 'hi' }) +
        'data: [DONE]\n\n',
    );
    expect(run.outcome.verdict).toBe('truncated');
    expect(run.outcome.warnings.join()).toMatch(/\[DONE\]/);
  });

  it('ignores anything after message_stop with a warning, but [DONE] silently', () => {
    const base = start() + messageDelta('end_turn', { output_tokens: 2 }) + stop;
    const quiet = runFold('messages', base + 'data: [DONE]\n\n');
    expect(quiet.outcome).toMatchObject({ verdict: 'complete', warnings: [] });
    const noisy = runFold('messages', base + blockStart(0, { type: 'text', text: 'late' }));
    expect(noisy.outcome.verdict).toBe('complete');
    expect(noisy.transcript.blocks).toEqual([]);
    expect(noisy.outcome.warnings).toEqual(['content_block_start arrived after message_stop and was ignored.']);
  });

  it('warns about events before message_start but keeps their content', () => {
    const run = runFold(
      'messages',
      blockStart(0, { type: 'text', text: '' }) + delta(0, { type: 'text_delta', text: 'x' }) + stop,
    );
    expect(run.outcome.warnings.join()).toMatch(/content_block_start arrived before message_start/);
    expect(run.transcript.blocks).toEqual([{ kind: 'text', text: 'x' }]);
  });

  it('warns about a malformed event and carries on', () => {
    const run = runFold(
      'messages',
      start() +
        blockStart(0, { type: 'text', text: '' }) +
        'event: content_block_delta\ndata: {"type":"content_block_delta",\n\n' +
        delta(0, { type: 'text_delta', text: 'ok' }) +
        messageDelta('end_turn') +
        stop,
    );
    expect(run.outcome.verdict).toBe('complete');
    expect(run.transcript.blocks).toEqual([{ kind: 'text', text: 'ok' }]);
    expect(run.outcome.warnings).toHaveLength(1);
    expect(run.outcome.warnings[0]).toMatch(/Event 3 is not a JSON object/);
    expect(run.steps[2].type).toBe('content_block_delta');
  });
});

describe('Messages fold: usage', () => {
  it('overwrites cumulative message_delta counters, never adds, and keeps message_start values for absent fields', () => {
    const body =
      start({ input_tokens: 100, cache_read_input_tokens: 50, cache_creation_input_tokens: 0, output_tokens: 1 }) +
      messageDelta(null, { output_tokens: 10 }) +
      messageDelta('end_turn', { output_tokens: 25, cache_creation_input_tokens: null }) +
      stop;
    const run = runFold('messages', body);
    expect(run.transcript.usage).toEqual({ inputTotal: 150, inputCached: 50, inputCacheWrite: 0, output: 25 });
    expect(run.transcript.rawUsage).toEqual({
      input_tokens: 100,
      cache_read_input_tokens: 50,
      cache_creation_input_tokens: 0,
      output_tokens: 25,
    });
  });

  it("message_start's output_tokens placeholder is not an output count: a stream cut before message_delta reports none", () => {
    const head =
      start({ input_tokens: 20, output_tokens: 1 }) +
      blockStart(0, { type: 'text', text: '' }) +
      delta(0, { type: 'text_delta', text: 'token ' }) +
      delta(0, { type: 'text_delta', text: 'token ' });
    const cut = runFold('messages', head);
    expect(cut.outcome.verdict).toBe('truncated');
    expect(cut.transcript.usage).toEqual({ inputTotal: 20 });
    expect(cut.transcript.usage.output).toBeUndefined();
    // Once message_delta reports it, it is the output count, and message_start's input stays.
    const full = runFold('messages', head + blockStop(0) + messageDelta('end_turn', { output_tokens: 2 }) + stop);
    expect(full.transcript.usage).toEqual({ inputTotal: 20, output: 2 });
  });

  it('absent usage stays undefined, never 0', () => {
    const run = runFold('messages', start(null) + messageDelta('end_turn') + stop);
    expect(run.transcript.usage).toEqual({});
    expect(run.transcript.usage.output).toBeUndefined();
    expect(run.transcript.rawUsage).toBeUndefined();
  });
});

describe('Messages fold: blocks', () => {
  it('empty tool input means {}, invalid JSON sets argsError', () => {
    const body =
      start() +
      blockStart(0, { type: 'tool_use', id: 'a', name: 'noop', input: {} }) +
      delta(0, { type: 'input_json_delta', partial_json: '' }) +
      blockStop(0) +
      blockStart(1, { type: 'tool_use', id: 'b', name: 'bad', input: {} }) +
      delta(1, { type: 'input_json_delta', partial_json: '{"x": tru' }) +
      blockStop(1) +
      messageDelta('tool_use') +
      stop;
    const [a, b] = runFold('messages', body).transcript.blocks;
    expect(a).toEqual({ kind: 'tool_call', id: 'a', name: 'noop', argsText: '', args: {}, complete: true });
    expect(b).toMatchObject({ kind: 'tool_call', id: 'b', argsText: '{"x": tru', complete: true });
    expect(b).toHaveProperty('argsError');
    expect(b).not.toHaveProperty('args');
  });

  it('keeps a relay-supplied full input when no deltas follow', () => {
    const body =
      start() + blockStart(0, { type: 'tool_use', id: 'a', name: 'f', input: { q: 1 } }) + blockStop(0) + stop;
    expect(runFold('messages', body).transcript.blocks[0]).toMatchObject({
      args: { q: 1 },
      argsText: '{"q":1}',
      complete: true,
    });
  });

  it('keeps unknown block and event types as other, not fatal', () => {
    const body =
      start() +
      sse.named({ type: 'brand_new_event', payload: 1 }) +
      blockStart(0, { type: 'server_tool_use', id: 'srv', name: 'web_search', input: {} }) +
      delta(0, { type: 'input_json_delta', partial_json: '{"query":"sse"}' }) +
      blockStop(0) +
      blockStart(1, { type: 'web_search_tool_result', tool_use_id: 'srv', content: [] }) +
      blockStop(1) +
      messageDelta('end_turn') +
      stop;
    const run = runFold('messages', body);
    expect(run.outcome).toMatchObject({ verdict: 'complete', warnings: [] });
    expect(run.transcript.blocks).toEqual([
      {
        kind: 'other',
        type: 'server_tool_use',
        raw: { type: 'server_tool_use', id: 'srv', name: 'web_search', input: { query: 'sse' } },
      },
      {
        kind: 'other',
        type: 'web_search_tool_result',
        raw: { type: 'web_search_tool_result', tool_use_id: 'srv', content: [] },
      },
    ]);
  });

  it('marks content steps for text, thinking and tool arguments only', () => {
    const fold = createMessagesFold();
    const push = (s: string) => {
      const [, data] = /data: (.*)\n/.exec(s)!;
      return fold.push({ data });
    };
    expect(push(start()).content).toBe(false);
    expect(push(blockStart(0, { type: 'text', text: '' })).content).toBe(false);
    expect(push(delta(0, { type: 'text_delta', text: 'a' })).content).toBe(true);
    expect(push(sse.named({ type: 'ping' }))).toEqual({ content: false, terminal: false });
    expect(push(messageDelta('end_turn', { output_tokens: 3 })).content).toBe(false);
    expect(push(stop)).toEqual({ content: false, terminal: true });
  });

  it('transcript() returns fresh copies that later events do not change', () => {
    const fold = createMessagesFold();
    fold.push({ data: JSON.stringify({ type: 'message_start', message: { id: 'm', usage: { input_tokens: 1 } } }) });
    fold.push({
      data: JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    });
    fold.push({
      data: JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'a' } }),
    });
    const first = fold.transcript();
    fold.push({
      data: JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'b' } }),
    });
    const second = fold.transcript();
    expect(first.blocks).toEqual([{ kind: 'text', text: 'a' }]);
    expect(second.blocks).toEqual([{ kind: 'text', text: 'ab' }]);
    expect(second.blocks).not.toBe(first.blocks);
    expect(second.blocks[0]).not.toBe(first.blocks[0]);
    expect(second.usage).not.toBe(first.usage);
  });

  it('folds 20,000 text deltas without quadratic cost', () => {
    const fold = createMessagesFold();
    fold.push({ data: JSON.stringify({ type: 'message_start', message: { id: 'm' } }) });
    fold.push({
      data: JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    });
    const data = JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'tok ' } });
    for (let i = 0; i < 20_000; i++) {
      fold.push({ event: 'content_block_delta', data });
      if (i % 500 === 0) fold.transcript();
    }
    fold.push({ data: '{"type":"message_stop"}' });
    const block = fold.transcript().blocks[0];
    expect(block.kind === 'text' && block.text.length).toBe(80_000);
    expect(fold.end().verdict).toBe('complete');
  });
});

describe('Messages refusal (stop_details)', () => {
  const refusalDelta = (details: Record<string, unknown> | null) =>
    sse.named({
      type: 'message_delta',
      delta: { stop_reason: 'refusal', stop_sequence: null, stop_details: details },
      usage: { output_tokens: 5 },
    });

  it('a message_delta with stop_details of type refusal adds a refusal block after the text, with its category', () => {
    const body =
      start({ input_tokens: 20, output_tokens: 1 }) +
      blockStart(0, { type: 'text', text: '' }) +
      delta(0, { type: 'text_delta', text: 'Sure, step one' }) +
      blockStop(0) +
      refusalDelta({ type: 'refusal', category: 'bio', explanation: 'This request could enable biological harm.' }) +
      stop;
    const run = runFold('messages', body);
    expect(run.outcome.verdict).toBe('complete');
    expect(run.transcript.stopReason).toBe('refusal');
    expect(run.transcript.blocks).toEqual([
      { kind: 'text', text: 'Sure, step one' },
      { kind: 'refusal', text: 'This request could enable biological harm. (category: bio)', source: 'stop_details' },
    ]);
    expect(run.transcript.usage.output).toBe(5);
  });

  it('a refusal repeated in a later message_delta stays one block; no stop_details adds none', () => {
    const details = { type: 'refusal', category: null, explanation: null };
    const twice = runFold('messages', start() + refusalDelta(details) + refusalDelta(details) + stop);
    expect(twice.transcript.blocks).toEqual([{ kind: 'refusal', text: 'The model refused.', source: 'stop_details' }]);
    // The refusal is the first thing shown: it counts for time to first token.
    expect(twice.steps.filter((s) => s.content).map((s) => s.type)).toEqual(['message_delta']);
    expect(runFold('messages', start() + refusalDelta(null) + stop).transcript.blocks).toEqual([]);
  });

  it('a non-streamed body with stop_details of type refusal reads as a refusal block too', () => {
    const r = readMessagesResponse({
      id: 'msg_r',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [],
      stop_reason: 'refusal',
      stop_details: { type: 'refusal', category: 'cyber', explanation: 'Not able to help with that.' },
      usage: { input_tokens: 5, output_tokens: 3 },
    });
    expect(r.transcript.blocks).toEqual([
      { kind: 'refusal', text: 'Not able to help with that. (category: cyber)', source: 'stop_details' },
    ]);
  });
});

describe('readMessagesResponse', () => {
  it('reads the §1.7 body', () => {
    const reading = readMessagesResponse({
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [
        { type: 'thinking', thinking: 'hmm', signature: 'sig' },
        { type: 'text', text: "I'll check.", citations: null },
        { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
        { type: 'container_upload', file_id: 'f' },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 377,
        output_tokens: 65,
        cache_creation_input_tokens: 3,
        cache_read_input_tokens: 20,
        output_tokens_details: null,
      },
    });
    expect(reading.error).toBeUndefined();
    expect(reading.transcript).toMatchObject({
      id: 'msg_01',
      model: 'claude-x',
      stopReason: 'tool_use',
      usage: { inputTotal: 400, inputCached: 20, inputCacheWrite: 3, output: 65 },
      blocks: [
        { kind: 'thinking', text: 'hmm', signature: 'sig' },
        { kind: 'text', text: "I'll check." },
        {
          kind: 'tool_call',
          id: 'toolu_01',
          name: 'get_weather',
          args: { city: 'Paris' },
          argsText: '{"city":"Paris"}',
          complete: true,
        },
        { kind: 'other', type: 'container_upload' },
      ],
    });
    expect(reading.transcript.usage.reasoning).toBeUndefined();
  });

  it('a 2xx body with an error envelope sets error', () => {
    const reading = readMessagesResponse({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
      request_id: 'req_1',
    });
    expect(reading.error).toEqual({ type: 'overloaded_error', message: 'Overloaded' });
    expect(
      readMessagesResponse({ error: { message: 'no model', code: 'model_not_found', type: 'new_api_error' } }).error,
    ).toEqual({
      type: 'new_api_error',
      code: 'model_not_found',
      message: 'no model',
    });
    expect(readMessagesResponse('nope').warnings).toEqual(['The body is not a JSON object.']);
  });
});
