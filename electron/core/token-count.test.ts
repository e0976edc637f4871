import { describe, expect, it, vi } from 'vitest';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import {
  COUNT_TOKENS_FIELDS,
  FILE_TOKENS,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD,
  countTokens,
  countTokensBody,
  estimateTokens,
  scaleBreakdown,
  type CountDeps,
} from './token-count';

type Answer = Awaited<ReturnType<CountDeps['countViaGateway']>>;

function gateway(answer: Answer | (() => Promise<Answer>)) {
  const calls: Record<string, unknown>[] = [];
  const deps: CountDeps = {
    countViaGateway: vi.fn(async (body: Record<string, unknown>) => {
      calls.push(body);
      return typeof answer === 'function' ? answer() : answer;
    }),
  };
  return { deps, calls };
}

const messagesBody = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  stream: true,
  temperature: 0.5,
  top_p: 0.9,
  top_k: 5,
  stop_sequences: ['END'],
  metadata: { user_id: 'u' },
  service_tier: 'auto',
  my_extra_field: 1,
  system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
  messages: [{ role: 'user', content: 'How many moons has Mars?' }],
  tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
  tool_choice: { type: 'auto' },
  thinking: { type: 'adaptive' },
  output_config: { effort: 'low' },
  cache_control: { type: 'ephemeral' },
};

const chatBody = {
  model: 'claude-via-chat',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'How many moons has Mars?' },
  ],
  max_completion_tokens: 100,
  seed: 3,
  stream: true,
};

describe('Messages tab: the gateway count', () => {
  it('asks count_tokens with only the fields that endpoint takes', async () => {
    const { deps, calls } = gateway({ ok: true, inputTokens: 42 });
    const count = await countTokens({ protocol: 'messages', body: messagesBody, modelFamily: 'unknown' }, deps);
    expect(count).toEqual({ inputTokens: 42, source: 'gateway', label: 'gateway count' });
    expect(Object.keys(calls[0]).sort()).toEqual([...COUNT_TOKENS_FIELDS].sort());
    expect(calls[0].messages).toEqual(messagesBody.messages);
    expect(calls[0].system).toEqual(messagesBody.system);
  });

  it('passes the abort signal on to the gateway call', async () => {
    const { deps } = gateway({ ok: true, inputTokens: 7 });
    const ctl = new AbortController();
    await countTokens({ protocol: 'messages', body: messagesBody, modelFamily: 'anthropic' }, deps, ctl.signal);
    expect(deps.countViaGateway).toHaveBeenCalledWith(expect.any(Object), ctl.signal);
  });

  it('counts locally when the user says never, without calling the gateway', async () => {
    const { deps } = gateway({ ok: true, inputTokens: 42 });
    const count = await countTokens(
      { protocol: 'messages', body: messagesBody, modelFamily: 'anthropic', useGateway: 'never' },
      deps,
    );
    expect(count.source).toBe('estimate');
    expect(count.label).toBe('estimate');
    expect(count.fallbackReason).toBeUndefined();
    expect(deps.countViaGateway).not.toHaveBeenCalled();
  });
});

