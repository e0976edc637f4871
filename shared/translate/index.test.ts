import { describe, expect, it } from 'vitest';
import { translateRequest } from './index';
import { ok, lossAt, valueAt, type Json } from './test-kit';
import { TRANSLATE_CORPUS } from './corpus';
import { PROTOCOL_IDS, type ProtocolId } from '../protocols/types';

describe('fields nobody knows', () => {
  it('are named "not-translated" at every depth and never carried over', () => {
    const r = ok(
      translateRequest('chat', 'messages', {
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', lang: 'en' }], mood: 'happy' }],
        max_completion_tokens: 20,
        frobnicate: { level: 3 },
      }),
    );
    expect(
      r.losses
        .filter((l) => l.kind === 'not-translated')
        .map((l) => l.path)
        .sort(),
    ).toEqual(['frobnicate', 'messages[0].content[0].lang', 'messages[0].mood']);
    expect(JSON.stringify(r.body)).not.toMatch(/frobnicate|lang|mood/);
  });

  it('names unknown block and item types instead of guessing', () => {
    const r = ok(
      translateRequest('messages', 'responses', {
        max_tokens: 20,
        messages: [{ role: 'user', content: [{ type: 'hologram', data: 1 }] }],
      }),
    );
    expect(lossAt(r.losses, 'messages[0].content[0]')).toMatchObject({
      kind: 'not-translated',
      reason: expect.stringContaining('hologram'),
    });
  });
});

describe('invalid requests are refused with the reason', () => {
  const cases: [ProtocolId, ProtocolId, unknown, RegExp][] = [
    ['messages', 'chat', 'hello', /not a JSON object/],
    ['messages', 'chat', [], /not a JSON object/],
    ['messages', 'chat', { max_tokens: 5 }, /messages is missing/],
    ['chat', 'messages', { messages: {} }, /messages must be a list/],
    ['chat', 'responses', { messages: ['hi'] }, /messages\[0\] must be an object/],
    ['chat', 'messages', { messages: [{ role: 'wizard', content: 'x' }] }, /messages\[0\]\.role must be one of/],
    ['messages', 'chat', { messages: [{ role: 'system', content: 'x' }] }, /top-level system field/],
    [
      'messages',
      'responses',
      { messages: [{ role: 'user', content: 42 }] },
      /messages\[0\]\.content must be a string or a list/,
    ],
    [
      'messages',
      'chat',
      { messages: [{ role: 'user', content: [{ text: 'no type' }] }] },
      /messages\[0\]\.content\[0\] has no type/,
    ],
    ['responses', 'chat', { model: 'm' }, /input is missing/],
    ['responses', 'messages', { input: 7 }, /input must be a list/],
    ['responses', 'chat', { input: [{ content: 'no role or type' }] }, /input\[0\] has no type/],
    ['chat', 'messages', { messages: [], temperature: 'hot' }, /temperature must be a number/],
    [
      'chat',
      'messages',
      { messages: [], tools: [{ type: 'function', function: { description: 'no name' } }] },
      /tools\[0\]\.function\.name must be a string/,
    ],
    [
      'messages',
      'chat',
      { messages: [{ role: 'assistant', content: [{ type: 'tool_use', name: 'x', input: {} }] }] },
      /content\[0\]\.id must be a string/,
    ],
    ['chat', 'messages', { messages: [], model: 3 }, /model must be a string/],
    ['messages', 'chat', { messages: [], thinking: { type: 'enabled' } }, /budget_tokens is missing/],
  ];
  for (const [from, to, body, reason] of cases) {
    it(`${from} → ${to}: ${JSON.stringify(body)}`, () => {
      const r = translateRequest(from, to, body as Json);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(reason);
    });
  }
});

