import { describe, expect, it } from 'vitest';
import { PNG, ROUNDS } from '../../test/conversation-rounds';
import { messagesOf, messageText } from './messages-view';

describe('messagesOf: a body read as messages', () => {
  for (const protocol of ['messages', 'chat', 'responses'] as const) {
    it(`${protocol}: user with image, assistant with its call, the tool result, the answer`, () => {
      const ms = messagesOf(protocol, ROUNDS[protocol] as unknown as Record<string, unknown>);
      expect(ms.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(ms[0].parts).toContainEqual({ kind: 'image', src: `data:image/png;base64,${PNG}` });
      expect(ms[0].editTurn).toBe(0);
      const call = ms[1].parts.find((p) => p.kind === 'tool_call');
      expect(call).toMatchObject({ name: 'get_weather' });
      expect(JSON.parse((call as { args: string }).args)).toEqual({ city: 'Paris' });
      expect(ms[2].parts).toEqual([expect.objectContaining({ kind: 'tool_result', output: '18°C' })]);
      expect(messageText(ms[3])).toBe('It is 18°C in Paris.');
    });
  }

  it('messages and responses: the thinking is a part of its own (shown folded)', () => {
    for (const protocol of ['messages', 'responses'] as const) {
      const ms = messagesOf(protocol, ROUNDS[protocol] as unknown as Record<string, unknown>);
      expect(ms[1].parts[0]).toEqual({ kind: 'thinking', text: 'Look first, then call.' });
    }
  });

  it('responses: the reply of several items is one message covering them all, its one text editable', () => {
    const ms = messagesOf('responses', ROUNDS.responses as unknown as Record<string, unknown>);
    expect(ms[1]).toMatchObject({ turn: 1, span: 3, editTurn: 2 });
    expect(ms[3]).toMatchObject({ turn: 5, span: 1 });
  });

  it('chat: the system turn is not a message; turns count from after it', () => {
    const ms = messagesOf('chat', ROUNDS.chat as unknown as Record<string, unknown>);
    expect(ms[0].turn).toBe(0);
    expect(messageText(ms[0])).not.toContain('Be brief');
  });

  it('a call with text beside it cannot be edited as text only when there are several texts', () => {
    const ms = messagesOf('messages', ROUNDS.messages as unknown as Record<string, unknown>);
    // Thinking, text and a call: the form has no single text for it, so Edit is not offered.
    expect(ms[1].editTurn).toBeUndefined();
    expect(ms[3].editTurn).toBe(3);
  });

  it('responses: a plain string input is one user message', () => {
    expect(messagesOf('responses', { input: 'hi' })).toEqual([
      { role: 'user', parts: [{ kind: 'text', text: 'hi' }], turn: 0, span: 1, editTurn: 0 },
    ]);
  });
});
