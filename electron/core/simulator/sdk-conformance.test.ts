/**
 * The simulator checked by the official SDKs as clients: if they cannot read what it sends, it is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { DEMO_KEY, startSimulator, type RunningSimulator } from './index';

let sim: RunningSimulator;
let anthropic: Anthropic;
let openai: OpenAI;
/** A simulator whose handler throws on every authenticated request, to reach its catch-all. */
const broken = {} as { sim: RunningSimulator; anthropic: Anthropic; openai: OpenAI };

const weatherSchema = {
  type: 'object' as const,
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};

beforeAll(async () => {
  sim = await startSimulator({ port: 0, delayMs: 0 });
  anthropic = new Anthropic({ apiKey: DEMO_KEY, baseURL: sim.url, maxRetries: 0 });
  openai = new OpenAI({ apiKey: DEMO_KEY, baseURL: `${sim.url}/v1`, maxRetries: 0 });
  const throwingKeys = new Proxy({} as Record<string, string[]>, {
    get: () => {
      throw new Error('simulated internal failure');
    },
  });
  broken.sim = await startSimulator({ port: 0, delayMs: 0, keys: throwingKeys });
  broken.anthropic = new Anthropic({ apiKey: DEMO_KEY, baseURL: broken.sim.url, maxRetries: 0 });
  broken.openai = new OpenAI({ apiKey: DEMO_KEY, baseURL: `${broken.sim.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await sim.close();
  await broken.sim.close();
});

describe('@anthropic-ai/sdk reads the simulator', () => {
  // This SDK authenticates with `Authorization: Bearer`; like new-api (docs/protocols.md §5) the simulator pages
  // the first family's shape only for a caller that also sends x-api-key, as the app does.
  let keyed: Anthropic;
  beforeAll(() => {
    keyed = new Anthropic({
      apiKey: DEMO_KEY,
      baseURL: sim.url,
      maxRetries: 0,
      defaultHeaders: { 'x-api-key': DEMO_KEY },
    });
  });
  const modelRequests = () => sim.requests.filter((r) => r.path === '/v1/models');

  it('models.list without x-api-key gets the one-page second-family list, as from new-api', async () => {
    const page = await anthropic.models.list({ limit: 5 });
    expect(page.data.length).toBeGreaterThan(5);
    expect(page.hasNextPage()).toBe(false);
    expect(modelRequests().at(-1)?.headers['x-api-key']).toBeUndefined();
  });
  const allIds = async () => (await openai.models.list()).data.map((m) => m.id);

  it('models.list really pages: one request per page of at most `limit`, chained by first_id/last_id/has_more', async () => {
    const ids = await allIds();
    expect(ids.length).toBeGreaterThan(10);
    const before = modelRequests().length;
    const pages = [];
    for await (const page of (await keyed.models.list({ limit: 5 })).iterPages()) pages.push(page);
    expect(pages).toHaveLength(Math.ceil(ids.length / 5));
    expect(modelRequests().length - before).toBe(pages.length);
    expect(modelRequests().at(-1)?.headers['x-api-key']).toBe(DEMO_KEY);
    pages.forEach((page, i) => {
      expect(page.data.length).toBeLessThanOrEqual(5);
      expect(page.data.every((m) => m.type === 'model')).toBe(true);
      expect(page.first_id).toBe(page.data[0].id);
      expect(page.last_id).toBe(page.data.at(-1)?.id);
      expect(page.has_more).toBe(i < pages.length - 1);
    });
    expect(pages.flatMap((p) => p.data.map((m) => m.id))).toEqual(ids);
    const auto: string[] = [];
    for await (const m of keyed.models.list({ limit: 5 })) auto.push(m.id);
    expect(auto).toEqual(ids);
  });

  it('models.list pages backwards from before_id and stops at the start', async () => {
    const ids = await allIds();
    const page = await keyed.models.list({ limit: 3, before_id: ids[8] });
    expect(page.data.map((m) => m.id)).toEqual(ids.slice(5, 8));
    expect(page).toMatchObject({ has_more: true, first_id: ids[5], last_id: ids[7] });
    const seen = [page.data.map((m) => m.id)];
    let current = page;
    while (current.hasNextPage() && seen.length < 10) {
      current = await current.getNextPage();
      seen.push(current.data.map((m) => m.id));
    }
    expect(seen).toEqual([ids.slice(5, 8), ids.slice(2, 5), ids.slice(0, 2)]);
    expect(current.has_more).toBe(false);
  });

  it('models.list refuses an unknown cursor and a limit outside 1–1000 with a 400 in the first family shape', async () => {
    for (const query of [
      { after_id: 'no-such-model' },
      { before_id: 'no-such-model' },
      { limit: 0 },
      { limit: 1001 },
    ]) {
      const err = await keyed.models.list(query).catch((e: unknown) => e);
      expect(err, JSON.stringify(query)).toBeInstanceOf(Anthropic.BadRequestError);
      expect((err as InstanceType<typeof Anthropic.BadRequestError>).type).toBe('invalid_request_error');
      expect((err as InstanceType<typeof Anthropic.BadRequestError>).requestID).toMatch(/^req_/);
    }
    expect((await keyed.models.list({ limit: 1000 })).data.length).toBe((await allIds()).length);
  });

  it('messages.stream + finalMessage: text, usage, and count_tokens agrees with usage', async () => {
    const params = {
      model: 'claude-sim-sonnet',
      max_tokens: 512,
      system: 'Be brief.',
      messages: [{ role: 'user' as const, content: 'Tell me about streams' }],
    };
    const stream = anthropic.messages.stream(params);
    let deltas = 0;
    stream.on('text', () => deltas++);
    const msg = await stream.finalMessage();
    expect(msg.stop_reason).toBe('end_turn');
    const text = msg.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    expect(text.length).toBeGreaterThan(50);
    expect(deltas).toBeGreaterThan(10);
    const { model, system, messages } = params;
    const counted = await anthropic.messages.countTokens({ model, system, messages });
    const u = msg.usage;
    expect(counted.input_tokens).toBe(
      u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0),
    );
  });

  it('streams a tool_use block whose input the SDK parses and which satisfies the schema', async () => {
    const msg = await anthropic.messages
      .stream({
        model: 'claude-sim-sonnet',
        max_tokens: 512,
        tools: [{ name: 'get_weather', description: 'Weather by city', input_schema: weatherSchema }],
        tool_choice: { type: 'any' },
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      })
      .finalMessage();
    expect(msg.stop_reason).toBe('tool_use');
    const call = msg.content.find((b) => b.type === 'tool_use');
    expect(call).toMatchObject({ name: 'get_weather', input: { city: 'Paris', unit: 'celsius' } });
  });

  it('returns a thinking block with a signature when thinking is enabled', async () => {
    const msg = await anthropic.messages
      .stream({
        model: 'claude-sim-sonnet',
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        messages: [{ role: 'user', content: 'What is 17 × 23?' }],
      })
      .finalMessage();
    const thinking = msg.content.find((b) => b.type === 'thinking');
    expect(thinking?.type === 'thinking' && thinking.signature.length).toBeGreaterThan(10);
    expect(msg.content.at(-1)?.type).toBe('text');
  });

  it('raises the SDK error classes for 401 and 429', async () => {
    const bad = new Anthropic({ apiKey: 'wrong', baseURL: sim.url, maxRetries: 0 });
    await expect(
      bad.messages.create({ model: 'claude-sim-sonnet', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    const err = await anthropic.messages
      .create({ model: 'sim-fault-429', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect((err as InstanceType<typeof Anthropic.RateLimitError>).headers?.get('retry-after')).toBe('30');
  });

  it('surfaces a mid-stream error event as an error', async () => {
    const stream = anthropic.messages.stream({
      model: 'sim-fault-midstream-error',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'hi' }],
    });
    await expect(stream.finalMessage()).rejects.toThrow(/Overloaded|overloaded/);
  });

  it('fills a tool argument from an enum whose values are not regex-safe', async () => {
    const msg = await anthropic.messages.create({
      model: 'claude-sim-sonnet',
      max_tokens: 256,
      tools: [
        {
          name: 'pick_lang',
          input_schema: {
            type: 'object',
            properties: { lang: { type: 'string', enum: ['rust', 'c++', '(x'] } },
            required: ['lang'],
          },
        },
      ],
      tool_choice: { type: 'any' },
      messages: [{ role: 'user', content: 'Pick c++ please.' }],
    });
    expect(msg.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: 'pick_lang', input: { lang: 'c++' } });
  });

  it('answers a crash with a 500 in the first family shape and a request-id', async () => {
    const err = await broken.anthropic.messages
      .create({ model: 'claude-sim-sonnet', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.InternalServerError);
    const e = err as InstanceType<typeof Anthropic.InternalServerError>;
    expect(e.type).toBe('api_error');
    expect(e.error).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(e.requestID).toMatch(/^req_sim/);
  });

  describe('thinking and tool use: what the API rejects with 400', () => {
    const tools = [{ name: 'get_weather', description: 'Weather by city', input_schema: weatherSchema }];
    const thinking = { type: 'enabled' as const, budget_tokens: 2048 };
    const badRequest = async (params: Anthropic.MessageCreateParamsNonStreaming, pattern: RegExp) => {
      const err = await anthropic.messages.create(params).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.BadRequestError);
      expect((err as InstanceType<typeof Anthropic.BadRequestError>).type).toBe('invalid_request_error');
      expect(String((err as Error).message)).toMatch(pattern);
    };

    it('thinking with a forced tool choice', async () => {
      for (const tool_choice of [{ type: 'any' as const }, { type: 'tool' as const, name: 'get_weather' }]) {
        await badRequest(
          {
            model: 'claude-sim-sonnet',
            max_tokens: 4096,
            thinking,
            tools,
            tool_choice,
            messages: [{ role: 'user', content: 'Weather in Paris?' }],
          },
          /tool_choice forces tool use/,
        );
      }
    });

    it('a thinking tool loop whose assistant turn drops its thinking block; echoed unchanged it goes through', async () => {
      const ask = { role: 'user' as const, content: 'Use get_weather for Paris.' };
      const first = await anthropic.messages.create({
        model: 'claude-sim-sonnet',
        max_tokens: 4096,
        thinking,
        tools,
        messages: [ask],
      });
      expect(first.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
      const call = first.content.find((b) => b.type === 'tool_use');
      const result = {
        role: 'user' as const,
        content: [
          {
            type: 'tool_result' as const,
            tool_use_id: call?.type === 'tool_use' ? call.id : '',
            content: '18°C, nonce K7Q2',
          },
        ],
      };
      const stripped = first.content.filter((b) => b.type !== 'thinking');
      await badRequest(
        {
          model: 'claude-sim-sonnet',
          max_tokens: 4096,
          thinking,
          tools,
          messages: [ask, { role: 'assistant', content: stripped }, result],
        },
        /must start with a thinking block/,
      );
      const ok = await anthropic.messages.create({
        model: 'claude-sim-sonnet',
        max_tokens: 4096,
        thinking,
        tools,
        messages: [ask, { role: 'assistant', content: first.content }, result],
      });
      expect(ok.content.map((b) => (b.type === 'text' ? b.text : '')).join('')).toContain('K7Q2');
    });

    it('a tool_result answering no tool_use of the previous assistant turn', async () => {
      const messages: Anthropic.MessageParam[] = [
        { role: 'user', content: 'Use get_weather for Paris.' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_real', name: 'get_weather', input: { city: 'Paris', unit: 'celsius' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_other', content: '18°C' }] },
      ];
      await badRequest(
        { model: 'claude-sim-sonnet', max_tokens: 256, tools, messages },
        /unexpected `tool_use_id`.*toolu_other/,
      );
      await badRequest(
        { model: 'claude-sim-sonnet', max_tokens: 256, tools, messages: [messages[0], messages[2]] },
        /toolu_other/,
      );
    });
  });
});

describe('openai SDK reads the simulator', () => {
  it('models.list returns the second family shape', async () => {
    const page = await openai.models.list();
    const ids = page.data.map((m) => m.id);
    expect(ids).toContain('gpt-sim-4o');
    expect(page.data.find((m) => m.id === 'claude-sim-sonnet')?.owned_by).toBe('anthropic');
  });

  it('chat.completions stream with tool calls accumulates arguments that parse and satisfy the schema', async () => {
    const stream = openai.chat.completions.stream({
      model: 'gpt-sim-4o',
      messages: [{ role: 'user', content: 'What is the weather in Paris? Use get_weather.' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherSchema } }],
      tool_choice: 'required',
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    const call = final.choices[0].message.tool_calls?.[0];
    expect(call?.type === 'function' && call.function.name).toBe('get_weather');
    const args = JSON.parse(call?.type === 'function' ? call.function.arguments : '{}');
    expect(args).toEqual({ city: 'Paris', unit: 'celsius' });
    expect(final.choices[0].finish_reason).toBe('tool_calls');
    expect(final.usage?.prompt_tokens).toBeGreaterThan(0);
  });

  it('chat stream with include_usage ends with a usage chunk', async () => {
    const stream = await openai.chat.completions.create({
      model: 'gpt-sim-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hello' }],
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text.length).toBeGreaterThan(50);
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('responses stream with a function call ends in response.completed carrying it', async () => {
    const stream = await openai.responses.create({
      model: 'gpt-sim-4o',
      input: 'Use get_weather for Paris',
      tools: [{ type: 'function', name: 'get_weather', parameters: weatherSchema, strict: true }],
      tool_choice: 'required',
      stream: true,
    });
    let completed: OpenAI.Responses.Response | undefined;
    let lastSeq = -1;
    for await (const ev of stream) {
      expect(ev.sequence_number).toBeGreaterThan(lastSeq);
      lastSeq = ev.sequence_number;
      if (ev.type === 'response.completed') completed = ev.response;
    }
    const call = completed?.output.find((o) => o.type === 'function_call');
    expect(call?.type === 'function_call' && JSON.parse(call.arguments)).toEqual({ city: 'Paris', unit: 'celsius' });
  });

  it('responses non-stream gives output_text', async () => {
    const r = await openai.responses.create({ model: 'gpt-sim-4o', input: 'Say something' });
    expect(r.status).toBe('completed');
    expect(r.output_text.length).toBeGreaterThan(50);
  });

  it('answers a crash with a 500 in the second family shape and an x-request-id', async () => {
    const err = await broken.openai.chat.completions
      .create({ model: 'gpt-sim-4o', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.InternalServerError);
    const e = err as InstanceType<typeof OpenAI.InternalServerError>;
    expect(e.type).toBe('server_error');
    expect(e.requestID).toMatch(/^req-sim-/);
  });

  it('a Responses stream failing mid-way keeps sequence numbers consecutive and ends in a whole failed Response', async () => {
    const stream = await openai.responses.create({
      model: 'sim-fault-midstream-error',
      input: 'Tell me about streams',
      stream: true,
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const ev of stream) events.push(ev);
    expect(events.length).toBeGreaterThan(5);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const last = events.at(-1);
    expect(last?.type).toBe('response.failed');
    const failed = last?.type === 'response.failed' ? last.response : undefined;
    expect(failed).toMatchObject({
      object: 'response',
      status: 'failed',
      model: 'sim-fault-midstream-error',
      output: [],
      usage: null,
      error: { code: 'server_error' },
    });
    expect(failed?.id).toBe(events[0].type === 'response.created' ? events[0].response.id : 'missing');
    expect(failed?.created_at).toEqual(expect.any(Number));
    for (const field of [
      'incomplete_details',
      'instructions',
      'tools',
      'tool_choice',
      'parallel_tool_calls',
      'metadata',
      'temperature',
      'top_p',
    ])
      expect(failed).toHaveProperty(field);
  });

  it('raises AuthenticationError and RateLimitError', async () => {
    const bad = new OpenAI({ apiKey: 'wrong', baseURL: `${sim.url}/v1`, maxRetries: 0 });
    await expect(
      bad.chat.completions.create({ model: 'gpt-sim-4o', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(
      openai.chat.completions.create({ model: 'sim-fault-429', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(OpenAI.RateLimitError);
  });
});
