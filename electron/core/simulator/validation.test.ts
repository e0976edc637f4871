/**
 * The Demo gateway refuses what upstreams refuse, with their 400 in each route's envelope and words: an output
 * cap under 1, a temperature out of the family's range, a prompt over the model's context window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, startSimulator, type RunningSimulator } from './index';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, delayMs: 0 });
});
afterAll(() => sim.close());

const H = { 'content-type': 'application/json', 'x-api-key': DEMO_KEY, authorization: `Bearer ${DEMO_KEY}` };
async function post(path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(sim.url + path, { method: 'POST', headers: H, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}
const user = (text = 'Hi') => [{ role: 'user', content: text }];
const messages = (extra: Record<string, unknown>) =>
  post('/v1/messages', { model: 'claude-sim-haiku', max_tokens: 64, messages: user(), ...extra });
const chat = (extra: Record<string, unknown>) =>
  post('/v1/chat/completions', { model: 'gpt-sim-4o', messages: user(), ...extra });
const responses = (extra: Record<string, unknown>) =>
  post('/v1/responses', { model: 'gpt-sim-4o', input: 'Hi', ...extra });
/** A prompt the simulator counts as 262,147 tokens: 262,144 of text and 3 for its turn. */
const huge = 'word'.repeat(262_144);

describe('Messages refuses what the Messages API refuses, in its error envelope', () => {
  it('max_tokens 0, −5 or 1.5', async () => {
    for (const [max_tokens, words] of [
      [0, 'greater than or equal to 1'],
      [-5, 'greater than or equal to 1'],
      [1.5, 'a valid integer'],
    ] as const) {
      const r = await messages({ max_tokens });
      expect(r.status, String(max_tokens)).toBe(400);
      expect(r.json).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error', message: `max_tokens: Input should be ${words}` },
      });
    }
  });

  it('temperature over 1 or under 0, and top_p over 1; 0 and 1 are fine', async () => {
    expect((await messages({ temperature: 99 })).json).toMatchObject({
      error: { type: 'invalid_request_error', message: 'temperature: Input should be less than or equal to 1' },
    });
    expect((await messages({ temperature: 1.5 })).status).toBe(400);
    expect((await messages({ temperature: -0.1 })).status).toBe(400);
    expect((await messages({ top_p: 2 })).status).toBe(400);
    expect((await messages({ temperature: 0 })).status).toBe(200);
    expect((await messages({ temperature: 1, max_tokens: 1 })).status).toBe(200);
  });

  it('a prompt over the context window: "prompt is too long: N tokens > M maximum"', async () => {
    const r = await messages({ messages: user(huge) });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'prompt is too long: 262147 tokens > 200000 maximum' },
    });
  });
});

describe('the OpenAI routes refuse in their own envelope and words', () => {
  it('Chat: max_tokens or max_completion_tokens under 1, temperature over 2; 2 is fine', async () => {
    expect(await chat({ max_tokens: 0 })).toEqual({
      status: 400,
      json: {
        error: {
          message: "Invalid 'max_tokens': integer below minimum value. Expected a value >= 1, but got 0 instead.",
          type: 'invalid_request_error',
          param: 'max_tokens',
          code: 'integer_below_min_value',
        },
      },
    });
    expect((await chat({ max_completion_tokens: -5 })).json).toMatchObject({
      error: { param: 'max_completion_tokens', code: 'integer_below_min_value' },
    });
    expect(await chat({ temperature: 99 })).toEqual({
      status: 400,
      json: {
        error: {
          message: "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 99 instead.",
          type: 'invalid_request_error',
          param: 'temperature',
          code: 'decimal_above_max_value',
        },
      },
    });
    expect((await chat({ temperature: 1.5 })).status).toBe(200);
    expect((await chat({ temperature: 2 })).status).toBe(200);
  });

  it('Chat and Responses: a prompt over the context window is context_length_exceeded', async () => {
    const c = await chat({ messages: user(huge) });
    expect(c.status).toBe(400);
    expect(c.json).toMatchObject({
      error: {
        message: expect.stringContaining('maximum context length is 128000 tokens') as unknown,
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
      },
    });
    const r = await responses({ input: huge });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ error: { code: 'context_length_exceeded', param: 'input' } });
  });

  it('Responses: temperature under 0', async () => {
    expect((await responses({ temperature: -1 })).json).toMatchObject({
      error: { param: 'temperature', code: 'decimal_below_min_value' },
    });
  });
});
