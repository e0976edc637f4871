import { describe, expect, it } from 'vitest';
import type { ProtocolId, Transcript } from '../../../../shared/protocols/types';
import { bodyToSend } from '../composer/body-to-send';
import { branchedAt, editedMessage, keepTurns, shownVariant, turnCount, withReplyAt } from './conversation-edits';
import { messagesOf } from './messages-view';
import { ROUNDS } from '../../test/conversation-rounds';

type Body = Record<string, unknown>;
const PROTOCOLS: ProtocolId[] = ['messages', 'chat', 'responses'];
const round = (p: ProtocolId) => structuredClone(ROUNDS[p]) as unknown as Body;
const reply: Transcript = {
  blocks: [
    { kind: 'text', text: 'Here is a call.' },
    { kind: 'tool_call', id: 'c9', name: 'lookup', argsText: '{"q":1}', args: { q: 1 }, complete: true },
  ],
  usage: {},
};

describe('Edit: the message changes in place and what came after is set aside', () => {
  for (const protocol of PROTOCOLS) {
    it(`${protocol}: editing the first user message keeps its image and drops every later turn`, () => {
      const body = round(protocol);
      const first = messagesOf(protocol, body)[0];
      const next = editedMessage(protocol, body, first, 'Only the picture, please.');
      const ms = messagesOf(protocol, next);
      expect(ms).toHaveLength(1);
      expect(ms[0].parts.map((p) => p.kind)).toEqual(['text', 'image']);
      expect(ms[0].parts[0]).toEqual({ kind: 'text', text: 'Only the picture, please.' });
      // Everything but the turns stays: the model, Chat's system prompt.
      expect(next.model).toBe('m');
      if (protocol === 'chat') expect((next.messages as Body[])[0]).toEqual({ role: 'system', content: 'Be brief.' });
    });

    it(`${protocol}: editing the last answer keeps all before it`, () => {
      const body = round(protocol);
      const ms = messagesOf(protocol, body);
      const next = editedMessage(protocol, body, ms[3], 'Warm.');
      expect(messagesOf(protocol, next).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(messagesOf(protocol, next)[3].parts).toEqual([{ kind: 'text', text: 'Warm.' }]);
    });
  }

  it('a message with no single text is left as it is', () => {
    const body = round('messages');
    expect(editedMessage('messages', body, messagesOf('messages', body)[1], 'x')).toBe(body);
  });
});

describe('Branch: the conversation up to and including the message', () => {
  for (const protocol of PROTOCOLS) {
    it(`${protocol}: at the tool call keeps the call, not its result`, () => {
      const body = round(protocol);
      const next = branchedAt(protocol, body, messagesOf(protocol, body)[1]);
      expect(messagesOf(protocol, next).map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(turnCount(protocol, next)).toBe(protocol === 'responses' ? 4 : 2);
    });
  }
});

describe('the open reply joins the conversation at its place when Send adds to it', () => {
  for (const protocol of PROTOCOLS) {
    it(`${protocol}: new words after a reply carry the reply (with its call) before them`, () => {
      const body = keepTurns(protocol, round(protocol), 1);
      const open = { runId: 'r1', at: 1, transcript: reply };
      const sent = bodyToSend(protocol, body, 'Go on', open);
      const ms = messagesOf(protocol, sent);
      expect(ms.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(ms[1].parts).toContainEqual(expect.objectContaining({ kind: 'tool_call', name: 'lookup' }));
    });

    it(`${protocol}: an empty Message box asks the same request again, without the reply`, () => {
      const body = keepTurns(protocol, round(protocol), 1);
      expect(bodyToSend(protocol, body, '  ', { runId: 'r1', at: 1, transcript: reply })).toBe(body);
    });

    it(`${protocol}: a turn added after the reply (an image) comes after it`, () => {
      const body = round(protocol);
      const at = turnCount(protocol, keepTurns(protocol, body, 1));
      const joined = withReplyAt(protocol, keepTurns(protocol, body, 1), at, reply);
      const withImage = withReplyAt(protocol, body, 1, reply);
      expect(turnCount(protocol, withImage)).toBe(turnCount(protocol, body) + turnCount(protocol, joined) - 1);
      expect(messagesOf(protocol, withImage)[1].parts[0]).toEqual({ kind: 'text', text: 'Here is a call.' });
    });
  }
});

describe('Regenerate: which reply is shown', () => {
  const body = keepTurns('chat', round('chat'), 1);
  const old = [{ role: 'assistant', content: 'First answer.' }];
  const variants = { at: 1, items: [{ turns: old }, { runId: 'r2' }] };

  it('the run on view, while its reply is not in the body: "2 of 2"', () => {
    expect(shownVariant('chat', body, variants, 'r2')).toBe(1);
  });
  it('the turns that end the body: "1 of 2"', () => {
    const withOld = { ...body, messages: [...(body.messages as unknown[]), ...old] };
    expect(shownVariant('chat', withOld, variants, undefined)).toBe(0);
  });
  it('none, once the conversation moved on', () => {
    const moved = { ...body, messages: [...(body.messages as unknown[]), { role: 'assistant', content: 'Other.' }] };
    expect(shownVariant('chat', moved, variants, 'r2')).toBe(-1);
  });
});