describe('what the translation adds is told apart from what it loses', () => {
  it('a streamed Messages request → Chat: include_usage is added, not lost, and is in the body sent', () => {
    const r = ok(
      translateRequest('messages', 'chat', {
        model: 'm',
        max_tokens: 50,
        stream: true,
        top_k: 5,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(r.losses).toEqual([
      { path: 'top_k', kind: 'lost', reason: expect.stringContaining('top_k') },
      { path: 'stream', kind: 'added', reason: expect.stringContaining('usage'), to: 'stream_options.include_usage' },
    ]);
    expect(r.body.stream_options).toEqual({ include_usage: true });
  });

  it('a Chat request without max_tokens or a tool schema → Messages: both are added, at their paths there', () => {
    const tools = [{ type: 'function', function: { name: 'f' } }];
    const r = ok(
      translateRequest('chat', 'messages', { model: 'm', messages: [{ role: 'user', content: 'hi' }], tools }),
    );
    expect(r.losses.filter((l) => l.kind === 'added').map((l) => l.to)).toEqual([
      'max_tokens',
      'tools[0].input_schema',
    ]);
    expect(r.losses.filter((l) => l.kind !== 'added')).toEqual([]);
  });

  it('over the whole corpus, every added entry names a field the translated body holds', () => {
    let added = 0;
    for (const entry of TRANSLATE_CORPUS) {
      for (const to of PROTOCOL_IDS.filter((p) => p !== entry.protocol)) {
        const r = ok(translateRequest(entry.protocol, to, entry.body));
        for (const loss of r.losses.filter((l) => l.kind === 'added')) {
          added++;
          expect(valueAt(r.body, loss.to!), `${entry.name} → ${to}: ${loss.to}`).not.toBeUndefined();
        }
      }
    }
    expect(added).toBeGreaterThan(5);
  });
});

describe('edge behaviour', () => {
  it('returns an independent copy, with no losses, when source and target are the same', () => {
    const body = { messages: [{ role: 'user', content: 'x' }], top_k: 3 };
    const r = ok(translateRequest('messages', 'messages', body));
    expect(r).toEqual({ ok: true, body, losses: [] });
    expect(r.body).not.toBe(body);
  });

  it('never mutates the request it was given', () => {
    for (const entry of TRANSLATE_CORPUS) {
      const before = JSON.stringify(entry.body);
      for (const to of PROTOCOL_IDS) translateRequest(entry.protocol, to, entry.body);
      expect(JSON.stringify(entry.body)).toBe(before);
    }
  });

  it('notes a final assistant turn, which is a prefill only in Messages', () => {
    const r = ok(
      translateRequest('messages', 'chat', {
        max_tokens: 50,
        messages: [
          { role: 'user', content: 'Q' },
          { role: 'assistant', content: 'The answer is' },
        ],
      }),
    );
    expect(lossAt(r.losses, 'messages[1]')!.reason).toMatch(/prefill/);
    const toMessages = ok(
      translateRequest('responses', 'messages', {
        input: [
          { role: 'user', content: 'Q' },
          { role: 'assistant', content: 'A:' },
        ],
      }),
    );
    expect(lossAt(toMessages.losses, 'input[1]')!.reason).toMatch(/becomes a prefill/);
    const between = ok(
      translateRequest('chat', 'responses', {
        messages: [
          { role: 'user', content: 'Q' },
          { role: 'assistant', content: 'A:' },
        ],
      }),
    );
    expect(between.losses).toEqual([]);
  });

  it('writes Chat legacy max_tokens under the target name, and notes it will not come back', () => {
    const r = ok(translateRequest('chat', 'responses', { messages: [], max_tokens: 100 }));
    expect(r.body.max_output_tokens).toBe(100);
    expect(lossAt(r.losses, 'max_tokens')).toMatchObject({ kind: 'changed', to: 'max_output_tokens' });
  });

  it('keeps Chat system messages where they are when going to Responses', () => {
    const r = ok(
      translateRequest('chat', 'responses', {
        messages: [
          { role: 'user', content: 'a' },
          { role: 'system', content: 'b' },
        ],
      }),
    );
    expect(r.body).not.toHaveProperty('instructions');
    expect((r.body.input as Json[])[1]).toEqual({ type: 'message', role: 'system', content: 'b' });
    expect(r.losses).toEqual([]);
  });

  it('maps the end-user id between metadata.user_id and user', () => {
    expect(
      ok(translateRequest('messages', 'responses', { max_tokens: 20, messages: [], metadata: { user_id: 'u' } })).body
        .user,
    ).toBe('u');
    const viaSafety = ok(translateRequest('responses', 'messages', { input: [], safety_identifier: 's' }));
    expect(viaSafety.body.metadata).toEqual({ user_id: 's' });
    expect(lossAt(viaSafety.losses, 'safety_identifier')).toMatchObject({ kind: 'changed', to: 'metadata.user_id' });
  });

  it('drops parallel_tool_calls when there are no tools to put a tool_choice on', () => {
    const r = ok(
      translateRequest('chat', 'messages', { messages: [], max_completion_tokens: 5, parallel_tool_calls: true }),
    );
    expect(r.body).not.toHaveProperty('tool_choice');
    expect(lossAt(r.losses, 'parallel_tool_calls')).toMatchObject({ kind: 'lost' });
  });

  it('refuses non-PDF inline files for Messages but keeps PDFs', () => {
    const r = ok(
      translateRequest('chat', 'messages', {
        max_completion_tokens: 5,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'file', file: { file_data: 'data:text/csv;base64,YSxi', filename: 'a.csv' } },
              { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'b.pdf' } },
            ],
          },
        ],
      }),
    );
    expect((r.body.messages as Json[])[0].content).toEqual([
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' }, title: 'b.pdf' },
    ]);
    expect(lossAt(r.losses, 'messages[0].content[0]')!.reason).toContain('text/csv');
  });
});