describe('Chat Completions and Responses tabs', () => {
  it('translate to the Messages shape for a first-family model and label it so', async () => {
    const { deps, calls } = gateway({ ok: true, inputTokens: 19 });
    const count = await countTokens({ protocol: 'chat', body: chatBody, modelFamily: 'anthropic' }, deps);
    expect(count.source).toBe('gateway-via-translation');
    expect(count.label).toBe('gateway count, via translation');
    expect(count.inputTokens).toBe(19);
    expect(calls[0]).toEqual({
      model: 'claude-via-chat',
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'How many moons has Mars?' }],
    });
    // A dropped seed does not change what is counted, so it is not listed.
    expect(count.losses).toEqual([]);
  });

  it('lists translation losses that change what is counted', async () => {
    const { deps } = gateway({ ok: true, inputTokens: 30 });
    const body = {
      input: [
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { role: 'user', content: 'Hi' },
      ],
      previous_response_id: 'resp_1',
      store: false,
    };
    const count = await countTokens({ protocol: 'responses', body, modelFamily: 'anthropic' }, deps);
    expect(count.losses?.map((l) => l.path)).toEqual(['previous_response_id', 'input[0]']);
  });

  it('estimate for a second-family model, without calling the gateway', async () => {
    const { deps } = gateway({ ok: true, inputTokens: 19 });
    for (const modelFamily of ['openai', 'unknown'] as const) {
      const count = await countTokens({ protocol: 'chat', body: chatBody, modelFamily }, deps);
      expect(count).toMatchObject({ source: 'estimate', label: 'estimate' });
      expect(count.inputTokens).toBeGreaterThan(0);
      expect(count.fallbackReason).toBeUndefined();
    }
    expect(deps.countViaGateway).not.toHaveBeenCalled();
  });

  it('ask the gateway anyway when the user says always', async () => {
    const { deps } = gateway({ ok: true, inputTokens: 23 });
    const count = await countTokens(
      { protocol: 'responses', body: { model: 'gpt-x', input: 'Hello' }, modelFamily: 'openai', useGateway: 'always' },
      deps,
    );
    expect(count).toMatchObject({ source: 'gateway-via-translation', inputTokens: 23 });
  });

  it('fall back to the estimate, with the reason, when the request cannot be translated', async () => {
    const { deps } = gateway({ ok: true, inputTokens: 23 });
    const count = await countTokens(
      { protocol: 'chat', body: { messages: 'not a list' }, modelFamily: 'anthropic' },
      deps,
    );
    expect(count.source).toBe('estimate');
    expect(count.fallbackReason).toMatch(/could not be translated.*messages must be a list.*local estimate/);
    expect(deps.countViaGateway).not.toHaveBeenCalled();
  });
});

describe('gateway failures fall back to the estimate and say why', () => {
  it.each([
    [404, 'Not Found'],
    [400, 'messages.0.content.0.image.source: URL sources are not supported'],
    [401, 'invalid x-api-key'],
  ])('HTTP %i', async (status, message) => {
    const { deps } = gateway({ ok: false, status, message });
    const count = await countTokens({ protocol: 'messages', body: messagesBody, modelFamily: 'anthropic' }, deps);
    expect(count.source).toBe('estimate');
    expect(count.label).toBe('estimate');
    expect(count.fallbackReason).toBe(`count_tokens answered ${status}: ${message} — showing a local estimate`);
    expect(count.inputTokens).toBe(estimateTokens('messages', messagesBody).total);
  });

  it('a network failure, reported or thrown', async () => {
    const reported = await countTokens(
      { protocol: 'messages', body: messagesBody, modelFamily: 'anthropic' },
      gateway({ ok: false, message: 'connect ECONNREFUSED 127.0.0.1:9' }).deps,
    );
    expect(reported.fallbackReason).toBe(
      'count_tokens could not be reached: connect ECONNREFUSED 127.0.0.1:9 — showing a local estimate',
    );
    const thrown = await countTokens(
      { protocol: 'messages', body: messagesBody, modelFamily: 'anthropic' },
      gateway(() => Promise.reject(new TypeError('fetch failed'))).deps,
    );
    expect(thrown).toMatchObject({ source: 'estimate', fallbackReason: expect.stringContaining('fetch failed') });
  });

  it('a stub answer of 0 for a request with content', async () => {
    const count = await countTokens(
      { protocol: 'chat', body: chatBody, modelFamily: 'anthropic' },
      gateway({ ok: true, inputTokens: 0 }).deps,
    );
    expect(count.source).toBe('estimate');
    expect(count.fallbackReason).toBe('gateway answered 0 (stub?) — showing a local estimate');
    expect(count.inputTokens).toBeGreaterThan(0);
  });

  it('a count that is not a whole number', async () => {
    const count = await countTokens(
      { protocol: 'messages', body: messagesBody, modelFamily: 'anthropic' },
      gateway({ ok: true, inputTokens: Number.NaN }).deps,
    );
    expect(count).toMatchObject({ source: 'estimate', fallbackReason: expect.stringContaining('unusable count') });
  });
});

