import { describe, expect, it } from 'vitest';
import {
  capabilityApplies,
  guardReport,
  requiredCapabilities,
  type CapabilityResult,
  type CapabilityId,
} from './capabilities';

const ids = (caps: { capability: CapabilityId }[]) => caps.map((c) => c.capability);

function result(
  partial: Partial<CapabilityResult> & Pick<CapabilityResult, 'capability' | 'outcome'>,
): CapabilityResult {
  return {
    model: 'm',
    protocol: 'responses',
    message: 'msg',
    evidence: { runIds: ['run_1'], fields: {}, explanation: 'why' },
    at: '2026-01-01T00:00:00.000Z',
    attempts: 1,
    durationMs: 5,
    ...partial,
  };
}

describe('requiredCapabilities', () => {
  it('finds nothing in a plain request', () => {
    expect(
      requiredCapabilities('messages', { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    ).toEqual([]);
    expect(requiredCapabilities('chat', null)).toEqual([]);
  });

  it('reads the Messages markers: tools, cache_control, thinking, images, output_config.format, stream', () => {
    const body = {
      model: 'm',
      stream: true,
      system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
      thinking: { type: 'adaptive' },
      output_config: { format: { type: 'json_schema', schema: {} } },
      tools: [{ name: 't', input_schema: { type: 'object' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA' } },
            { type: 'text', text: 'x' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 't', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'ok' }] },
      ],
    };
    const caps = requiredCapabilities('messages', body);
    expect(ids(caps)).toEqual([
      'streaming',
      'tools',
      'tool-roundtrip',
      'caching',
      'thinking',
      'vision',
      'structured-output',
    ]);
    expect(caps.find((c) => c.capability === 'caching')?.because).toBe('1 cache_control mark');
    expect(caps.find((c) => c.capability === 'tools')?.because).toBe('1 tool in tools[]');
  });

  it('reads the Chat markers: image_url, reasoning_effort, response_format, tool messages, prompt_cache_key', () => {
    const body = {
      model: 'm',
      reasoning_effort: 'high',
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: {} } },
      prompt_cache_key: 'k',
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 't', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c', content: 'ok' },
      ],
    };
    expect(ids(requiredCapabilities('chat', body))).toEqual([
      'tools',
      'tool-roundtrip',
      'caching',
      'thinking',
      'vision',
      'structured-output',
    ]);
  });

  it('reads the Responses markers: input_image, reasoning, text.format, background, function_call_output', () => {
    const body = {
      model: 'm',
      background: true,
      reasoning: { effort: 'low' },
      text: { format: { type: 'json_schema', name: 'p', schema: {} } },
      input: [
        { role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png;base64,AA' }] },
        { type: 'function_call', call_id: 'c', name: 't', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c', output: 'ok' },
      ],
    };
    expect(ids(requiredCapabilities('responses', body))).toEqual([
      'tools',
      'tool-roundtrip',
      'thinking',
      'vision',
      'structured-output',
      'background',
    ]);
  });

  it('ignores switched-off features', () => {
    expect(requiredCapabilities('messages', { thinking: { type: 'disabled' }, tools: [] })).toEqual([]);
    expect(requiredCapabilities('chat', { reasoning_effort: 'none', stream: false })).toEqual([]);
    expect(
      requiredCapabilities('responses', { reasoning: { effort: 'none' }, text: { format: { type: 'text' } } }),
    ).toEqual([]);
  });

  it('finds a body in another protocol’s shape (a request brought over before translation)', () => {
    const messagesBody = {
      tools: [{ name: 't', input_schema: {} }],
      thinking: { type: 'enabled', budget_tokens: 2048 },
    };
    expect(ids(requiredCapabilities('chat', messagesBody))).toEqual(['tools', 'thinking']);
  });

  it('survives a deeply nested or huge body', () => {
    let deep: unknown = { type: 'image' };
    for (let i = 0; i < 5000; i++) deep = [deep];
    expect(ids(requiredCapabilities('messages', { messages: [{ role: 'user', content: deep }] }))).toEqual(['vision']);
  });
});

describe('capabilityApplies', () => {
  it('keeps token counting on Messages and background on Responses', () => {
    expect(capabilityApplies('messages', 'token-counting')).toBe(true);
    expect(capabilityApplies('chat', 'token-counting')).toBe(false);
    expect(capabilityApplies('responses', 'background')).toBe(true);
    expect(capabilityApplies('messages', 'background')).toBe(false);
  });
});

describe('guardReport', () => {
  const now = new Date('2026-01-01T01:00:00.000Z');
  const toolBody = {
    model: 'm',
    tools: [{ type: 'function', name: 'get_weather', parameters: {} }],
    reasoning: { effort: 'high' },
    stream: true,
  };

  it('warns when a tool-using request goes where tools are not proven, and lists the unknown capabilities', () => {
    const caps = requiredCapabilities('responses', toolBody);
    const report = guardReport(
      { model: 'm', protocol: 'responses' },
      caps,
      [
        result({
          capability: 'tools',
          outcome: 'not-supported',
          message: 'HTTP 200 with a plain text reply and no tool call: the tools were ignored.',
        }),
        result({ capability: 'streaming', outcome: 'proven', message: '40 deltas' }),
      ],
      now,
    );
    expect(report.items.map((i) => [i.capability, i.state])).toEqual([
      ['streaming', 'proven'],
      ['tools', 'not-supported'],
      ['thinking', 'unknown'],
    ]);
    const tools = report.items.find((i) => i.capability === 'tools');
    expect(tools).toMatchObject({ runId: 'run_1', ageMs: 3_600_000, outcome: 'not-supported' });
    expect(report.unknown).toEqual(['thinking']);
    expect(report.warnings).toHaveLength(2);
    expect(report.warnings[0]).toMatch(
      /^Tool calls: the request uses it \(1 tool in tools\[\]\), but it is not supported by m on Responses: .*tools were ignored \(probed 1 h ago, run run_1\)\.$/,
    );
    expect(report.warnings[1]).toBe(
      'Not proven for m on Responses: thinking / reasoning. A 200 would not show whether they work.',
    );
    for (const w of report.warnings) expect(w.length).toBeLessThanOrEqual(500);
  });

  it('treats an error or inconclusive probe as unknown, keeping its status in the warning', () => {
    const report = guardReport(
      { model: 'm', protocol: 'responses' },
      requiredCapabilities('responses', { tools: [{}] }),
      [
        result({
          capability: 'tools',
          outcome: 'error',
          status: 404,
          message: 'HTTP 404 not_found_error: no such model',
        }),
      ],
      now,
    );
    expect(report.items[0]).toMatchObject({ state: 'unknown', status: 404 });
    expect(report.unknown).toEqual(['tools']);
    expect(report.warnings[0]).toContain('tool calls: last probe error 404');
  });

  it('only uses results for the target model and protocol', () => {
    const report = guardReport(
      { model: 'm', protocol: 'chat' },
      requiredCapabilities('chat', { tools: [{}] }),
      [
        result({ capability: 'tools', outcome: 'proven', protocol: 'messages' }),
        result({ capability: 'tools', outcome: 'proven', model: 'other', protocol: 'chat' }),
      ],
      now,
    );
    expect(report.items[0].state).toBe('unknown');
  });

  it('has no warnings when everything the request uses is proven', () => {
    const report = guardReport(
      { model: 'm', protocol: 'responses' },
      requiredCapabilities('responses', { tools: [{}] }),
      [result({ capability: 'tools', outcome: 'proven' })],
      now,
    );
    expect(report.warnings).toEqual([]);
    expect(report.unknown).toEqual([]);
  });

  it('says a capability the target protocol lacks is dropped, and that a background result cannot be fetched', () => {
    const lost = guardReport(
      { model: 'm', protocol: 'chat' },
      requiredCapabilities('responses', { background: true }),
      [],
      now,
    );
    expect(lost.items[0]).toMatchObject({ capability: 'background', state: 'not-supported' });
    expect(lost.warnings[0]).toContain('has no equivalent');

    const accepted = guardReport(
      { model: 'm', protocol: 'responses' },
      requiredCapabilities('responses', { background: true }),
      [
        result({
          capability: 'background',
          outcome: 'proven',
          evidence: { runIds: ['run_9'], fields: { retrieval: 'unsupported' }, explanation: '' },
        }),
      ],
      now,
    );
    expect(accepted.items[0].state).toBe('proven');
    expect(accepted.warnings[0]).toContain('five endpoints include no way to fetch the result');
  });
});
