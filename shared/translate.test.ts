import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, startSimulator, type RunningSimulator } from '../electron/core/simulator';
import { childPath, translateRequest, type Loss, type TranslateResult } from './translate';
import { TRANSLATE_CORPUS } from './translate-corpus';
import { PROTOCOL_IDS, type ProtocolId } from './protocols/types';

type Json = Record<string, unknown>;

function ok(r: TranslateResult): { body: Json; losses: Loss[] } {
  if (!r.ok) throw new Error(`translation refused: ${r.reason}`);
  return r;
}

function lossAt(losses: Loss[], path: string): Loss | undefined {
  return losses.find((l) => l.path === path);
}

function covers(lossPath: string, path: string): boolean {
  return path === lossPath || path.startsWith(`${lossPath}.`) || path.startsWith(`${lossPath}[`);
}

/** Reads a value by a path built with childPath (the same grammar as Loss.path). */
function valueAt(root: unknown, path: string): unknown {
  const tokens = path.match(/[A-Za-z_$][A-Za-z0-9_$]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\]/g) ?? [];
  let cur: unknown = root;
  for (const t of tokens) {
    if (cur === null || typeof cur !== 'object') return undefined;
    const key = t.startsWith('[') ? (t[1] === '"' ? JSON.parse(t.slice(1, -1)) : Number(t.slice(1, -1))) : t;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}

/**
 * Every leaf of `original` that no loss path covers must be found, equal, in `back`. Array elements a loss
 * says were dropped or not translated are gone from `back`, so later siblings are looked up one place
 * earlier: the check is about values, not about indices shifted by a named drop.
 */
function unchangedLeaves(original: Json, back: Json, losses: Loss[]): string[] {
  const removed = new Set(losses.filter((l) => l.kind !== 'changed' && l.path.endsWith(']')).map((l) => l.path));
  const problems: string[] = [];
  const walk = (value: unknown, path: string, backPath: string): void => {
    if (losses.some((l) => covers(l.path, path))) return;
    if (Array.isArray(value) && value.length > 0) {
      let k = 0;
      value.forEach((v, i) => {
        const p = childPath(path, i);
        if (removed.has(p)) return;
        walk(v, p, childPath(backPath, k++));
      });
      return;
    }
    if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
      for (const [key, v] of Object.entries(value)) walk(v, childPath(path, key), childPath(backPath, key));
      return;
    }
    const got = valueAt(back, backPath);
    if (JSON.stringify(got) !== JSON.stringify(value)) {
      problems.push(`${path}: sent ${JSON.stringify(value)}, came back ${JSON.stringify(got)} at ${backPath}`);
    }
  };
  walk(original, '', '');
  return problems;
}

