import { describe, expect, it } from 'vitest';
import { createResponsesFold } from './responses';
import { readResponsesResponse } from './responses-body';
import { cutBefore, fixtures, runFold, sse } from './fixtures/harness';

/** Builds a Responses stream with sequence numbers from 0. */
function stream(events: Record<string, unknown>[], seq = true): string {
  return events
    .map((e, i) => sse.named({ ...(e as { type: string }), ...(seq ? { sequence_number: i } : {}) }))
    .join('');
}
const created = {
  type: 'response.created',
  response: { id: 'resp_1', model: 'gpt-x', status: 'in_progress', output: [] },
};
const completed = (extra: Record<string, unknown> = {}) => ({
  type: 'response.completed',
  response: { id: 'resp_1', model: 'gpt-x', status: 'completed', output: [], ...extra },
});

describe('Responses fold over recorded-style fixtures', () => {
  it('folds reasoning summary, text and a function call; usage from response.completed', () => {
    const run = runFold('responses', fixtures.responsesTextTool);
    expect(run.transcript).toEqual({
      id: 'resp_fixture68a1b2c3',
      model: 'gpt-5.1-codex',
      stopReason: 'completed',
      blocks: [
        {
          kind: 'thinking',
          text: 'Need the weather tool.',
          item: {
            type: 'reasoning',
            id: 'rs_fx1',
            summary: [{ type: 'summary_text', text: 'Need the weather tool.' }],
          },
        },
        { kind: 'text', text: 'Checking Paris — один момент ⏳' },
        {
          kind: 'tool_call',
          id: 'call_abc',
          name: 'get_weather',
          argsText: '{"city":"Paris"}',
          args: { city: 'Paris' },
          complete: true,
        },
      ],
      usage: { inputTotal: 328, inputCached: 256, output: 52, reasoning: 20 },
      rawUsage: {
        input_tokens: 328,
        input_tokens_details: { cached_tokens: 256 },
        output_tokens: 52,
        output_tokens_details: { reasoning_tokens: 20 },
        total_tokens: 380,
      },
    });
    expect(run.outcome).toEqual({
      verdict: 'complete',
      reason: 'The stream ended with response.completed.',
      warnings: [],
    });
    expect(run.steps.filter((s) => s.content).map((s) => s.type)).toEqual([
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
    ]);
  });

  it('shows deltas while streaming, before the done events arrive', () => {
    const run = runFold('responses', cutBefore(fixtures.responsesTextTool, '"response.function_call_arguments.done"'));
    expect(run.transcript.blocks[2]).toEqual({
      kind: 'tool_call',
      id: 'call_abc',
      name: 'get_weather',
      argsText: '{"city":"Paris"}',
      complete: false,
    });
    expect(run.outcome.verdict).toBe('truncated');
    expect(run.outcome.reason).toMatch(
      /^The connection closed before response\.completed arrived \(\d+ events received\)\.$/,
    );
  });

  it('response.incomplete is complete with stopReason incomplete:<reason> and a warning; trailing [DONE] is silent', () => {
    const run = runFold('responses', fixtures.responsesIncomplete);
    expect(run.outcome.verdict).toBe('complete');
    expect(run.transcript.stopReason).toBe('incomplete:max_output_tokens');
    expect(run.outcome.warnings).toEqual(['The response is incomplete (max_output_tokens): the output stops early.']);
    expect(run.transcript.blocks).toEqual([{ kind: 'text', text: 'Once upon a' }]);
    expect(run.transcript.usage).toEqual({ inputTotal: 20, output: 16 });
  });

  it('response.failed is an error-event with the response error', () => {
    const run = runFold('responses', fixtures.responsesFailed);
    expect(run.outcome).toMatchObject({
      verdict: 'error-event',
      error: { code: 'server_error', message: 'The model produced invalid content.' },
    });
    expect(run.transcript.blocks).toEqual([{ kind: 'text', text: 'Hel' }]);
    expect(run.transcript.stopReason).toBe('failed');
  });
});

