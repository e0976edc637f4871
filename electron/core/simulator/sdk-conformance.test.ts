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
});
afterAll(() => sim.close());

describe('@anthropic-ai/sdk reads the simulator', () => {
  it('models.list auto-paginates the first family shape', async () => {
    const ids: string[] = [];
    for await (const m of anthropic.models.list({ limit: 5 })) ids.push(m.id);
    expect(ids.length).toBeGreaterThan(5);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('claude-sim-sonnet');
  });

  it('messages.stream + finalMessage: text, usage, and count_tokens agrees with usage', async () => {
    const params = { model: 'claude-sim-sonnet', max_tokens: 512, system: 'Be brief.', messages: [{ role: 'user' as const, content: 'Tell me about streams' }] };
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
    expect(counted.input_tokens).toBe(u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0));
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
      .stream({ model: 'claude-sim-sonnet', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: [{ role: 'user', content: 'What is 17 × 23?' }] })
      .finalMessage();
    const thinking = msg.content.find((b) => b.type === 'thinking');
    expect(thinking?.type === 'thinking' && thinking.signature.length).toBeGreaterThan(10);
    expect(msg.content.at(-1)?.type).toBe('text');
  });

  it('raises the SDK error classes for 401 and 429', async () => {
    const bad = new Anthropic({ apiKey: 'wrong', baseURL: sim.url, maxRetries: 0 });
    await expect(bad.messages.create({ model: 'claude-sim-sonnet', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    const err = await anthropic.messages.create({ model: 'sim-fault-429', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect((err as InstanceType<typeof Anthropic.RateLimitError>).headers?.get('retry-after')).toBe('30');
  });

  it('surfaces a mid-stream error event as an error', async () => {
    const stream = anthropic.messages.stream({ model: 'sim-fault-midstream-error', max_tokens: 256, messages: [{ role: 'user', content: 'hi' }] });
    await expect(stream.finalMessage()).rejects.toThrow(/Overloaded|overloaded/);
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
    const stream = await openai.chat.completions.create({ model: 'gpt-sim-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hello' }] });
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

  it('raises AuthenticationError and RateLimitError', async () => {
    const bad = new OpenAI({ apiKey: 'wrong', baseURL: `${sim.url}/v1`, maxRetries: 0 });
    await expect(bad.chat.completions.create({ model: 'gpt-sim-4o', messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(openai.chat.completions.create({ model: 'sim-fault-429', messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(OpenAI.RateLimitError);
  });
});
