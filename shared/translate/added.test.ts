import { describe, expect, it } from 'vitest';
import { translateRequest, type Loss } from './index';
import { corpus, ok, lossAt, valueAt, addedLeaves, type Json } from './test-kit';

/** The added entry that says it filled in `to`, checked against the value the translated body holds there. */
function addedAt(r: { body: Json; losses: Loss[] }, to: string, value: unknown): Loss {
  const entry = r.losses.find((l) => l.kind === 'added' && l.to === to);
  expect(entry, `an added entry for ${to}`).toBeDefined();
  expect(valueAt(r.body, to)).toEqual(value);
  return entry!;
}

describe('a JSON schema output format from Messages, which has no name and no strict flag', () => {
  const name = 'messages: adaptive thinking with effort and a JSON schema output';

  it('→ Chat: the name "output" and strict: true are listed as added, at their paths in the body sent', () => {
    const r = corpus(name, 'chat');
    const named = addedAt(r, 'response_format.json_schema.name', 'output');
    expect(named).toMatchObject({ path: 'output_config.format', reason: expect.stringMatching(/requires one/) });
    const strict = addedAt(r, 'response_format.json_schema.strict', true);
    expect(strict).toMatchObject({ path: 'output_config.format', reason: expect.stringMatching(/always holds/) });
  });

  it('→ Responses: the same two fields, flat under text.format', () => {
    const r = corpus(name, 'responses');
    expect(addedAt(r, 'text.format.name', 'output').reason).toMatch(/"output" is filled in/);
    expect(addedAt(r, 'text.format.strict', true).reason).toMatch(/strict: true/);
  });

  it('a Chat schema without a name → Responses: the name is added, and the entry covers it coming back', () => {
    const original = {
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_schema', json_schema: { schema: { type: 'object' } } },
    };
    const there = ok(translateRequest('chat', 'responses', original));
    expect(addedAt(there, 'text.format.name', 'output').reason).toMatch(/comes back/);
    // Chat's own schema has no strict: nothing is invented for it.
    expect(there.body.text).toEqual({ format: { type: 'json_schema', name: 'output', schema: { type: 'object' } } });
    const back = ok(translateRequest('responses', 'chat', there.body));
    expect(valueAt(back.body, 'response_format.json_schema.name')).toBe('output');
    expect(addedLeaves(original, back.body, there.losses)).toEqual([]);
  });
});

describe('an image without a detail → Responses, which requires one', () => {
  it('each Messages image gets detail "auto", listed at its own path', () => {
    const r = corpus('messages: images by base64 and by URL', 'responses');
    for (const k of [0, 1]) {
      expect(addedAt(r, `input[0].content[${k}].detail`, 'auto').path).toBe(`messages[0].content[${k}]`);
    }
  });

  it('only the Chat image without a detail is listed; the ones that had one are carried as they are', () => {
    const r = corpus('chat: images as data URL and URL with detail', 'responses');
    const added = r.losses.filter((l) => l.kind === 'added');
    expect(added).toEqual([
      {
        path: 'messages[0].content[2]',
        kind: 'added',
        reason: expect.stringMatching(/comes back as detail "auto"/),
        to: 'input[0].content[2].detail',
      },
    ]);
    expect(valueAt(r.body, 'input[0].content[2].detail')).toBe('auto');
  });

  it('an image in a tool result is listed at its place in the function_call_output', () => {
    const r = ok(
      translateRequest('messages', 'responses', {
        max_tokens: 100,
        messages: [
          { role: 'user', content: 'Draw it.' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'draw', input: {} }] },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 't1',
                content: [
                  { type: 'text', text: 'done' },
                  { type: 'image', source: { type: 'url', url: 'https://example.com/d.png' } },
                ],
              },
            ],
          },
        ],
      }),
    );
    expect(addedAt(r, 'input[2].output[1].detail', 'auto').path).toBe('messages[2].content[0].content[1]');
  });
});

describe('other fields a writer fills in', () => {
  const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }];

  it('Chat parallel_tool_calls without a tool_choice → Messages: tool_choice "auto" is listed as added', () => {
    const original = {
      model: 'm',
      max_completion_tokens: 50,
      messages: [{ role: 'user', content: 'hi' }],
      tools,
      parallel_tool_calls: false,
    };
    const there = ok(translateRequest('chat', 'messages', original));
    expect(there.body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(addedAt(there, 'tool_choice.type', 'auto')).toMatchObject({
      path: 'parallel_tool_calls',
      reason: expect.stringMatching(/comes back as tool_choice "auto"/),
    });
    expect(ok(translateRequest('messages', 'chat', there.body)).body.tool_choice).toBe('auto');
  });

  it('a Chat tool without parameters → Responses: parameters null is listed as added', () => {
    const r = ok(
      translateRequest('chat', 'responses', {
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ type: 'function', function: { name: 'now', strict: false } }],
      }),
    );
    expect(addedAt(r, 'tools[0].parameters', null)).toMatchObject({ path: 'tools[0].function' });
  });

  it('empty Chat tool-call arguments → Messages: the {} sent is listed as changed', () => {
    const r = ok(
      translateRequest('chat', 'messages', {
        max_completion_tokens: 50,
        messages: [
          { role: 'user', content: 'time?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'now', arguments: '' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: '12:00' },
        ],
      }),
    );
    expect(valueAt(r.body, 'messages[1].content[0].input')).toEqual({});
    expect(lossAt(r.losses, 'messages[1].tool_calls[0].function.arguments')).toMatchObject({
      kind: 'changed',
      reason: expect.stringMatching(/\{\} is sent/),
    });
  });

  it('a tools list whose every tool is left out is not sent as an empty list (Chat rejects one)', () => {
    const r = corpus('responses: string input, built-in tool, logprobs', 'chat');
    expect(r.body).not.toHaveProperty('tools');
    expect(lossAt(r.losses, 'tools[0]')).toMatchObject({ kind: 'lost' });
    expect(corpus('responses: string input, built-in tool, logprobs', 'messages').body).not.toHaveProperty('tools');
  });

  it('an assistant turn with nothing left to send → Responses is named, not dropped silently', () => {
    const r = ok(
      translateRequest('chat', 'responses', {
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: null },
          { role: 'user', content: 'still there?' },
        ],
      }),
    );
    expect((r.body.input as Json[]).map((i) => i.role)).toEqual(['user', 'user']);
    expect(lossAt(r.losses, 'messages[1]')).toMatchObject({ kind: 'lost' });
  });
});