describe('values the target does not accept', () => {
  const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }];

  it('Chat tool_choice "none" with parallel_tool_calls → Messages gets {type: "none"} alone, and the dropped setting is named', () => {
    for (const parallel of [false, true]) {
      const r = ok(
        translateRequest('chat', 'messages', {
          model: 'm',
          max_completion_tokens: 50,
          messages: [{ role: 'user', content: 'hi' }],
          tools,
          tool_choice: 'none',
          parallel_tool_calls: parallel,
        }),
      );
      expect(r.body.tool_choice).toEqual({ type: 'none' });
      expect(lossAt(r.losses, 'parallel_tool_calls')).toMatchObject({ kind: 'lost' });
      expect(lossAt(r.losses, 'parallel_tool_calls')!.reason).toMatch(/tool_choice "none"/);
    }
    const auto = ok(
      translateRequest('chat', 'messages', {
        model: 'm',
        max_completion_tokens: 50,
        messages: [{ role: 'user', content: 'hi' }],
        tools,
        tool_choice: 'auto',
        parallel_tool_calls: false,
      }),
    );
    expect(auto.body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    const back = ok(
      translateRequest('messages', 'chat', {
        model: 'm',
        max_tokens: 50,
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ name: 'f', input_schema: { type: 'object' } }],
        tool_choice: { type: 'none' },
      }),
    );
    expect(back.body.tool_choice).toBe('none');
    expect(back.body).not.toHaveProperty('parallel_tool_calls');
  });

  it('images in a media type Messages does not take are dropped, naming the type; JPEG, PNG, GIF and WebP are kept', () => {
    const image = (type: string) => ({
      type: 'image_url',
      image_url: { url: `data:${type};base64,AAAA`, detail: 'low' },
    });
    const r = ok(
      translateRequest('chat', 'messages', {
        model: 'm',
        max_completion_tokens: 50,
        messages: [
          {
            role: 'user',
            content: [
              image('image/svg+xml'),
              image('image/jpeg'),
              image('image/png'),
              image('image/gif'),
              image('image/webp'),
              image('image/bmp'),
            ],
          },
        ],
      }),
    );
    expect(((r.body.messages as Json[])[0].content as Json[]).map((b) => (b.source as Json).media_type)).toEqual([
      'image/jpeg',
      'image/png',
      'image/gif',
      'image/webp',
    ]);
    expect(lossAt(r.losses, 'messages[0].content[0]')).toMatchObject({ kind: 'lost' });
    expect(lossAt(r.losses, 'messages[0].content[0]')!.reason).toContain('image/svg+xml');
    expect(lossAt(r.losses, 'messages[0].content[5]')!.reason).toContain('image/bmp');
    const fromResponses = ok(
      translateRequest('responses', 'messages', {
        model: 'm',
        input: [
          {
            role: 'user',
            content: [{ type: 'input_image', image_url: 'data:image/svg+xml;base64,PHN2Zz4=', detail: 'auto' }],
          },
          { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
          {
            type: 'function_call_output',
            call_id: 'c',
            output: [{ type: 'input_image', image_url: 'data:image/svg+xml;base64,PHN2Zz4=', detail: 'auto' }],
          },
        ],
      }),
    );
    expect(JSON.stringify(fromResponses.body.messages)).not.toContain('svg');
    expect(lossAt(fromResponses.losses, 'input[0].content[0]')!.reason).toContain('image/svg+xml');
    expect(lossAt(fromResponses.losses, 'input[2].output[0]')!.reason).toContain('image/svg+xml');
  });

  it('Responses image detail "original" → Chat becomes "high", named as changed; auto, low and high are carried as they are', () => {
    const content = ['original', 'auto', 'low', 'high'].map((detail) => ({
      type: 'input_image',
      image_url: 'https://example.com/y.png',
      detail,
    }));
    const r = ok(translateRequest('responses', 'chat', { model: 'm', input: [{ role: 'user', content }] }));
    expect(((r.body.messages as Json[])[0].content as Json[]).map((p) => (p.image_url as Json).detail)).toEqual([
      'high',
      'auto',
      'low',
      'high',
    ]);
    expect(lossAt(r.losses, 'input[0].content[0].detail')).toMatchObject({ kind: 'changed', to: 'image_url.detail' });
    expect(r.losses.filter((l) => l.path !== 'input[0].content[0].detail')).toEqual([]);
    const back = ok(translateRequest('chat', 'responses', r.body));
    expect(((back.body.input as Json[])[0].content as Json[]).map((p) => p.detail)).toEqual([
      'high',
      'auto',
      'low',
      'high',
    ]);
  });
});
