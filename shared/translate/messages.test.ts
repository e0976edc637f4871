import { describe, expect, it } from 'vitest';
import { translateRequest } from './index';
import { ok, lossAt } from './test-kit';

describe('Messages → Chat Completions', () => {
  const body = {
    model: 'claude-sonnet-4-5',
    max_tokens: 700,
    system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?', cache_control: { type: 'ephemeral' } },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Look closer.', signature: 'sig' },
          { type: 'tool_use', id: 'toolu_1', name: 'zoom', input: { factor: 2 } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'zoomed', is_error: true }] },
    ],
    tools: [{ name: 'zoom', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }],
    tool_choice: { type: 'any', disable_parallel_tool_use: true },
    top_k: 20,
    thinking: { type: 'enabled', budget_tokens: 20000 },
    stop_sequences: ['a', 'b', 'c', 'd', 'e'],
    stream: true,
    metadata: { user_id: 'u-1' },
  };
  const r = ok(translateRequest('messages', 'chat', body));

  it('names every cache_control mark, because Chat has none', () => {
    for (const p of ['system[0].cache_control', 'messages[0].content[0].cache_control', 'tools[0].cache_control']) {
      expect(lossAt(r.losses, p)).toMatchObject({ kind: 'lost', reason: expect.stringContaining('cache_control') });
    }
    expect(JSON.stringify(r.body)).not.toContain('cache_control');
  });

  it('drops top_k and maps the thinking budget to an effort level, naming both', () => {
    expect(lossAt(r.losses, 'top_k')).toMatchObject({ kind: 'lost' });
    expect(r.body.reasoning_effort).toBe('high');
    expect(lossAt(r.losses, 'thinking')).toMatchObject({ kind: 'changed', to: 'reasoning_effort' });
    expect(lossAt(r.losses, 'thinking')!.reason).toMatch(/20000 tokens.*"high"/);
  });

  it('drops signed thinking blocks because their signatures cannot be recreated', () => {
    expect(lossAt(r.losses, 'messages[1].content[0]')!.reason).toContain('signatures cannot be recreated');
    expect(JSON.stringify(r.body)).not.toContain('Look closer');
  });

  it('writes the system prompt, image, tool call and result in Chat shapes', () => {
    expect(r.body.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'zoom', arguments: '{"factor":2}' } }],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'zoomed' },
    ]);
    expect(lossAt(r.losses, 'messages[2].content[0].is_error')!.reason).toMatch(/no error flag/);
  });

  it('maps tool choice, parallel calls, stop sequences, output cap, end-user id and streaming usage', () => {
    expect(r.body).toMatchObject({
      tool_choice: 'required',
      parallel_tool_calls: false,
      stop: ['a', 'b', 'c', 'd'],
      max_completion_tokens: 700,
      user: 'u-1',
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'zoom', parameters: { type: 'object' } } }],
    });
    expect(lossAt(r.losses, 'stop_sequences[4]')).toMatchObject({
      kind: 'lost',
      reason: expect.stringContaining('at most 4'),
    });
    expect(lossAt(r.losses, 'stream')).toMatchObject({ kind: 'added', to: 'stream_options.include_usage' });
  });

  it('maps adaptive thinking with an effort straight across, and "none" from disabled thinking', () => {
    const adaptive = ok(
      translateRequest('messages', 'chat', {
        max_tokens: 5,
        messages: [],
        thinking: { type: 'adaptive' },
        output_config: { effort: 'low' },
      }),
    );
    expect(adaptive.body.reasoning_effort).toBe('low');
    expect(adaptive.losses).toEqual([]);
    const off = ok(
      translateRequest('messages', 'chat', { max_tokens: 5, messages: [], thinking: { type: 'disabled' } }),
    );
    expect(off.body.reasoning_effort).toBe('none');
  });

  it('gives a structured-output schema the name Chat requires and keeps it strict', () => {
    const s = ok(
      translateRequest('messages', 'chat', {
        max_tokens: 5,
        messages: [],
        output_config: { format: { type: 'json_schema', schema: { type: 'object' } } },
      }),
    );
    expect(s.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'output', schema: { type: 'object' }, strict: true },
    });
  });
});

describe('Messages → Responses', () => {
  const body = {
    model: 'claude-opus-4-7',
    max_tokens: 10,
    system: 'Answer in JSON.',
    messages: [
      {
        role: 'user',
        content: [
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' },
            title: 'spec.pdf',
          },
          { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain notes' } },
        ],
      },
    ],
    stop_sequences: ['###'],
    thinking: { type: 'adaptive', display: 'omitted' },
    output_config: { effort: 'max', format: { type: 'json_schema', schema: { type: 'object' } } },
    tools: [{ name: 'lookup', description: 'Look up', input_schema: { type: 'object' } }],
    tool_choice: { type: 'tool', name: 'lookup' },
  };
  const r = ok(translateRequest('messages', 'responses', body));

  it('raises max_tokens to the Responses floor of 16 and says so', () => {
    expect(r.body.max_output_tokens).toBe(16);
    expect(lossAt(r.losses, 'max_tokens')).toMatchObject({
      kind: 'changed',
      to: 'max_output_tokens',
      reason: expect.stringContaining('16'),
    });
  });

  it('loses stop sequences, which Responses does not have', () => {
    expect(lossAt(r.losses, 'stop_sequences')).toMatchObject({ kind: 'lost' });
    expect(r.body).not.toHaveProperty('stop');
  });

  it('writes instructions, files (a text document stays a file), images and flat tools', () => {
    expect(r.body.instructions).toBe('Answer in JSON.');
    expect(r.body.input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_file', file_data: 'data:application/pdf;base64,JVBER', filename: 'spec.pdf' },
          { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'auto' },
          { type: 'input_file', file_data: `data:text/plain;base64,${btoa('plain notes')}`, filename: 'document.txt' },
        ],
      },
    ]);
    expect(lossAt(r.losses, 'messages[0].content[2]')).toMatchObject({ kind: 'added', to: 'filename' });
    expect(r.body.tools).toEqual([
      { type: 'function', name: 'lookup', description: 'Look up', parameters: { type: 'object' }, strict: false },
    ]);
    expect(r.body.tool_choice).toEqual({ type: 'function', name: 'lookup' });
  });

  it('maps effort max to xhigh and the output format to a flat text.format', () => {
    expect(r.body.reasoning).toEqual({ effort: 'xhigh' });
    expect(lossAt(r.losses, 'output_config.effort')).toMatchObject({ kind: 'changed', to: 'reasoning.effort' });
    expect(lossAt(r.losses, 'thinking.display')).toMatchObject({ kind: 'lost' });
    expect(r.body.text).toEqual({
      format: { type: 'json_schema', name: 'output', schema: { type: 'object' }, strict: true },
    });
  });
});
