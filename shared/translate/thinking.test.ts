import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, startSimulator, type RunningSimulator } from '../../electron/core/simulator';
import { translateRequest } from './index';
import { ok, lossAt, type Json } from './test-kit';
import { TRANSLATE_CORPUS } from './corpus';

/**
 * What Messages rejects (docs/protocols.md §1.5): thinking beside a forced tool, temperature ≠ 1, top_p below 0.95,
 * or a last assistant turn with tool calls that does not open with a thinking block.
 */
function thinkingConflicts(body: Json): string[] {
  const thinking = body.thinking as Json | undefined;
  if (!thinking || thinking.type === 'disabled') return [];
  const found: string[] = [];
  const lastAssistant = (body.messages as Json[]).findLast((m) => m.role === 'assistant');
  const blocks = Array.isArray(lastAssistant?.content) ? (lastAssistant.content as Json[]) : [];
  if (
    blocks.some((b) => b.type === 'tool_use') &&
    blocks[0].type !== 'thinking' &&
    blocks[0].type !== 'redacted_thinking'
  ) {
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
      translateRequest('chat', 'messages', {
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
        reasoning_effort: 'high',
        temperature: 0.2,
        tools,
        tool_choice: 'required',
      }),
    );
    expect(r.body.tool_choice).toEqual({ type: 'any' });
    expect(r.body.temperature).toBe(0.2);
    expect(r.body).not.toHaveProperty('thinking');
    expect(r.body).not.toHaveProperty('output_config');
    const loss = lossAt(r.losses, 'reasoning_effort')!;
    expect(loss.kind).toBe('lost');
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
    expect(lossAt(r.losses, 'reasoning.effort')).toMatchObject({ kind: 'lost' });
    expect(lossAt(r.losses, 'reasoning.effort')!.reason).toMatch(/forced tool "f"/);
    expect(lossAt(r.losses, 'reasoning.summary')).toMatchObject({ kind: 'lost' });
  });

  it('top_p below 0.95 rules thinking out; 0.97, temperature 1 and an auto tool choice do not', () => {
    const low = ok(
      translateRequest('chat', 'messages', {
        messages: [],
        max_completion_tokens: 50,
        reasoning_effort: 'low',
        top_p: 0.5,
      }),
    );
    expect(low.body).not.toHaveProperty('thinking');
    expect(lossAt(low.losses, 'reasoning_effort')!.reason).toMatch(/top_p 0\.5/);
    const fine = ok(
      translateRequest('chat', 'messages', {
        messages: [],
        max_completion_tokens: 50,
        reasoning_effort: 'low',
        top_p: 0.97,
        temperature: 1,
        tools,
        tool_choice: 'auto',
      }),
    );
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
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18C' },
    ];
    const chatTools = [{ type: 'function', function: { name: 'get_weather', parameters: weather } }];

    it('the simulator rejects thinking when the assistant turn being answered has no thinking block', async () => {
      const r = ok(
        translateRequest('chat', 'messages', { model: 'claude-sim-sonnet', messages: chatLoop, tools: chatTools }),
      );
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
      expect(loss.kind).toBe('lost');
      expect(loss.reason).toMatch(/tool calls of input\[2\] without the signed thinking block/);
      expect(loss.reason).toMatch(/thinking .*is left out/);
      expect(lossAt(r.losses, 'reasoning.summary')).toMatchObject({ kind: 'lost' });
      expect((await send(r.body)).status).toBe(200);
    });

    it('Chat: assistant tool calls and a tool message with reasoning_effort → thinking left out, named, and accepted', async () => {
      const r = ok(
        translateRequest('chat', 'messages', {
          model: 'claude-sim-sonnet',
          messages: chatLoop,
          tools: chatTools,
          reasoning_effort: 'low',
        }),
      );
      expect(r.body).not.toHaveProperty('thinking');
      expect(lossAt(r.losses, 'reasoning_effort')).toMatchObject({ kind: 'lost' });
      expect(lossAt(r.losses, 'reasoning_effort')!.reason).toMatch(/tool calls of messages\[1\]/);
      expect((await send(r.body)).status).toBe(200);
    });

    it('a finished tool loop followed by a new question keeps thinking, as only the last assistant turn needs the block', async () => {
      const messages = [
        ...chatLoop,
        { role: 'assistant', content: 'It is 18C in Paris.' },
        { role: 'user', content: 'And in Oslo?' },
      ];
      const r = ok(
        translateRequest('chat', 'messages', {
          model: 'claude-sim-sonnet',
          messages,
          tools: chatTools,
          reasoning_effort: 'low',
        }),
      );
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
