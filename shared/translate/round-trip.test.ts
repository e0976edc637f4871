import { describe, expect, it } from 'vitest';
import { translateRequest } from './index';
import { ok, lossAt, valueAt, unchangedLeaves, addedLeaves, type Json } from './test-kit';
import { TRANSLATE_CORPUS } from './corpus';
import { PROTOCOL_IDS } from '../protocols/types';

describe('round trips over the corpus', () => {
  it('has at least 20 requests, several per protocol', () => {
    expect(TRANSLATE_CORPUS.length).toBeGreaterThanOrEqual(20);
    for (const p of PROTOCOL_IDS)
      expect(TRANSLATE_CORPUS.filter((e) => e.protocol === p).length).toBeGreaterThanOrEqual(6);
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
          if (loss.kind === 'added' && loss.to === 'max_tokens') continue;
          expect(valueAt(entry.body, loss.path), loss.path).not.toBeUndefined();
          expect(loss.reason.length).toBeGreaterThan(10);
        }
      });
    }
  }

  it('the checker itself notices a value that did not come back', () => {
    const problems = unchangedLeaves({ a: { b: [1, 2] }, c: 'x' }, { a: { b: [1, 3] }, c: 'x' }, []);
    expect(problems).toEqual(['a.b[1]: sent 2, came back 3 at a.b[1]']);
    expect(
      unchangedLeaves({ a: { b: [1, 2] } }, { a: { b: [1] } }, [{ path: 'a.b[1]', kind: 'changed', reason: 'r' }]),
    ).toEqual([]);
    expect(unchangedLeaves({ l: [1, 2, 3] }, { l: [1, 3] }, [{ path: 'l[1]', kind: 'lost', reason: 'r' }])).toEqual([]);
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
      expect(lossAt(there.losses, 'output_config.effort')).toMatchObject({ kind: 'lost' });
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
      expect(ok(translateRequest(via, 'messages', there.body)).body).toEqual({
        ...base,
        thinking: { type: 'adaptive' },
      });
    });
  }

  it('Chat reasoning effort "high" → Messages → back comes back exactly', () => {
    const original = {
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      max_completion_tokens: 100,
      reasoning_effort: 'high',
    };
    const there = ok(translateRequest('chat', 'messages', original));
    expect(there.body.thinking).toEqual({ type: 'adaptive' });
    expect(ok(translateRequest('messages', 'chat', there.body)).body).toEqual(original);
  });

  for (const via of ['chat', 'messages'] as const) {
    it(`a Responses tool without strict → ${via} keeps its schema enforced, and the loss list names the strict: true it comes back with`, () => {
      const original = {
        model: 'm',
        input: [{ type: 'message', role: 'user', content: 'hi' }],
        tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: {} } }],
      };
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
    const original = {
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    };
    const there = ok(translateRequest('chat', 'responses', original));
    expect((there.body.tools as Json[])[0].strict).toBe(false);
    expect(lossAt(there.losses, 'tools[0].function')!.reason).toMatch(/strict: false/);
    const back = ok(translateRequest('responses', 'chat', there.body));
    expect(addedLeaves(original, back.body, there.losses)).toEqual([]);
  });
});
