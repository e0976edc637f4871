import { describe, expect, it } from 'vitest';
import { translateRequest } from './index';
import { ok, lossAt } from './test-kit';

describe('Chat Completions → Messages', () => {
  const body = {
    model: 'claude-via-chat',
    messages: [
      { role: 'developer', content: 'Prefer metric units.' },
      {
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: 'https://example.com/x.png', detail: 'low' } }],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'a', arguments: '{ "x": 1 }' } },
          { id: 'call_2', type: 'function', function: { name: 'b', arguments: 'not json' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'one' },
      { role: 'tool', tool_call_id: 'call_2', content: 'two' },
      { role: 'system', content: 'Now be formal.' },
      { role: 'user', content: 'Go on.' },
    ],
    temperature: 1.6,
    presence_penalty: 1,
    frequency_penalty: 1,
    seed: 7,
    n: 1,
    logit_bias: { '50256': -100 },
    logprobs: true,
    tools: [
      { type: 'function', function: { name: 'a' } },
      { type: 'function', function: { name: 'b', parameters: { type: 'object' } } },
    ],
    tool_choice: 'required',
    parallel_tool_calls: false,
    response_format: { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' }, strict: true } },
    reasoning_effort: 'minimal',
    prompt_cache_key: 'k',
    metadata: { a: 'b' },
    user: 'u-9',
  };
  const r = ok(translateRequest('chat', 'messages', body));

  it('clamps temperature into 0–1 and says so', () => {
    expect(r.body.temperature).toBe(1);
    expect(lossAt(r.losses, 'temperature')).toMatchObject({ kind: 'changed', reason: expect.stringContaining('1.6') });
  });

  it('drops the sampling knobs Messages lacks', () => {
    for (const p of [
      'presence_penalty',
      'frequency_penalty',
      'seed',
      'n',
      'logit_bias',
      'logprobs',
      'prompt_cache_key',
    ]) {
      expect(lossAt(r.losses, p), p).toMatchObject({ kind: 'lost' });
      expect(r.body).not.toHaveProperty(p);
    }
    // The metadata map is gone; Messages' metadata holds only the end-user id.
    expect(lossAt(r.losses, 'metadata')).toMatchObject({ kind: 'lost' });
    expect(r.body.metadata).toEqual({ user_id: 'u-9' });
  });

  it('fills in the required max_tokens', () => {
    expect(r.body.max_tokens).toBe(4096);
    expect(lossAt(r.losses, 'max_completion_tokens')).toMatchObject({ kind: 'added', to: 'max_tokens' });
  });

  it('gathers system and developer messages from anywhere into the one system prompt', () => {
    expect(r.body.system).toEqual([
      { type: 'text', text: 'Prefer metric units.' },
      { type: 'text', text: 'Now be formal.' },
    ]);
    expect(lossAt(r.losses, 'messages[5]')!.reason).toMatch(/moves into the top-level system prompt/);
    expect(lossAt(r.losses, 'messages[0].role')).toMatchObject({ kind: 'changed' });
  });

  it('turns tool calls into tool_use blocks and consecutive tool messages into one user turn', () => {
    expect(r.body.messages).toEqual([
      { role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/x.png' } }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'call_1', name: 'a', input: { x: 1 } },
          { type: 'tool_use', id: 'call_2', name: 'b', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'one' },
          { type: 'tool_result', tool_use_id: 'call_2', content: 'two' },
        ],
      },
      { role: 'user', content: 'Go on.' },
    ]);
    expect(lossAt(r.losses, 'messages[1].content[0].image_url.detail')).toMatchObject({ kind: 'lost' });
    expect(lossAt(r.losses, 'messages[2].tool_calls[0].function.arguments')!.reason).toMatch(/spacing/);
    expect(lossAt(r.losses, 'messages[2].tool_calls[1].function.arguments')!.reason).toMatch(/not valid JSON/);
  });

  it('maps tools, tool choice, parallel calls, structured output, effort and user', () => {
    expect(r.body.tools).toEqual([
      { name: 'a', input_schema: { type: 'object', properties: {} } },
      { name: 'b', input_schema: { type: 'object' } },
    ]);
    expect(lossAt(r.losses, 'tools[0].function')).toMatchObject({ kind: 'added', to: 'tools[0].input_schema' });
    expect(r.body.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    // tool_choice "required" forces a tool, which Messages rejects with thinking: the tool choice wins.
    expect(r.body.output_config).toEqual({ format: { type: 'json_schema', schema: { type: 'object' } } });
    expect(r.body).not.toHaveProperty('thinking');
    expect(lossAt(r.losses, 'reasoning_effort')).toMatchObject({ kind: 'lost' });
    expect(lossAt(r.losses, 'response_format.json_schema.name')).toMatchObject({ kind: 'lost' });
    expect(lossAt(r.losses, 'response_format.json_schema.strict')).toMatchObject({ kind: 'lost' });
    expect(r.body.metadata).toEqual({ user_id: 'u-9' });
  });

  it('moves stream_options.include_usage out, since Messages streams always carry usage', () => {
    const s = ok(
      translateRequest('chat', 'messages', {
        messages: [],
        max_completion_tokens: 5,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    expect(s.body.stream).toBe(true);
    expect(s.body).not.toHaveProperty('stream_options');
    expect(lossAt(s.losses, 'stream_options.include_usage')).toMatchObject({ kind: 'lost' });
  });
});

describe('Chat Completions → Responses', () => {
  const body = {
    model: 'gpt-4.1',
    messages: [
      { role: 'system', content: 'Be helpful.' },
      { role: 'developer', content: 'Use tools.' },
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"q": 1}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'found' },
    ],
    max_completion_tokens: 8,
    stop: ['x'],
    stream: true,
    stream_options: { include_usage: true },
    logprobs: true,
    top_logprobs: 4,
    tools: [
      { type: 'function', function: { name: 'f', description: 'find', parameters: { type: 'object' }, strict: true } },
    ],
    tool_choice: { type: 'function', function: { name: 'f' } },
    response_format: { type: 'json_schema', json_schema: { name: 'n', schema: { type: 'object' } } },
    verbosity: 'high',
    store: true,
    metadata: { k: 'v' },
  };
  const r = ok(translateRequest('chat', 'responses', body));

  it('writes the leading system message as instructions and keeps the rest as items in order', () => {
    expect(r.body.instructions).toBe('Be helpful.');
    expect(r.body.input).toEqual([
      { type: 'message', role: 'developer', content: 'Use tools.' },
      { type: 'message', role: 'user', content: 'Hi' },
      { type: 'message', role: 'assistant', content: 'Let me look.' },
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{"q": 1}' },
      { type: 'function_call_output', call_id: 'c1', output: 'found' },
    ]);
  });

  it('loses stop sequences and include_usage, and raises the output cap to 16', () => {
    expect(lossAt(r.losses, 'stop')).toMatchObject({ kind: 'lost' });
    expect(lossAt(r.losses, 'stream_options.include_usage')).toMatchObject({ kind: 'lost' });
    expect(r.body.max_output_tokens).toBe(16);
    expect(lossAt(r.losses, 'max_completion_tokens')).toMatchObject({ kind: 'changed' });
  });

  it('flattens tools, tool choice and the JSON schema; carries store, metadata, logprobs and verbosity', () => {
    expect(r.body).toMatchObject({
      tools: [{ type: 'function', name: 'f', description: 'find', parameters: { type: 'object' }, strict: true }],
      tool_choice: { type: 'function', name: 'f' },
      text: { format: { type: 'json_schema', name: 'n', schema: { type: 'object' } }, verbosity: 'high' },
      store: true,
      metadata: { k: 'v' },
      include: ['message.output_text.logprobs'],
      top_logprobs: 4,
    });
  });
});