describe('round trips over the corpus', () => {
  it('has at least 20 requests, several per protocol', () => {
    expect(TRANSLATE_CORPUS.length).toBeGreaterThanOrEqual(20);
    for (const p of PROTOCOL_IDS) expect(TRANSLATE_CORPUS.filter((e) => e.protocol === p).length).toBeGreaterThanOrEqual(6);
  });

  for (const entry of TRANSLATE_CORPUS) {
    for (const via of PROTOCOL_IDS.filter((p) => p !== entry.protocol)) {
      it(`${entry.name} → ${via} → back keeps everything the losses do not name`, () => {
        const there = ok(translateRequest(entry.protocol, via, entry.body));
        const back = ok(translateRequest(via, entry.protocol, there.body));
        // The first leg's losses are in the original's paths; the second leg's are in the intermediate
        // body's, so only the first leg may excuse a difference (stricter than excusing both).
        expect(unchangedLeaves(entry.body, back.body, there.losses)).toEqual([]);
      });

      it(`${entry.name} → ${via}: every loss points at something the user wrote`, () => {
        const there = ok(translateRequest(entry.protocol, via, entry.body));
        for (const loss of there.losses) {
          // A filled-in max_tokens names the absent field it stands for.
          if (loss.kind === 'changed' && loss.to === 'max_tokens') continue;
          expect(valueAt(entry.body, loss.path), loss.path).not.toBeUndefined();
          expect(loss.reason.length).toBeGreaterThan(10);
        }
      });
    }
  }

  it('the checker itself notices a value that did not come back', () => {
    const problems = unchangedLeaves({ a: { b: [1, 2] }, c: 'x' }, { a: { b: [1, 3] }, c: 'x' }, []);
    expect(problems).toEqual(['a.b[1]: sent 2, came back 3 at a.b[1]']);
    expect(unchangedLeaves({ a: { b: [1, 2] } }, { a: { b: [1] } }, [{ path: 'a.b[1]', kind: 'changed', reason: 'r' }])).toEqual([]);
    expect(unchangedLeaves({ l: [1, 2, 3] }, { l: [1, 3] }, [{ path: 'l[1]', kind: 'dropped', reason: 'r' }])).toEqual([]);
  });
});

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
      expect(lossAt(r.losses, p)).toMatchObject({ kind: 'dropped', reason: expect.stringContaining('cache_control') });
    }
    expect(JSON.stringify(r.body)).not.toContain('cache_control');
  });

  it('drops top_k and maps the thinking budget to an effort level, naming both', () => {
    expect(lossAt(r.losses, 'top_k')).toMatchObject({ kind: 'dropped' });
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
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'zoom', arguments: '{"factor":2}' } }] },
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
    expect(lossAt(r.losses, 'stop_sequences[4]')).toMatchObject({ kind: 'dropped', reason: expect.stringContaining('at most 4') });
    expect(lossAt(r.losses, 'stream')).toMatchObject({ kind: 'changed', to: 'stream_options.include_usage' });
  });

  it('maps adaptive thinking with an effort straight across, and "none" from disabled thinking', () => {
    const adaptive = ok(translateRequest('messages', 'chat', { max_tokens: 5, messages: [], thinking: { type: 'adaptive' }, output_config: { effort: 'low' } }));
    expect(adaptive.body.reasoning_effort).toBe('low');
    expect(adaptive.losses).toEqual([]);
    const off = ok(translateRequest('messages', 'chat', { max_tokens: 5, messages: [], thinking: { type: 'disabled' } }));
    expect(off.body.reasoning_effort).toBe('none');
  });

  it('gives a structured-output schema the name Chat requires and keeps it strict', () => {
    const s = ok(translateRequest('messages', 'chat', { max_tokens: 5, messages: [], output_config: { format: { type: 'json_schema', schema: { type: 'object' } } } }));
    expect(s.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'output', schema: { type: 'object' }, strict: true } });
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
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' }, title: 'spec.pdf' },
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
    expect(lossAt(r.losses, 'max_tokens')).toMatchObject({ kind: 'changed', to: 'max_output_tokens', reason: expect.stringContaining('16') });
  });

  it('loses stop sequences, which Responses does not have', () => {
    expect(lossAt(r.losses, 'stop_sequences')).toMatchObject({ kind: 'dropped' });
    expect(r.body).not.toHaveProperty('stop');
  });

  it('writes instructions, files, images and flat tools', () => {
    expect(r.body.instructions).toBe('Answer in JSON.');
    expect(r.body.input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_file', file_data: 'data:application/pdf;base64,JVBER', filename: 'spec.pdf' },
          { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'auto' },
          { type: 'input_text', text: 'plain notes' },
        ],
      },
    ]);
    expect(lossAt(r.losses, 'messages[0].content[2]')).toMatchObject({ kind: 'changed' });
    expect(r.body.tools).toEqual([{ type: 'function', name: 'lookup', description: 'Look up', parameters: { type: 'object' }, strict: false }]);
    expect(r.body.tool_choice).toEqual({ type: 'function', name: 'lookup' });
  });

  it('maps effort max to xhigh and the output format to a flat text.format', () => {
    expect(r.body.reasoning).toEqual({ effort: 'xhigh' });
    expect(lossAt(r.losses, 'output_config.effort')).toMatchObject({ kind: 'changed', to: 'reasoning.effort' });
    expect(lossAt(r.losses, 'thinking.display')).toMatchObject({ kind: 'dropped' });
    expect(r.body.text).toEqual({ format: { type: 'json_schema', name: 'output', schema: { type: 'object' }, strict: true } });
  });
});