describe('stale counts', () => {
  it('reject when aborted during the gateway call instead of showing a stale number', async () => {
    const ctl = new AbortController();
    const deps: CountDeps = {
      countViaGateway: () => {
        ctl.abort();
        return Promise.reject(new DOMException('aborted', 'AbortError'));
      },
    };
    await expect(
      countTokens({ protocol: 'messages', body: messagesBody, modelFamily: 'anthropic' }, deps, ctl.signal),
    ).rejects.toThrow(/abort/i);
  });

  it('reject when aborted even if the gateway answered anyway', async () => {
    const ctl = new AbortController();
    const deps: CountDeps = {
      countViaGateway: async () => {
        ctl.abort();
        return { ok: true, inputTokens: 5 };
      },
    };
    await expect(
      countTokens({ protocol: 'messages', body: messagesBody, modelFamily: 'anthropic' }, deps, ctl.signal),
    ).rejects.toThrow();
  });
});

describe('breakdown', () => {
  const body = {
    model: 'm',
    max_tokens: 100,
    system: 'A long system prompt. '.repeat(50),
    messages: [
      { role: 'user', content: 'Short question?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'lookup', input: { q: 'moons' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'two' }] },
    ],
    tools: [
      {
        name: 'lookup',
        description: 'Look things up',
        input_schema: { type: 'object', properties: { q: { type: 'string' } } },
      },
    ],
  };

  it('splits a gateway total by the estimate and says so; the parts add up to the total', async () => {
    const count = await countTokens(
      { protocol: 'messages', body, modelFamily: 'anthropic', breakdown: true },
      gateway({ ok: true, inputTokens: 401 }).deps,
    );
    expect(count.breakdown!.map((b) => b.label)).toEqual([
      'system',
      'turn 1 (user)',
      'turn 2 (assistant)',
      'turn 3 (user)',
      'tools',
    ]);
    expect(count.breakdown!.reduce((s, b) => s + b.tokens, 0)).toBe(401);
    expect(count.breakdownNote).toMatch(/estimate's proportions/);
    const biggest = [...count.breakdown!].sort((a, b) => b.tokens - a.tokens)[0];
    expect(biggest.label).toBe('system');
  });

  it('is the estimate itself when the count is an estimate, with no note', async () => {
    const count = await countTokens(
      { protocol: 'messages', body, modelFamily: 'anthropic', useGateway: 'never', breakdown: true },
      gateway({ ok: true, inputTokens: 1 }).deps,
    );
    expect(count.breakdown).toEqual(estimateTokens('messages', body).breakdown);
    expect(count.breakdownNote).toBeUndefined();
  });

  it('is left out unless asked for', async () => {
    const count = await countTokens(
      { protocol: 'messages', body, modelFamily: 'anthropic' },
      gateway({ ok: true, inputTokens: 401 }).deps,
    );
    expect(count.breakdown).toBeUndefined();
  });

  it('scaling keeps every part and the exact total', () => {
    expect(
      scaleBreakdown(
        [
          { label: 'a', tokens: 1 },
          { label: 'b', tokens: 1 },
          { label: 'c', tokens: 1 },
        ],
        10,
      ).map((b) => b.tokens),
    ).toEqual([4, 3, 3]);
    expect(scaleBreakdown([{ label: 'a', tokens: 0 }], 10)).toEqual([{ label: 'a', tokens: 0 }]);
  });
});

describe('the local estimate', () => {
  it('counts text with o200k_base, plus a small overhead per message', () => {
    const est = estimateTokens('messages', {
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'How many moons has Mars?' }],
    });
    expect(est.breakdown).toEqual([
      { label: 'system', tokens: o200k('You are terse.') },
      { label: 'turn 1 (user)', tokens: o200k('How many moons has Mars?') + MESSAGE_OVERHEAD },
    ]);
    expect(est.total).toBe(o200k('You are terse.') + o200k('How many moons has Mars?') + MESSAGE_OVERHEAD);
  });

  it('counts tool definitions, and images at a fixed cost', () => {
    const base = { messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }] }] };
    const withTool = {
      ...base,
      tools: [{ type: 'function', function: { name: 'zoom', parameters: { type: 'object' } } }],
    };
    const withImage = {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
      ],
    };
    const plain = estimateTokens('chat', base).total;
    const tools = estimateTokens('chat', withTool);
    expect(tools.breakdown.at(-1)).toEqual({ label: 'tools', tokens: o200k(JSON.stringify(withTool.tools)) });
    expect(tools.total).toBeGreaterThan(plain);
    expect(estimateTokens('chat', withImage).total - plain).toBe(IMAGE_TOKENS);
  });

  it('counts a PDF by its pages and a text file by its text, in each protocol’s document shape', () => {
    const pdf = Buffer.from(`%PDF-1.4\n${'1 0 obj <</Type /Page>> endobj\n'.repeat(3)}%%EOF`).toString('base64');
    const notes = 'the quarterly figures rose by four percent';
    const only = (protocol: 'messages' | 'chat' | 'responses', part: unknown) =>
      estimateTokens(
        protocol,
        protocol === 'responses'
          ? { input: [{ role: 'user', content: [part] }] }
          : { messages: [{ role: 'user', content: [part] }] },
      ).total - MESSAGE_OVERHEAD;
    const pdfUrl = `data:application/pdf;base64,${pdf}`;
    expect(
      only('messages', { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } }),
    ).toBe(3 * FILE_TOKENS);
    expect(only('chat', { type: 'file', file: { filename: 'a.pdf', file_data: pdfUrl } })).toBe(3 * FILE_TOKENS);
    expect(only('responses', { type: 'input_file', filename: 'a.pdf', file_data: pdfUrl })).toBe(3 * FILE_TOKENS);
    const textUrl = `data:text/plain;base64,${Buffer.from(notes).toString('base64')}`;
    expect(only('responses', { type: 'input_file', filename: 'n.txt', file_data: textUrl })).toBe(o200k(notes));
    expect(only('chat', { type: 'file', file: { file_id: 'file-1' } })).toBe(FILE_TOKENS);
  });

  it('gives about the same number for the same request in each protocol', () => {
    const chat = {
      messages: [
        { role: 'system', content: 'Answer in one line.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'w', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'c', content: '18°C' },
      ],
      tools: [{ type: 'function', function: { name: 'w', parameters: { type: 'object' } } }],
    };
    const responses = {
      instructions: 'Answer in one line.',
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        { type: 'function_call', call_id: 'c', name: 'w', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'c', output: '18°C' },
      ],
      tools: [{ type: 'function', name: 'w', parameters: { type: 'object' } }],
    };
    const c = estimateTokens('chat', chat).total;
    const r = estimateTokens('responses', responses).total;
    expect(Math.abs(c - r) / c).toBeLessThan(0.2);
    expect(estimateTokens('responses', responses).breakdown.map((b) => b.label)).toEqual([
      'system',
      'turn 1 (user)',
      'turn 2 (tool call)',
      'turn 3 (tool result)',
      'tools',
    ]);
  });

  it('never throws on shapes it does not expect', () => {
    expect(estimateTokens('messages', { messages: 'nope' }).total).toBe(0);
    expect(estimateTokens('responses', { input: [null, 3, { type: 'hologram', x: 'abc' }] }).breakdown).toHaveLength(1);
    expect(
      estimateTokens('chat', {
        messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x' } }] }],
      }).total,
    ).toBeGreaterThan(0);
  });
});

describe('count_tokens body', () => {
  it('keeps what the endpoint takes and nothing else', () => {
    expect(
      countTokensBody({
        model: 'm',
        messages: [],
        max_tokens: 1,
        stream: true,
        extra: 1,
        thinking: { type: 'adaptive' },
      }),
    ).toEqual({
      model: 'm',
      messages: [],
      thinking: { type: 'adaptive' },
    });
  });
});