describe('Responses fold: terminal cases', () => {
  it('a flat error event is terminal', () => {
    const run = runFold(
      'responses',
      stream([created, { type: 'error', code: 'rate_limit_exceeded', message: 'Slow down', param: null }]),
    );
    expect(run.outcome).toMatchObject({
      verdict: 'error-event',
      error: { code: 'rate_limit_exceeded', message: 'Slow down' },
    });
  });

  it('a nested error event (some relays) is terminal too', () => {
    const run = runFold(
      'responses',
      stream([
        {
          type: 'error',
          error: { type: 'invalid_request_error', code: 'context_length_exceeded', message: 'Too long' },
        },
      ]),
    );
    expect(run.outcome).toMatchObject({
      verdict: 'error-event',
      error: { type: 'invalid_request_error', code: 'context_length_exceeded', message: 'Too long' },
      warnings: [],
    });
  });

  it('[DONE] is noise, never completion', () => {
    const run = runFold(
      'responses',
      stream([created, { type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'hi' }]) +
        'data: [DONE]\n\n',
    );
    expect(run.outcome.verdict).toBe('truncated');
    expect(run.outcome.reason).toMatch(/before response\.completed/);
    expect(run.outcome.warnings.join()).toMatch(/\[DONE\]/);
    const after = runFold('responses', stream([created, completed()]) + 'data: [DONE]\n\n');
    expect(after.outcome).toMatchObject({ verdict: 'complete', warnings: [] });
  });

  it('events after the terminal event are ignored with a warning', () => {
    const run = runFold(
      'responses',
      stream([created, completed(), { type: 'response.output_text.delta', output_index: 0, delta: 'late' }]),
    );
    expect(run.transcript.blocks).toEqual([]);
    expect(run.outcome.warnings).toEqual([
      'response.output_text.delta arrived after response.completed and was ignored.',
    ]);
  });

  it('warns on a sequence gap or regression', () => {
    const gap = runFold(
      'responses',
      cutBefore(fixtures.responsesTextTool, '"response.in_progress"') +
        fixtures.responsesTextTool.slice(fixtures.responsesTextTool.indexOf('event: response.output_item.added')),
    );
    expect(gap.outcome.verdict).toBe('complete');
    expect(gap.outcome.warnings).toEqual(['sequence gap: expected 1, got 2']);
    const events = [created, { type: 'response.in_progress', response: {} }].map((e, i) =>
      sse.named({ ...e, sequence_number: 5 - i }),
    );
    expect(runFold('responses', events.join('')).outcome.warnings).toContain('sequence gap: expected 6, got 4');
  });

  it('warns about a malformed event and carries on', () => {
    const run = runFold(
      'responses',
      sse.named(created) +
        'event: response.output_text.delta\ndata: {"type":"response.output\n\n' +
        sse.named(completed()),
    );
    expect(run.outcome.verdict).toBe('complete');
    expect(run.outcome.warnings[0]).toMatch(/Event 2 is not a JSON object/);
  });

  it('an error event with a plain-text payload is an error-event', () => {
    const run = runFold('responses', sse.named(created) + 'event: error\ndata: upstream timeout\n\n');
    expect(run.outcome).toMatchObject({ verdict: 'error-event', error: { message: 'upstream timeout' } });
  });

  it('an `event: error` line is an error-event even when its JSON type is no Responses event', () => {
    const run = runFold(
      'responses',
      sse.named(created) + 'event: error\ndata: {"type":"overloaded_error","message":"Overloaded"}\n\n',
    );
    expect(run.outcome).toMatchObject({
      verdict: 'error-event',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
  });

  it('an OpenAI envelope with no type ends the stream as an error', () => {
    const run = runFold(
      'responses',
      sse.data({ error: { message: 'Invalid key', type: 'invalid_request_error', code: 'invalid_api_key' } }),
    );
    expect(run.outcome).toMatchObject({ verdict: 'error-event', error: { code: 'invalid_api_key' } });
  });
});

describe('Responses fold: items', () => {
  it('accepts output_item.done without added or output_index (Codex-style minimal stream)', () => {
    const body =
      'event: response.created\ndata: {"type":"response.created","response":{"id":"resp9"}}\n\n' +
      'event: response.output_item.done\ndata: {"type":"response.output_item.done","item":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hello there"}]}}\n\n' +
      'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp9","output":[]}}\n';
    const run = runFold('responses', body);
    expect(run.transcript.blocks).toEqual([{ kind: 'text', text: 'hello there' }]);
    expect(run.outcome).toMatchObject({ verdict: 'complete', warnings: [] });
    expect(run.transcript.usage).toEqual({});
  });

  it('a relay that drops output_index from every event still folds each delta into its item, found by item_id', () => {
    const withIndex = runFold('responses', fixtures.responsesTextTool);
    const stripped = fixtures.responsesTextTool.replace(/"output_index":\d+,/g, '');
    expect(stripped).not.toContain('output_index');
    const run = runFold('responses', stripped);
    expect(run.transcript.blocks).toEqual(withIndex.transcript.blocks);
    expect(run.outcome).toMatchObject({ verdict: 'complete' });
    expect(run.outcome.warnings.filter((w) => w.includes('output_index'))).toEqual([]);
    // Every text delta counted as content, as with the index: time to first token is the same event.
    expect(run.steps.map((st) => st.content)).toEqual(withIndex.steps.map((st) => st.content));
  });

  it('adopts response.completed output when a relay sent no item events', () => {
    const run = runFold(
      'responses',
      stream([
        created,
        completed({
          output: [
            {
              type: 'message',
              content: [
                { type: 'output_text', text: 'A' },
                { type: 'refusal', refusal: 'B' },
              ],
            },
            { type: 'function_call', call_id: 'c1', name: 'f', arguments: '' },
          ],
        }),
      ]),
    );
    expect(run.transcript.blocks).toEqual([
      { kind: 'text', text: 'A' },
      { kind: 'refusal', text: 'B' },
      { kind: 'tool_call', id: 'c1', name: 'f', argsText: '', args: {}, complete: true },
    ]);
  });

  it('keeps refusal deltas and separates reasoning summaries', () => {
    const run = runFold(
      'responses',
      stream([
        created,
        { type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs', summary: [] } },
        { type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 0, delta: 'First.' },
        { type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 1, delta: 'Second.' },
        {
          type: 'response.output_item.added',
          output_index: 1,
          item: { type: 'message', id: 'm', role: 'assistant', content: [] },
        },
        {
          type: 'response.content_part.added',
          output_index: 1,
          content_index: 0,
          part: { type: 'refusal', refusal: '' },
        },
        { type: 'response.refusal.delta', output_index: 1, content_index: 0, delta: "I can't" },
        { type: 'response.refusal.delta', output_index: 1, content_index: 0, delta: ' do that.' },
        {
          type: 'response.output_item.added',
          output_index: 2,
          item: { type: 'web_search_call', id: 'ws', status: 'in_progress' },
        },
        { type: 'response.web_search_call.searching', output_index: 2, item_id: 'ws' },
        {
          type: 'response.output_item.done',
          output_index: 2,
          item: { type: 'web_search_call', id: 'ws', status: 'completed' },
        },
        completed(),
      ]),
    );
    expect(run.transcript.blocks).toEqual([
      { kind: 'thinking', text: 'First.\n\nSecond.' },
      { kind: 'refusal', text: "I can't do that." },
      { kind: 'other', type: 'web_search_call', raw: { type: 'web_search_call', id: 'ws', status: 'completed' } },
    ]);
    expect(run.outcome).toMatchObject({ verdict: 'complete', warnings: [] });
  });

  it('keeps the done reasoning item, encrypted_content included, on the thinking block the deltas built', () => {
    const item = {
      type: 'reasoning',
      id: 'rs',
      summary: [{ type: 'summary_text', text: 'Plan.' }],
      encrypted_content: 'gAAAA_ENC',
    };
    const run = runFold(
      'responses',
      stream([
        created,
        { type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs', summary: [] } },
        { type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 0, delta: 'Plan.' },
        { type: 'response.output_item.done', output_index: 0, item },
        completed(),
      ]),
    );
    expect(run.transcript.blocks).toEqual([{ kind: 'thinking', text: 'Plan.', item }]);
    const relayed = runFold('responses', stream([created, completed({ output: [item] })]));
    expect(relayed.transcript.blocks).toEqual([{ kind: 'thinking', text: 'Plan.', item }]);
  });

  it('orders blocks by output_index even when items arrive out of order', () => {
    const run = runFold(
      'responses',
      stream([
        created,
        { type: 'response.output_text.delta', output_index: 1, content_index: 0, delta: 'second' },
        { type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'first' },
        completed(),
      ]),
    );
    expect(run.transcript.blocks).toEqual([
      { kind: 'text', text: 'first' },
      { kind: 'text', text: 'second' },
    ]);
  });

  it('output_item.done is the truth for function call arguments', () => {
    const fold = createResponsesFold();
    const push = (e: Record<string, unknown>) => fold.push({ data: JSON.stringify(e) });
    push(created);
    push({
      type: 'response.output_item.added',
      output_index: 0,
      item: { type: 'function_call', id: 'fc', call_id: 'call_1', name: 'f', arguments: '' },
    });
    push({ type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc', delta: '{"a":' });
    push({
      type: 'response.output_item.done',
      output_index: 0,
      item: { type: 'function_call', id: 'fc', call_id: 'call_1', name: 'f', arguments: '{"a":2}' },
    });
    expect(fold.transcript().blocks).toEqual([
      { kind: 'tool_call', id: 'call_1', name: 'f', argsText: '{"a":2}', args: { a: 2 }, complete: true },
    ]);
  });

  it('text that arrives only in output_item.done (no deltas) marks content there, so time to first token is known', () => {
    const item = {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Hello there', annotations: [] }],
    };
    const run = runFold(
      'responses',
      stream([
        created,
        { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
        { type: 'response.output_item.done', output_index: 0, item },
        completed({ usage: { input_tokens: 5, output_tokens: 3 } }),
      ]),
    );
    expect(run.transcript.blocks).toEqual([{ kind: 'text', text: 'Hello there' }]);
    expect(run.steps.filter((s) => s.content).map((s) => s.type)).toEqual(['response.output_item.done']);
  });

  it('text that arrives only in content_part.done marks content there; a done event repeating streamed text does not', () => {
    const part = (type: string, text: string) => ({
      type,
      output_index: 0,
      content_index: 0,
      item_id: 'msg_1',
      part: { type: 'output_text', text, annotations: [] },
    });
    const item = {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Hi', annotations: [] }],
    };
    const onlyDone = runFold(
      'responses',
      stream([
        created,
        { type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } },
        part('response.content_part.added', ''),
        part('response.content_part.done', 'Hi'),
        { type: 'response.output_item.done', output_index: 0, item },
        completed(),
      ]),
    );
    expect(onlyDone.transcript.blocks).toEqual([{ kind: 'text', text: 'Hi' }]);
    expect(onlyDone.steps.filter((s) => s.content).map((s) => s.type)).toEqual(['response.content_part.done']);
    const streamed = runFold(
      'responses',
      stream([
        created,
        { type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } },
        part('response.content_part.added', ''),
        { type: 'response.output_text.delta', output_index: 0, content_index: 0, item_id: 'msg_1', delta: 'Hi' },
        { type: 'response.output_text.done', output_index: 0, content_index: 0, item_id: 'msg_1', text: 'Hi' },
        part('response.content_part.done', 'Hi'),
        { type: 'response.output_item.done', output_index: 0, item },
        completed(),
      ]),
    );
    expect(streamed.steps.filter((s) => s.content).map((s) => s.type)).toEqual(['response.output_text.delta']);
  });

  it('absent usage in response.completed stays undefined', () => {
    const run = runFold('responses', stream([created, completed({ usage: null })]));
    expect(run.transcript.usage).toEqual({});
    expect(run.transcript.rawUsage).toBeUndefined();
  });
});

describe('readResponsesResponse', () => {
  it('reads the §4.2 body', () => {
    const reading = readResponsesResponse({
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      model: 'gpt-x',
      output: [
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'thought' }] },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_abc',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
          status: 'completed',
        },
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
        },
      ],
      usage: {
        input_tokens: 328,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 52,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 380,
      },
      incomplete_details: null,
      error: null,
    });
    expect(reading.error).toBeUndefined();
    expect(reading.warnings).toEqual([]);
    expect(reading.transcript).toMatchObject({
      id: 'resp_1',
      stopReason: 'completed',
      blocks: [
        { kind: 'thinking', text: 'thought' },
        { kind: 'tool_call', id: 'call_abc', name: 'get_weather', args: { city: 'Paris' }, complete: true },
        { kind: 'text', text: 'Done.' },
      ],
      usage: { inputTotal: 328, inputCached: 0, output: 52, reasoning: 0 },
    });
  });

  it('keeps the reasoning item, encrypted_content included, on its thinking block', () => {
    const item = {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'thought' }],
      encrypted_content: 'gAAAA_ENC',
    };
    expect(readResponsesResponse({ status: 'completed', output: [item] }).transcript.blocks).toEqual([
      { kind: 'thinking', text: 'thought', item },
    ]);
  });

  it('incomplete, failed and background bodies', () => {
    const inc = readResponsesResponse({
      status: 'incomplete',
      incomplete_details: { reason: 'content_filter' },
      output: [],
    });
    expect(inc.transcript.stopReason).toBe('incomplete:content_filter');
    expect(inc.warnings[0]).toMatch(/incomplete \(content_filter\)/);
    const failed = readResponsesResponse({
      status: 'failed',
      error: { code: 'server_error', message: 'boom' },
      output: [],
    });
    expect(failed.error).toEqual({ code: 'server_error', message: 'boom' });
    const queued = readResponsesResponse({ id: 'resp_bg', status: 'queued', output: [] });
    expect(queued.transcript.stopReason).toBe('queued');
    expect(queued.warnings[0]).toMatch(/background/);
  });

  it('a 2xx body with an error envelope sets error', () => {
    expect(
      readResponsesResponse({ error: { message: 'nope', type: 'invalid_request_error', param: null, code: null } })
        .error,
    ).toEqual({
      type: 'invalid_request_error',
      message: 'nope',
    });
  });
});
