import { describe, expect, it } from 'vitest';
import { translateRequest } from './index';
import { ok, lossAt } from './test-kit';

describe('Responses → Messages', () => {
  const body = {
    model: 'gpt-5',
    instructions: 'Be exact.',
    input: [
      { type: 'message', role: 'developer', content: 'Think first.' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Weather?' },
          { type: 'input_image', image_url: 'data:image/webp;base64,UklG', detail: 'low' },
        ],
      },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc' },
      {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_1',
        name: 'w',
        arguments: '{"city":"Rome"}',
        status: 'completed',
      },
      { type: 'function_call_output', call_id: 'call_1', output: '25°C' },
    ],
    reasoning: { effort: 'medium', summary: 'detailed' },
    text: { format: { type: 'json_schema', name: 'r', schema: { type: 'object' }, strict: true } },
    tools: [
      { type: 'function', name: 'w', parameters: { type: 'object' }, strict: true },
      { type: 'file_search', vector_store_ids: ['vs_1'] },
    ],
    previous_response_id: 'resp_1',
    store: false,
    background: false,
    include: ['reasoning.encrypted_content'],
    truncation: 'auto',
    max_output_tokens: 900,
  };
  const r = ok(translateRequest('responses', 'messages', body));

  it('drops the Responses-only conversation and storage fields', () => {
    for (const p of [
      'previous_response_id',
      'store',
      'background',
      'include[0]',
      'truncation',
      'input[2]',
      'tools[1]',
      'input[3].id',
      'input[3].status',
    ]) {
      expect(lossAt(r.losses, p), p).toMatchObject({ kind: 'lost' });
    }
  });

  it('builds the system prompt, tool_use and tool_result', () => {
    expect(r.body.system).toEqual([
      { type: 'text', text: 'Be exact.' },
      { type: 'text', text: 'Think first.' },
    ]);
    expect(r.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'UklG' } },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'w', input: { city: 'Rome' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '25°C' }] },
    ]);
    expect(r.body.max_tokens).toBe(900);
  });

  it('maps reasoning to adaptive thinking with an effort, and the summary style to display', () => {
    const asking = ok(translateRequest('responses', 'messages', { ...body, input: body.input.slice(0, 2) }));
    expect(asking.body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(asking.body.output_config).toEqual({
      effort: 'medium',
      format: { type: 'json_schema', schema: { type: 'object' } },
    });
    expect(lossAt(asking.losses, 'reasoning.summary')).toMatchObject({ kind: 'changed', to: 'thinking.display' });
  });

  it('leaves reasoning out while the tool loop is in progress, keeping the output format', () => {
    expect(r.body).not.toHaveProperty('thinking');
    expect(r.body.output_config).toEqual({ format: { type: 'json_schema', schema: { type: 'object' } } });
    expect(lossAt(r.losses, 'reasoning.effort')).toMatchObject({ kind: 'lost' });
    expect(lossAt(r.losses, 'reasoning.summary')).toMatchObject({ kind: 'lost' });
  });
});

describe('Responses → Chat Completions', () => {
  it('turns items into messages, tool calls and tool messages', () => {
    const r = ok(
      translateRequest('responses', 'chat', {
        model: 'gpt-5',
        instructions: 'Short answers.',
        input: [
          { role: 'user', content: 'Find x' },
          { type: 'function_call', call_id: 'a', name: 'find', arguments: '{"q":"x"}' },
          { type: 'function_call', call_id: 'b', name: 'find', arguments: '{"q":"y"}' },
          { type: 'function_call_output', call_id: 'a', output: [{ type: 'input_text', text: 'x=1' }] },
          { type: 'function_call_output', call_id: 'b', output: 'y=2' },
        ],
        stream: true,
        include: ['message.output_text.logprobs'],
        reasoning: { effort: 'low', summary: 'auto' },
        previous_response_id: 'resp_9',
        store: true,
      }),
    );
    expect(r.body.messages).toEqual([
      { role: 'system', content: 'Short answers.' },
      { role: 'user', content: 'Find x' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'find', arguments: '{"q":"x"}' } },
          { id: 'b', type: 'function', function: { name: 'find', arguments: '{"q":"y"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: [{ type: 'text', text: 'x=1' }] },
      { role: 'tool', tool_call_id: 'b', content: 'y=2' },
    ]);
    expect(r.body).toMatchObject({
      logprobs: true,
      reasoning_effort: 'low',
      store: true,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(lossAt(r.losses, 'reasoning.summary')).toMatchObject({ kind: 'lost' });
    expect(lossAt(r.losses, 'previous_response_id')).toMatchObject({ kind: 'lost' });
    expect(lossAt(r.losses, 'stream')).toMatchObject({ kind: 'added', to: 'stream_options.include_usage' });
  });

  it('drops images and files from tool outputs, which Chat tool messages cannot hold', () => {
    const r = ok(
      translateRequest('responses', 'chat', {
        input: [
          {
            type: 'function_call_output',
            call_id: 'a',
            output: [{ type: 'input_image', image_url: 'https://e.x/i.png' }],
          },
        ],
      }),
    );
    expect(r.body.messages).toEqual([{ role: 'tool', tool_call_id: 'a', content: '' }]);
    expect(lossAt(r.losses, 'input[0].output[0]')).toMatchObject({ kind: 'lost' });
  });
});
