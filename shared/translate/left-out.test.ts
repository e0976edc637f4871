import { describe, expect, it } from 'vitest';
import { translateRequest, type Loss } from './index';
import { corpus, covers, ok, lossAt, type Json } from './test-kit';
import type { ProtocolId } from '../protocols/types';

/** The entries listed at exactly that path. */
function at(losses: Loss[], path: string): Loss[] {
  return losses.filter((l) => l.path === path);
}

/** Role and content of each message, as the target receives them. */
function turns(body: Json, key = 'messages'): Json[] {
  return (body[key] as Json[]).map((m) => ({ role: m.role, content: m.content }));
}

const cutOff = 'messages: a reply cut off while thinking, then asked again';

describe('an assistant turn with nothing left to send is left out, and listed as lost at the turn', () => {
  it('Messages, only thinking → Chat: no assistant message without content or tool calls (Chat rejects one)', () => {
    const r = corpus(cutOff, 'chat');
    expect(turns(r.body)).toEqual([
      { role: 'user', content: 'Is 391 prime? Show the factors.' },
      { role: 'user', content: 'Go on.' },
    ]);
    expect(at(r.losses, 'messages[1]')).toEqual([
      { path: 'messages[1]', kind: 'lost', reason: expect.stringMatching(/neither content nor tool calls/) },
    ]);
    // The thinking block keeps its own entry: the turn's entry says what became of the turn.
    expect(lossAt(r.losses, 'messages[1].content[0]')).toMatchObject({ kind: 'lost' });
  });

  it('the same turn → Responses is listed at the turn too, with Responses’ reason', () => {
    const r = corpus(cutOff, 'responses');
    expect((r.body.input as Json[]).map((i) => i.role)).toEqual(['user', 'user']);
    expect(at(r.losses, 'messages[1]')).toEqual([
      { path: 'messages[1]', kind: 'lost', reason: expect.stringMatching(/Responses has no empty message/) },
    ]);
  });

  it('a final turn of only thinking is lost, not also called a prefill', () => {
    for (const to of ['chat', 'responses'] as const) {
      const r = ok(
        translateRequest('messages', to, {
          max_tokens: 100,
          messages: [
            { role: 'user', content: 'Q' },
            { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'EmwKAhgBEgy3va…' }] },
          ],
        }),
      );
      expect(
        at(r.losses, 'messages[1]').map((l) => l.kind),
        to,
      ).toEqual(['lost']);
    }
  });

  it('a Chat assistant message with only a refusal → Messages: left out, not sent as empty text', () => {
    const r = ok(
      translateRequest('chat', 'messages', {
        max_completion_tokens: 50,
        messages: [
          { role: 'user', content: 'Tell me a secret.' },
          { role: 'assistant', content: null, refusal: "I can't share that." },
          { role: 'user', content: 'A joke, then.' },
        ],
      }),
    );
    // Messages merges the two user turns upstream (docs/protocols.md §1.2).
    expect(turns(r.body)).toEqual([
      { role: 'user', content: 'Tell me a secret.' },
      { role: 'user', content: 'A joke, then.' },
    ]);
    expect(lossAt(r.losses, 'messages[1].refusal')).toMatchObject({ kind: 'lost' });
    expect(at(r.losses, 'messages[1]')).toEqual([
      { path: 'messages[1]', kind: 'lost', reason: expect.stringMatching(/Messages rejects an empty turn/) },
    ]);
  });

  it('a Chat assistant message of empty text → Messages (which rejects empty content) is left out', () => {
    const r = ok(
      translateRequest('chat', 'messages', {
        max_completion_tokens: 50,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: '' },
          { role: 'user', content: 'hello?' },
        ],
      }),
    );
    expect((r.body.messages as Json[]).map((m) => m.role)).toEqual(['user', 'user']);
    expect(lossAt(r.losses, 'messages[1]')).toMatchObject({ kind: 'lost' });
  });

  it('a Responses assistant message with no content → Chat is left out', () => {
    const r = ok(
      translateRequest('responses', 'chat', {
        input: [
          { role: 'user', content: 'hi' },
          { type: 'message', role: 'assistant', content: [] },
          { role: 'user', content: 'hello?' },
        ],
      }),
    );
    expect(turns(r.body)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'user', content: 'hello?' },
    ]);
    expect(lossAt(r.losses, 'input[1]')).toMatchObject({ kind: 'lost' });
  });

  it('an assistant turn with a tool call and no text is still sent, in every target', () => {
    const r = corpus('chat: tool loop with two calls, results and a follow-up', 'messages');
    expect((r.body.messages as Json[])[1]).toMatchObject({ role: 'assistant' });
    for (const to of ['chat', 'responses'] as const) {
      const m = corpus('messages: budgeted thinking with signed thinking blocks in history', to);
      expect(
        m.losses.filter((l) => l.path === 'messages[1]'),
        to,
      ).toEqual([]);
    }
  });
});

describe('a json_schema output format without a schema → Messages, whose structured output needs one', () => {
  const cases: [ProtocolId, string, string][] = [
    ['chat', 'chat: a JSON schema format that names no schema', 'response_format'],
    ['responses', 'responses: a JSON schema text format that names no schema', 'text.format'],
  ];

  for (const [from, name, path] of cases) {
    it(`${from}: no output_config is sent, and the one entry at ${path} says why`, () => {
      const r = corpus(name, 'messages');
      expect(r.body).not.toHaveProperty('output_config');
      // The name, description and strict flag go with the format: one entry, not one per field.
      expect(r.losses.filter((l) => covers(path, l.path))).toEqual([
        { path, kind: 'lost', reason: expect.stringMatching(/needs one.*Add the schema/) },
      ]);
    });
  }

  it('a schema given as null is no schema either', () => {
    const r = ok(
      translateRequest('chat', 'messages', {
        messages: [{ role: 'user', content: 'hi' }],
        response_format: { type: 'json_schema', json_schema: { name: 'a', schema: null } },
      }),
    );
    expect(r.body).not.toHaveProperty('output_config');
    expect(lossAt(r.losses, 'response_format')).toMatchObject({ kind: 'lost' });
  });

  it('between Chat and Responses the format is carried as it is, with no schema key made up', () => {
    const r = corpus('responses: a JSON schema text format that names no schema', 'chat');
    expect(r.body.response_format).toStrictEqual({
      type: 'json_schema',
      json_schema: { name: 'answer', description: 'The pick', strict: true },
    });
    expect(r.losses.filter((l) => covers('text', l.path))).toEqual([]);
  });
});