describe('Chat Completions → Messages', () => {
  const body = {
    model: 'claude-via-chat',
    messages: [
      { role: 'developer', content: 'Prefer metric units.' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/x.png', detail: 'low' } }] },
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
    tools: [{ type: 'function', function: { name: 'a' } }, { type: 'function', function: { name: 'b', parameters: { type: 'object' } } }],
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
    for (const p of ['presence_penalty', 'frequency_penalty', 'seed', 'n', 'logit_bias', 'logprobs', 'prompt_cache_key']) {
      expect(lossAt(r.losses, p), p).toMatchObject({ kind: 'dropped' });
      expect(r.body).not.toHaveProperty(p);
    }
    // The metadata map is gone; Messages' metadata holds only the end-user id.
    expect(lossAt(r.losses, 'metadata')).toMatchObject({ kind: 'dropped' });
    expect(r.body.metadata).toEqual({ user_id: 'u-9' });
  });

  it('fills in the required max_tokens', () => {
    expect(r.body.max_tokens).toBe(4096);
    expect(lossAt(r.losses, 'max_completion_tokens')).toMatchObject({ kind: 'changed', to: 'max_tokens' });
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
    expect(lossAt(r.losses, 'messages[1].content[0].image_url.detail')).toMatchObject({ kind: 'dropped' });
    expect(lossAt(r.losses, 'messages[2].tool_calls[0].function.arguments')!.reason).toMatch(/spacing/);
    expect(lossAt(r.losses, 'messages[2].tool_calls[1].function.arguments')!.reason).toMatch(/not valid JSON/);
  });

  it('maps tools, tool choice, parallel calls, structured output, effort and user', () => {
    expect(r.body.tools).toEqual([
      { name: 'a', input_schema: { type: 'object', properties: {} } },
      { name: 'b', input_schema: { type: 'object' } },
    ]);
    expect(lossAt(r.losses, 'tools[0].function')).toMatchObject({ kind: 'changed', to: 'input_schema' });
    expect(r.body.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    // tool_choice "required" forces a tool, which Messages rejects with thinking: the tool choice wins.
    expect(r.body.output_config).toEqual({ format: { type: 'json_schema', schema: { type: 'object' } } });
    expect(r.body).not.toHaveProperty('thinking');
    expect(lossAt(r.losses, 'reasoning_effort')).toMatchObject({ kind: 'dropped' });
    expect(lossAt(r.losses, 'response_format.json_schema.name')).toMatchObject({ kind: 'dropped' });
    expect(lossAt(r.losses, 'response_format.json_schema.strict')).toMatchObject({ kind: 'dropped' });
    expect(r.body.metadata).toEqual({ user_id: 'u-9' });
  });

  it('moves stream_options.include_usage out, since Messages streams always carry usage', () => {
    const s = ok(translateRequest('chat', 'messages', { messages: [], max_completion_tokens: 5, stream: true, stream_options: { include_usage: true } }));
    expect(s.body.stream).toBe(true);
    expect(s.body).not.toHaveProperty('stream_options');
    expect(lossAt(s.losses, 'stream_options.include_usage')).toMatchObject({ kind: 'dropped' });
  });
});

describe('Chat Completions → Responses', () => {
  const body = {
    model: 'gpt-4.1',
    messages: [
      { role: 'system', content: 'Be helpful.' },
      { role: 'developer', content: 'Use tools.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"q": 1}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'found' },
    ],
    max_completion_tokens: 8,
    stop: ['x'],
    stream: true,
    stream_options: { include_usage: true },
    logprobs: true,
    top_logprobs: 4,
    tools: [{ type: 'function', function: { name: 'f', description: 'find', parameters: { type: 'object' }, strict: true } }],
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
    expect(lossAt(r.losses, 'stop')).toMatchObject({ kind: 'dropped' });
    expect(lossAt(r.losses, 'stream_options.include_usage')).toMatchObject({ kind: 'dropped' });
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

describe('Responses → Messages', () => {
  const body = {
    model: 'gpt-5',
    instructions: 'Be exact.',
    input: [
      { type: 'message', role: 'developer', content: 'Think first.' },
      { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }, { type: 'input_image', image_url: 'data:image/webp;base64,UklG', detail: 'low' }] },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc' },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'w', arguments: '{"city":"Rome"}', status: 'completed' },
      { type: 'function_call_output', call_id: 'call_1', output: '25°C' },
    ],
    reasoning: { effort: 'medium', summary: 'detailed' },
    text: { format: { type: 'json_schema', name: 'r', schema: { type: 'object' }, strict: true } },
    tools: [{ type: 'function', name: 'w', parameters: { type: 'object' }, strict: true }, { type: 'file_search', vector_store_ids: ['vs_1'] }],
    previous_response_id: 'resp_1',
    store: false,
    background: false,
    include: ['reasoning.encrypted_content'],
    truncation: 'auto',
    max_output_tokens: 900,
  };
  const r = ok(translateRequest('responses', 'messages', body));

  it('drops the Responses-only conversation and storage fields', () => {
    for (const p of ['previous_response_id', 'store', 'background', 'include[0]', 'truncation', 'input[2]', 'tools[1]', 'input[3].id', 'input[3].status']) {
      expect(lossAt(r.losses, p), p).toMatchObject({ kind: 'dropped' });
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
    expect(asking.body.output_config).toEqual({ effort: 'medium', format: { type: 'json_schema', schema: { type: 'object' } } });
    expect(lossAt(asking.losses, 'reasoning.summary')).toMatchObject({ kind: 'changed', to: 'thinking.display' });
  });

  it('leaves reasoning out while the tool loop is in progress, keeping the output format', () => {
    expect(r.body).not.toHaveProperty('thinking');
    expect(r.body.output_config).toEqual({ format: { type: 'json_schema', schema: { type: 'object' } } });
    expect(lossAt(r.losses, 'reasoning.effort')).toMatchObject({ kind: 'dropped' });
    expect(lossAt(r.losses, 'reasoning.summary')).toMatchObject({ kind: 'dropped' });
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
    expect(r.body).toMatchObject({ logprobs: true, reasoning_effort: 'low', store: true, stream: true, stream_options: { include_usage: true } });
    expect(lossAt(r.losses, 'reasoning.summary')).toMatchObject({ kind: 'dropped' });
    expect(lossAt(r.losses, 'previous_response_id')).toMatchObject({ kind: 'dropped' });
    expect(lossAt(r.losses, 'stream')).toMatchObject({ kind: 'changed', to: 'stream_options.include_usage' });
  });

  it('drops images and files from tool outputs, which Chat tool messages cannot hold', () => {
    const r = ok(
      translateRequest('responses', 'chat', {
        input: [{ type: 'function_call_output', call_id: 'a', output: [{ type: 'input_image', image_url: 'https://e.x/i.png' }] }],
      }),
    );
    expect(r.body.messages).toEqual([{ role: 'tool', tool_call_id: 'a', content: '' }]);
    expect(lossAt(r.losses, 'input[0].output[0]')).toMatchObject({ kind: 'dropped' });
  });
});

describe('fields nobody knows', () => {
  it('are named "not-translated" at every depth and never carried over', () => {
    const r = ok(
      translateRequest('chat', 'messages', {
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', lang: 'en' }], mood: 'happy' }],
        max_completion_tokens: 20,
        frobnicate: { level: 3 },
      }),
    );
    expect(r.losses.filter((l) => l.kind === 'not-translated').map((l) => l.path).sort()).toEqual([
      'frobnicate',
      'messages[0].content[0].lang',
      'messages[0].mood',
    ]);
    expect(JSON.stringify(r.body)).not.toMatch(/frobnicate|lang|mood/);
  });

  it('names unknown block and item types instead of guessing', () => {
    const r = ok(translateRequest('messages', 'responses', { max_tokens: 20, messages: [{ role: 'user', content: [{ type: 'hologram', data: 1 }] }] }));
    expect(lossAt(r.losses, 'messages[0].content[0]')).toMatchObject({ kind: 'not-translated', reason: expect.stringContaining('hologram') });
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
    ['messages', 'responses', { messages: [{ role: 'user', content: 42 }] }, /messages\[0\]\.content must be a string or a list/],
    ['messages', 'chat', { messages: [{ role: 'user', content: [{ text: 'no type' }] }] }, /messages\[0\]\.content\[0\] has no type/],
    ['responses', 'chat', { model: 'm' }, /input is missing/],
    ['responses', 'messages', { input: 7 }, /input must be a list/],
    ['responses', 'chat', { input: [{ content: 'no role or type' }] }, /input\[0\] has no type/],
    ['chat', 'messages', { messages: [], temperature: 'hot' }, /temperature must be a number/],
    ['chat', 'messages', { messages: [], tools: [{ type: 'function', function: { description: 'no name' } }] }, /tools\[0\]\.function\.name must be a string/],
    ['messages', 'chat', { messages: [{ role: 'assistant', content: [{ type: 'tool_use', name: 'x', input: {} }] }] }, /content\[0\]\.id must be a string/],
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
    const r = ok(translateRequest('messages', 'chat', { max_tokens: 50, messages: [{ role: 'user', content: 'Q' }, { role: 'assistant', content: 'The answer is' }] }));
    expect(lossAt(r.losses, 'messages[1]')!.reason).toMatch(/prefill/);
    const toMessages = ok(translateRequest('responses', 'messages', { input: [{ role: 'user', content: 'Q' }, { role: 'assistant', content: 'A:' }] }));
    expect(lossAt(toMessages.losses, 'input[1]')!.reason).toMatch(/becomes a prefill/);
    const between = ok(translateRequest('chat', 'responses', { messages: [{ role: 'user', content: 'Q' }, { role: 'assistant', content: 'A:' }] }));
    expect(between.losses).toEqual([]);
  });

  it('writes Chat legacy max_tokens under the target name, and notes it will not come back', () => {
    const r = ok(translateRequest('chat', 'responses', { messages: [], max_tokens: 100 }));
    expect(r.body.max_output_tokens).toBe(100);
    expect(lossAt(r.losses, 'max_tokens')).toMatchObject({ kind: 'changed', to: 'max_output_tokens' });
  });

  it('keeps Chat system messages where they are when going to Responses', () => {
    const r = ok(translateRequest('chat', 'responses', { messages: [{ role: 'user', content: 'a' }, { role: 'system', content: 'b' }] }));
    expect(r.body).not.toHaveProperty('instructions');
    expect((r.body.input as Json[])[1]).toEqual({ type: 'message', role: 'system', content: 'b' });
    expect(r.losses).toEqual([]);
  });

  it('maps the end-user id between metadata.user_id and user', () => {
    expect(ok(translateRequest('messages', 'responses', { max_tokens: 20, messages: [], metadata: { user_id: 'u' } })).body.user).toBe('u');
    const viaSafety = ok(translateRequest('responses', 'messages', { input: [], safety_identifier: 's' }));
    expect(viaSafety.body.metadata).toEqual({ user_id: 's' });
    expect(lossAt(viaSafety.losses, 'safety_identifier')).toMatchObject({ kind: 'changed', to: 'metadata.user_id' });
  });

  it('drops parallel_tool_calls when there are no tools to put a tool_choice on', () => {
    const r = ok(translateRequest('chat', 'messages', { messages: [], max_completion_tokens: 5, parallel_tool_calls: true }));
    expect(r.body).not.toHaveProperty('tool_choice');
    expect(lossAt(r.losses, 'parallel_tool_calls')).toMatchObject({ kind: 'dropped' });
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
      const r = ok(translateRequest('chat', 'messages', { model: 'm', max_completion_tokens: 50, messages: [{ role: 'user', content: 'hi' }], tools, tool_choice: 'none', parallel_tool_calls: parallel }));
      expect(r.body.tool_choice).toEqual({ type: 'none' });
      expect(lossAt(r.losses, 'parallel_tool_calls')).toMatchObject({ kind: 'dropped' });
      expect(lossAt(r.losses, 'parallel_tool_calls')!.reason).toMatch(/tool_choice "none"/);
    }
    const auto = ok(translateRequest('chat', 'messages', { model: 'm', max_completion_tokens: 50, messages: [{ role: 'user', content: 'hi' }], tools, tool_choice: 'auto', parallel_tool_calls: false }));
    expect(auto.body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    const back = ok(translateRequest('messages', 'chat', { model: 'm', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'f', input_schema: { type: 'object' } }], tool_choice: { type: 'none' } }));
    expect(back.body.tool_choice).toBe('none');
    expect(back.body).not.toHaveProperty('parallel_tool_calls');
  });

  it('images in a media type Messages does not take are dropped, naming the type; JPEG, PNG, GIF and WebP are kept', () => {
    const image = (type: string) => ({ type: 'image_url', image_url: { url: `data:${type};base64,AAAA`, detail: 'low' } });
    const r = ok(
      translateRequest('chat', 'messages', {
        model: 'm',
        max_completion_tokens: 50,
        messages: [{ role: 'user', content: [image('image/svg+xml'), image('image/jpeg'), image('image/png'), image('image/gif'), image('image/webp'), image('image/bmp')] }],
      }),
    );
    expect(((r.body.messages as Json[])[0].content as Json[]).map((b) => (b.source as Json).media_type)).toEqual(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
    expect(lossAt(r.losses, 'messages[0].content[0]')).toMatchObject({ kind: 'dropped' });
    expect(lossAt(r.losses, 'messages[0].content[0]')!.reason).toContain('image/svg+xml');
    expect(lossAt(r.losses, 'messages[0].content[5]')!.reason).toContain('image/bmp');
    const fromResponses = ok(
      translateRequest('responses', 'messages', {
        model: 'm',
        input: [
          { role: 'user', content: [{ type: 'input_image', image_url: 'data:image/svg+xml;base64,PHN2Zz4=', detail: 'auto' }] },
          { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_image', image_url: 'data:image/svg+xml;base64,PHN2Zz4=', detail: 'auto' }] },
        ],
      }),
    );
    expect(JSON.stringify(fromResponses.body.messages)).not.toContain('svg');
    expect(lossAt(fromResponses.losses, 'input[0].content[0]')!.reason).toContain('image/svg+xml');
    expect(lossAt(fromResponses.losses, 'input[2].output[0]')!.reason).toContain('image/svg+xml');
  });

  it('Responses image detail "original" → Chat becomes "high", named as changed; auto, low and high are carried as they are', () => {
    const content = ['original', 'auto', 'low', 'high'].map((detail) => ({ type: 'input_image', image_url: 'https://example.com/y.png', detail }));
    const r = ok(translateRequest('responses', 'chat', { model: 'm', input: [{ role: 'user', content }] }));
    expect(((r.body.messages as Json[])[0].content as Json[]).map((p) => (p.image_url as Json).detail)).toEqual(['high', 'auto', 'low', 'high']);
    expect(lossAt(r.losses, 'input[0].content[0].detail')).toMatchObject({ kind: 'changed', to: 'image_url.detail' });
    expect(r.losses.filter((l) => l.path !== 'input[0].content[0].detail')).toEqual([]);
    const back = ok(translateRequest('chat', 'responses', r.body));
    expect(((back.body.input as Json[])[0].content as Json[]).map((p) => p.detail)).toEqual(['high', 'auto', 'low', 'high']);
  });
});

/** Leaves of `back` the original did not have, unless a first-leg loss covers their path (same paths, no shifts). */
function addedLeaves(original: Json, back: Json, losses: Loss[]): string[] {
  const added: string[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value) && value.length > 0) return value.forEach((v, i) => walk(v, childPath(path, i)));
    if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
      for (const [key, v] of Object.entries(value)) walk(v, childPath(path, key));
      return;
    }
    if (valueAt(original, path) === undefined && !losses.some((l) => covers(l.path, path))) added.push(`${path}: ${JSON.stringify(value)}`);
  };
  walk(back, '');
  return added;
}

/**
 * What Messages rejects (protocols.md §1.5): thinking beside a forced tool, temperature ≠ 1, top_p below 0.95,
 * or a last assistant turn with tool calls that does not open with a thinking block.
 */
function thinkingConflicts(body: Json): string[] {
  const thinking = body.thinking as Json | undefined;
  if (!thinking || thinking.type === 'disabled') return [];
  const found: string[] = [];
  const lastAssistant = (body.messages as Json[]).findLast((m) => m.role === 'assistant');
  const blocks = Array.isArray(lastAssistant?.content) ? (lastAssistant.content as Json[]) : [];
  if (blocks.some((b) => b.type === 'tool_use') && blocks[0].type !== 'thinking' && blocks[0].type !== 'redacted_thinking') {
    found.push('tool calls without a thinking block');
  }
  const tc = body.tool_choice as Json | undefined;
  if (tc && (tc.type === 'any' || tc.type === 'tool')) found.push(`tool_choice ${String(tc.type)}`);
  if (typeof body.temperature === 'number' && body.temperature !== 1) found.push(`temperature ${body.temperature}`);
  if (typeof body.top_p === 'number' && body.top_p < 0.95) found.push(`top_p ${body.top_p}`);
  return found;
}

describe('thinking that Messages would reject', () => {
  const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }];

  it('Chat: a forced tool and temperature 0.2 are kept, thinking is left out, and the loss list says so', () => {
    const r = ok(
      translateRequest('chat', 'messages', { model: 'm', messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'high', temperature: 0.2, tools, tool_choice: 'required' }),
    );
    expect(r.body.tool_choice).toEqual({ type: 'any' });
    expect(r.body.temperature).toBe(0.2);
    expect(r.body).not.toHaveProperty('thinking');
    expect(r.body).not.toHaveProperty('output_config');
    const loss = lossAt(r.losses, 'reasoning_effort')!;
    expect(loss.kind).toBe('dropped');
    expect(loss.reason).toMatch(/forced tool call/);
    expect(loss.reason).toMatch(/temperature 0\.2/);
    expect(loss.reason).toMatch(/thinking .*is left out/);
  });

  it('Responses: a named tool choice is kept and thinking is left out', () => {
    const r = ok(
      translateRequest('responses', 'messages', {
        model: 'm',
        input: 'hi',
        reasoning: { effort: 'medium', summary: 'auto' },
        tool_choice: { type: 'function', name: 'f' },
        tools: [{ type: 'function', name: 'f', parameters: { type: 'object' }, strict: true }],
      }),
    );
    expect(r.body.tool_choice).toEqual({ type: 'tool', name: 'f' });
    expect(r.body).not.toHaveProperty('thinking');
    expect(lossAt(r.losses, 'reasoning.effort')).toMatchObject({ kind: 'dropped' });
    expect(lossAt(r.losses, 'reasoning.effort')!.reason).toMatch(/forced tool "f"/);
    expect(lossAt(r.losses, 'reasoning.summary')).toMatchObject({ kind: 'dropped' });
  });

  it('top_p below 0.95 rules thinking out; 0.97, temperature 1 and an auto tool choice do not', () => {
    const low = ok(translateRequest('chat', 'messages', { messages: [], max_completion_tokens: 50, reasoning_effort: 'low', top_p: 0.5 }));
    expect(low.body).not.toHaveProperty('thinking');
    expect(lossAt(low.losses, 'reasoning_effort')!.reason).toMatch(/top_p 0\.5/);
    const fine = ok(translateRequest('chat', 'messages', { messages: [], max_completion_tokens: 50, reasoning_effort: 'low', top_p: 0.97, temperature: 1, tools, tool_choice: 'auto' }));
    expect(fine.body.thinking).toEqual({ type: 'adaptive' });
    expect(fine.body.output_config).toEqual({ effort: 'low' });
    expect(lossAt(fine.losses, 'reasoning_effort')).toBeUndefined();
  });

  describe('a tool loop in progress, sent to the simulated gateway', () => {
    let sim: RunningSimulator;
    beforeAll(async () => {
      sim = await startSimulator({ port: 0, delayMs: 0 });
    });
    afterAll(async () => {
      await sim.close();
    });
    const send = async (body: Json): Promise<{ status: number; text: string }> => {
      const r = await fetch(`${sim.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': DEMO_KEY, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify(body),
      });
      return { status: r.status, text: await r.text() };
    };
    const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const chatLoop = [
      { role: 'user', content: 'What is the weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '18C' },
    ];
    const chatTools = [{ type: 'function', function: { name: 'get_weather', parameters: weather } }];

    it('the simulator rejects thinking when the assistant turn being answered has no thinking block', async () => {
      const r = ok(translateRequest('chat', 'messages', { model: 'claude-sim-sonnet', messages: chatLoop, tools: chatTools }));
      const res = await send({ ...r.body, thinking: { type: 'adaptive' }, output_config: { effort: 'low' } });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/must start with a thinking block/);
    });

    it('Responses: reasoning item, function call and output with an effort → thinking left out, named, and accepted', async () => {
      const r = ok(
        translateRequest('responses', 'messages', {
          model: 'claude-sim-sonnet',
          instructions: 'You are a coding agent.',
          input: [
            { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is the weather in Paris?' }] },
            { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'xyz' },
            { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { type: 'function_call_output', call_id: 'call_1', output: '18C' },
          ],
          tools: [{ type: 'function', name: 'get_weather', parameters: weather, strict: false }],
          reasoning: { effort: 'medium', summary: 'auto' },
          max_output_tokens: 2000,
        }),
      );
      expect(r.body).not.toHaveProperty('thinking');
      expect(r.body).not.toHaveProperty('output_config');
      const loss = lossAt(r.losses, 'reasoning.effort')!;
      expect(loss.kind).toBe('dropped');
      expect(loss.reason).toMatch(/tool calls of input\[2\] without the signed thinking block/);
      expect(loss.reason).toMatch(/thinking .*is left out/);
      expect(lossAt(r.losses, 'reasoning.summary')).toMatchObject({ kind: 'dropped' });
      expect((await send(r.body)).status).toBe(200);
    });

    it('Chat: assistant tool calls and a tool message with reasoning_effort → thinking left out, named, and accepted', async () => {
      const r = ok(translateRequest('chat', 'messages', { model: 'claude-sim-sonnet', messages: chatLoop, tools: chatTools, reasoning_effort: 'low' }));
      expect(r.body).not.toHaveProperty('thinking');
      expect(lossAt(r.losses, 'reasoning_effort')).toMatchObject({ kind: 'dropped' });
      expect(lossAt(r.losses, 'reasoning_effort')!.reason).toMatch(/tool calls of messages\[1\]/);
      expect((await send(r.body)).status).toBe(200);
    });

    it('a finished tool loop followed by a new question keeps thinking, as only the last assistant turn needs the block', async () => {
      const messages = [...chatLoop, { role: 'assistant', content: 'It is 18C in Paris.' }, { role: 'user', content: 'And in Oslo?' }];
      const r = ok(translateRequest('chat', 'messages', { model: 'claude-sim-sonnet', messages, tools: chatTools, reasoning_effort: 'low' }));
      expect(r.body.thinking).toEqual({ type: 'adaptive' });
      expect(lossAt(r.losses, 'reasoning_effort')).toBeUndefined();
      expect((await send(r.body)).status).toBe(200);
    });
  });

  it('no translation into Messages, over the whole corpus, sends thinking Messages would reject', () => {
    for (const entry of TRANSLATE_CORPUS.filter((e) => e.protocol !== 'messages')) {
      const r = ok(translateRequest(entry.protocol, 'messages', entry.body));
      expect(thinkingConflicts(r.body), entry.name).toEqual([]);
    }
  });
});

describe('round trips add nothing the loss list does not name', () => {
  const base = { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };

  for (const via of ['chat', 'responses'] as const) {
    it(`Messages effort without thinking → ${via} → back: thinking is not switched on, and the effort's fate is named`, () => {
      const original = { ...base, output_config: { effort: 'low' } };
      const there = ok(translateRequest('messages', via, original));
      const back = ok(translateRequest(via, 'messages', there.body));
      expect(back.body).not.toHaveProperty('thinking');
      expect(lossAt(there.losses, 'output_config.effort')).toMatchObject({ kind: 'dropped' });
      expect(addedLeaves(original, back.body, there.losses)).toEqual([]);
    });

    it(`Messages adaptive thinking alone → ${via} → back comes back exactly`, () => {
      const original = { ...base, thinking: { type: 'adaptive' } };
      const there = ok(translateRequest('messages', via, original));
      expect(there.losses).toEqual([]);
      expect(ok(translateRequest(via, 'messages', there.body)).body).toEqual(original);
    });

    it(`Messages adaptive thinking with effort "high" → ${via}: the loss list says the explicit effort does not come back`, () => {
      const original = { ...base, thinking: { type: 'adaptive' }, output_config: { effort: 'high' } };
      const there = ok(translateRequest('messages', via, original));
      expect(lossAt(there.losses, 'output_config.effort')).toMatchObject({ kind: 'changed' });
      expect(ok(translateRequest(via, 'messages', there.body)).body).toEqual({ ...base, thinking: { type: 'adaptive' } });
    });
  }

  it('Chat reasoning effort "high" → Messages → back comes back exactly', () => {
    const original = { model: 'm', messages: [{ role: 'user', content: 'hi' }], max_completion_tokens: 100, reasoning_effort: 'high' };
    const there = ok(translateRequest('chat', 'messages', original));
    expect(there.body.thinking).toEqual({ type: 'adaptive' });
    expect(ok(translateRequest('messages', 'chat', there.body)).body).toEqual(original);
  });

  for (const via of ['chat', 'messages'] as const) {
    it(`a Responses tool without strict → ${via} keeps its schema enforced, and the loss list names the strict: true it comes back with`, () => {
      const original = { model: 'm', input: [{ type: 'message', role: 'user', content: 'hi' }], tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: {} } }] };
      const there = ok(translateRequest('responses', via, original));
      const tool = (there.body.tools as Json[])[0];
      expect(via === 'chat' ? (tool.function as Json).strict : tool.strict).toBe(true);
      expect(lossAt(there.losses, 'tools[0]')!.reason).toMatch(/strict: true/);
      const back = ok(translateRequest(via, 'responses', there.body));
      expect((back.body.tools as Json[])[0].strict).toBe(true);
      expect(addedLeaves(original, back.body, there.losses)).toEqual([]);
    });

    it(`Responses tools with an explicit strict → ${via} → back come back exactly, with no loss`, () => {
      const original = {
        model: 'm',
        input: [{ type: 'message', role: 'user', content: 'hi' }],
        max_output_tokens: 100,
        tools: [
          { type: 'function', name: 'f', parameters: { type: 'object' }, strict: true },
          { type: 'function', name: 'g', parameters: { type: 'object' }, strict: false },
        ],
      };
      const there = ok(translateRequest('responses', via, original));
      expect(there.losses.filter((l) => l.path.startsWith('tools'))).toEqual([]);
      expect(ok(translateRequest(via, 'responses', there.body)).body).toEqual(original);
    });
  }

  it('a Chat tool without strict → Responses gets strict: false (Chat behaviour), named because it comes back', () => {
    const original = { model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] };
    const there = ok(translateRequest('chat', 'responses', original));
    expect((there.body.tools as Json[])[0].strict).toBe(false);
    expect(lossAt(there.losses, 'tools[0].function')!.reason).toMatch(/strict: false/);
    const back = ok(translateRequest('responses', 'chat', there.body));
    expect(addedLeaves(original, back.body, there.losses)).toEqual([]);
  });
});
