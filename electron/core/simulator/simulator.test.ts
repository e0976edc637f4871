/**
 * What the SDKs hide: exact event order, cache accounting, vision, structured output, per-key lists, the two
 * /v1/models shapes, route restrictions and fault bodies — checked over raw HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import Ajv from 'ajv';
import { DEMO_KEY, startSimulator, type RunningSimulator } from './index';
import { valueFor } from './conversation';
import { readText } from './images';
import { textPng } from '../probes/pixel-font';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    delayMs: 0,
    keys: {
      [DEMO_KEY]: [
        'claude-sim-sonnet',
        'gpt-sim-4o',
        'sim-chat-only',
        'sim-no-cache',
        'sim-fault-cut',
        'sim-fault-html-502',
        'sim-fault-done-noise',
        'sim-fault-buffered',
        'sim-firehose',
      ],
      small: ['gpt-sim-4o'],
    },
  });
});
afterAll(() => sim.close());

const H = {
  'content-type': 'application/json',
  'x-api-key': DEMO_KEY,
  authorization: `Bearer ${DEMO_KEY}`,
  'anthropic-version': '2023-06-01',
};
const post = (path: string, body: unknown, headers: Record<string, string> = H) =>
  fetch(sim.url + path, { method: 'POST', headers, body: JSON.stringify(body) });

async function events(res: Response): Promise<{ event?: string; data: string }[]> {
  let text = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
      text += decoder.decode(chunk, { stream: true });
  } catch {
    // A cut stream ends in a socket error: keep what arrived.
  }
  return text
    .split('\n\n')
    .filter((b) => b.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      return { event, data };
    });
}

function png(r: number, g: number, b: number): string {
  const img = new PNG({ width: 8, height: 8 });
  for (let i = 0; i < 64; i++) img.data.set([r, g, b, 255], i * 4);
  return PNG.sync.write(img).toString('base64');
}

describe('stream framing', () => {
  it('messages: named events in the documented order, no [DONE]', async () => {
    const ev = await events(
      await post('/v1/messages', {
        model: 'claude-sim-sonnet',
        max_tokens: 200,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    const types = ev.map((e) => e.event);
    expect(types[0]).toBe('message_start');
    expect(types.at(-2)).toBe('message_delta');
    expect(types.at(-1)).toBe('message_stop');
    expect(types).toContain('ping');
    expect(ev.every((e) => e.event === JSON.parse(e.data).type)).toBe(true);
    expect(ev.some((e) => e.data === '[DONE]')).toBe(false);
  });

  it('chat: data-only chunks, role first, finish_reason, usage chunk, then [DONE]', async () => {
    const ev = await events(
      await post('/v1/chat/completions', {
        model: 'gpt-sim-4o',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(ev.every((e) => e.event === undefined)).toBe(true);
    expect(JSON.parse(ev[0].data).choices[0].delta.role).toBe('assistant');
    expect(ev.at(-1)!.data).toBe('[DONE]');
    const usageChunk = JSON.parse(ev.at(-2)!.data);
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage.total_tokens).toBeGreaterThan(0);
    expect(JSON.parse(ev.at(-3)!.data).choices[0].finish_reason).toBe('stop');
  });

  it('responses: strictly increasing sequence_number from 0, ending in response.completed', async () => {
    const ev = await events(await post('/v1/responses', { model: 'gpt-sim-4o', stream: true, input: 'hi' }));
    const seqs = ev.map((e) => JSON.parse(e.data).sequence_number);
    expect(seqs).toEqual([...seqs.keys()]);
    expect(ev[0].event).toBe('response.created');
    expect(ev.at(-1)!.event).toBe('response.completed');
  });

  it('a cut stream ends without its terminal event; [DONE] noise follows a complete one', async () => {
    const cut = await events(
      await post('/v1/messages', {
        model: 'sim-fault-cut',
        max_tokens: 200,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(cut.some((e) => e.event === 'content_block_delta')).toBe(true);
    expect(cut.some((e) => e.event === 'message_stop')).toBe(false);
    const noisy = await events(
      await post('/v1/responses', { model: 'sim-fault-done-noise', stream: true, input: 'hi' }),
    );
    expect(noisy.at(-2)!.event).toBe('response.completed');
    expect(noisy.at(-1)!.data).toBe('[DONE]');
  });

  it('an HTML 502 arrives as text/html', async () => {
    const res = await post('/v1/chat/completions', {
      model: 'sim-fault-html-502',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
  });
});

describe('capabilities as evidence', () => {
  const prefix = 'K7Q2 ' + 'The quick brown fox jumps over the lazy dog. '.repeat(200);

  it('messages: cache_control writes then reads the prefix', async () => {
    const body = {
      model: 'claude-sim-sonnet',
      max_tokens: 20,
      system: [{ type: 'text', text: prefix, cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'hi' }],
    };
    const a = await (await post('/v1/messages', body)).json();
    const b = await (await post('/v1/messages', body)).json();
    expect(a.usage.cache_creation_input_tokens).toBeGreaterThan(1024);
    expect(b.usage.cache_read_input_tokens).toBe(a.usage.cache_creation_input_tokens);
    const counted = await (
      await post('/v1/messages/count_tokens', { model: body.model, system: body.system, messages: body.messages })
    ).json();
    expect(counted.input_tokens).toBe(
      b.usage.input_tokens + b.usage.cache_read_input_tokens + b.usage.cache_creation_input_tokens,
    );
  });

  it('chat and responses cache long prefixes automatically; sim-no-cache reports nothing', async () => {
    const chat = {
      model: 'gpt-sim-4o',
      messages: [
        { role: 'system', content: prefix + 'chat' },
        { role: 'user', content: 'hi' },
      ],
    };
    await post('/v1/chat/completions', chat);
    expect(
      (await (await post('/v1/chat/completions', chat)).json()).usage.prompt_tokens_details.cached_tokens,
    ).toBeGreaterThan(1024);
    const resp = {
      model: 'gpt-sim-4o',
      instructions: prefix + 'responses',
      input: [
        { role: 'user', content: 'one' },
        { role: 'user', content: 'two' },
      ],
    };
    await post('/v1/responses', resp);
    expect((await (await post('/v1/responses', resp)).json()).usage.input_tokens_details.cached_tokens).toBeGreaterThan(
      1024,
    );
    const none = { ...chat, model: 'sim-no-cache' };
    await post('/v1/chat/completions', none);
    expect((await (await post('/v1/chat/completions', none)).json()).usage.prompt_tokens_details).toBeUndefined();
  });

  it('vision: names the colour of a PNG in each protocol', async () => {
    const data = png(30, 60, 220);
    const m = await (
      await post('/v1/messages', {
        model: 'claude-sim-sonnet',
        max_tokens: 50,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
              { type: 'text', text: 'Which colour?' },
            ],
          },
        ],
      })
    ).json();
    expect(m.content[0].text).toMatch(/blue/);
    const c = await (
      await post('/v1/chat/completions', {
        model: 'gpt-sim-4o',
        messages: [
          {
            role: 'user',
            content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${png(220, 30, 30)}` } }],
          },
        ],
      })
    ).json();
    expect(c.choices[0].message.content).toMatch(/red/);
    const r = await (
      await post('/v1/responses', {
        model: 'gpt-sim-4o',
        input: [
          { role: 'user', content: [{ type: 'input_image', image_url: `data:image/png;base64,${png(40, 180, 60)}` }] },
        ],
      })
    ).json();
    expect(r.output[0].content[0].text).toMatch(/green/);
  });

  it("vision: reads back text written in the probe's pixel font, in each protocol", async () => {
    const data = textPng('K7PX2M').png.toString('base64');
    const prompt = 'Reply with only the text in the image.';
    const m = await (
      await post('/v1/messages', {
        model: 'claude-sim-sonnet',
        max_tokens: 50,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
              { type: 'text', text: prompt },
            ],
          },
        ],
      })
    ).json();
    expect(m.content[0].text).toBe('K7PX2M');
    const c = await (
      await post('/v1/chat/completions', {
        model: 'gpt-sim-4o',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } },
              { type: 'text', text: prompt },
            ],
          },
        ],
      })
    ).json();
    expect(c.choices[0].message.content).toBe('K7PX2M');
    const r = await (
      await post('/v1/responses', {
        model: 'gpt-sim-4o',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_image', image_url: `data:image/png;base64,${data}` },
              { type: 'input_text', text: prompt },
            ],
          },
        ],
      })
    ).json();
    expect(r.output[0].content[0].text).toBe('K7PX2M');
  });

  it('vision: finds no text in solid colours, a black page, or a broken image', () => {
    const solid = (rgb: number[]) => Buffer.from(png(rgb[0], rgb[1], rgb[2]), 'base64');
    for (const rgb of [
      [30, 60, 220],
      [220, 30, 30],
      [250, 250, 250],
      [10, 10, 10],
    ])
      expect(readText(solid(rgb))).toBeUndefined();
    expect(readText(Buffer.from('not a png'))).toBeUndefined();
    for (const scale of [1, 3, 6, 9])
      expect(readText(textPng('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', scale, 4).png)).toBe(
        'ABCDEFGHJKLMNPQRSTUVWXYZ23456789',
      );
  });

  it('structured output: the reply is only JSON that validates and carries the nonce', async () => {
    const schema = {
      type: 'object',
      properties: { answer: { type: 'string', enum: ['alpha', 'beta'] }, nonce: { type: 'string' } },
      required: ['answer', 'nonce'],
      additionalProperties: false,
    };
    const r = await (
      await post('/v1/chat/completions', {
        model: 'gpt-sim-4o',
        messages: [{ role: 'user', content: 'Answer beta. The nonce is ZX81.' }],
        response_format: { type: 'json_schema', json_schema: { name: 'probe', schema, strict: true } },
      })
    ).json();
    const parsed = JSON.parse(r.choices[0].message.content);
    expect(new Ajv().validate(schema, parsed)).toBe(true);
    expect(parsed).toEqual({ answer: 'beta', nonce: 'ZX81' });
  });
});

describe('routing, keys and errors', () => {
  it('gives each key its own model list, in both shapes', async () => {
    const openaiShape = await (
      await fetch(`${sim.url}/v1/models`, { headers: { authorization: 'Bearer small' } })
    ).json();
    expect(openaiShape).toMatchObject({
      object: 'list',
      data: [{ id: 'gpt-sim-4o', object: 'model', owned_by: 'openai' }],
    });
    const anthropicShape = await (
      await fetch(`${sim.url}/v1/models?limit=2`, {
        headers: { 'x-api-key': DEMO_KEY, 'anthropic-version': '2023-06-01' },
      })
    ).json();
    expect(anthropicShape.data).toHaveLength(2);
    expect(anthropicShape).toMatchObject({ has_more: true, first_id: 'claude-sim-sonnet' });
  });

  it('answers 404 in the route family shape for a model not served there, and 401 without a key', async () => {
    const res = await post('/v1/responses', { model: 'sim-chat-only', input: 'hi' });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('model_not_found');
    const m = await post('/v1/messages', { model: 'sim-chat-only', max_tokens: 10, messages: [] });
    expect((await m.json()).error.type).toBe('not_found_error');
    const anon = await post('/v1/messages', {}, { 'content-type': 'application/json' });
    expect(anon.status).toBe(401);
    expect(await anon.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it('rejects what upstream rejects: missing max_tokens, max_output_tokens < 16, generation fields on count_tokens', async () => {
    expect(
      (await (await post('/v1/messages', { model: 'claude-sim-sonnet', messages: [] })).json()).error.message,
    ).toBe('max_tokens: Field required');
    expect(
      (await (await post('/v1/responses', { model: 'gpt-sim-4o', input: 'x', max_output_tokens: 10 })).json()).error
        .code,
    ).toBe('integer_below_min_value');
    expect(
      (await post('/v1/messages/count_tokens', { model: 'claude-sim-sonnet', max_tokens: 5, messages: [] })).status,
    ).toBe(400);
  });

  it('remembers stored responses for previous_response_id and accepts background requests it cannot return', async () => {
    const first = await (await post('/v1/responses', { model: 'gpt-sim-4o', input: 'Remember ALPHA' })).json();
    const next = await post('/v1/responses', {
      model: 'gpt-sim-4o',
      previous_response_id: first.id,
      input: 'And now?',
    });
    expect(next.status).toBe(200);
    expect(
      (await post('/v1/responses', { model: 'gpt-sim-4o', previous_response_id: 'resp_nope', input: 'x' })).status,
    ).toBe(400);
    const bg = await (
      await post('/v1/responses', { model: 'gpt-sim-4o', background: true, input: 'long task' })
    ).json();
    expect(bg.status).toBe('queued');
    expect((await fetch(`${sim.url}/v1/responses/${bg.id}`, { headers: H })).status).toBe(404);
  });
});

describe('tool arguments from the prompt', () => {
  it('matches enum values as literal words, never as patterns', () => {
    expect(valueFor({ enum: ['a.b', 'axb'] }, 'Use axb.')).toBe('axb');
    expect(valueFor({ enum: ['rust', 'c++', '(x', '[y'] }, 'I write C++ daily')).toBe('c++');
    expect(valueFor({ enum: ['rust', 'go'] }, 'Use gopher')).toBe('rust');
  });
});

describe('a relay that buffers', () => {
  it('sends headers at once, then nothing for over a second, then the whole stream in one burst', async () => {
    const t0 = performance.now();
    const res = await post('/v1/chat/completions', {
      model: 'sim-fault-buffered',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const headersAt = performance.now() - t0;
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const arrivals: number[] = [];
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      arrivals.push(performance.now() - t0);
      text += decoder.decode(chunk, { stream: true });
    }
    expect(headersAt).toBeLessThan(500);
    expect(arrivals[0]).toBeGreaterThan(1_100);
    expect(arrivals.at(-1)! - arrivals[0]).toBeLessThan(200);
    expect(text.trim().endsWith('data: [DONE]')).toBe(true);
    expect(text.split('\n\n').filter((b) => b.includes('"content"')).length).toBeGreaterThan(10);
  });
});

describe('a firehose', () => {
  it('leaves as it is generated: its first bytes reach the client long before its last', async () => {
    const t0 = performance.now();
    const res = await post('/v1/messages', {
      model: 'sim-firehose',
      max_tokens: 20_000,
      stream: true,
      messages: [{ role: 'user', content: 'go' }],
    });
    let first = 0;
    let deltas = 0;
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      first ||= performance.now() - t0;
      deltas += decoder.decode(chunk, { stream: true }).split('"text_delta"').length - 1;
    }
    const total = performance.now() - t0;
    expect(deltas).toBeGreaterThan(19_000);
    // Written in one synchronous loop, the body would sit corked in the socket until all 20k events were made.
    expect(first / total).toBeLessThan(0.7);
  });
});
