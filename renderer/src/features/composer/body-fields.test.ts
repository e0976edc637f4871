import { describe, expect, it } from 'vitest';
import {
  addImage,
  getSystem,
  getTurns,
  numberText,
  removeAttachment,
  setField,
  setStops,
  setStream,
  setSystem,
  setSystemCached,
  setTurnCached,
  setTurnText,
  stopsText,
  systemCached,
} from './body-fields';

describe('form ↔ body: the form edits known fields and keeps every other field as typed', () => {
  const messages = {
    model: 'm',
    max_tokens: 10,
    messages: [{ role: 'user', content: 'hi' }],
    x_gateway_route: 'blue',
    metadata: { user_id: 'u1' },
  };

  it('keeps unknown fields through every form edit', () => {
    let b: Record<string, unknown> = messages;
    b = setSystem('messages', b, 'be brief');
    b = setTurnText('messages', b, 0, 'hello');
    b = setField(b, 'temperature', 0.5);
    b = setStops('messages', b, 'END\nSTOP');
    expect(b).toMatchObject({
      x_gateway_route: 'blue',
      metadata: { user_id: 'u1' },
      system: 'be brief',
      temperature: 0.5,
      stop_sequences: ['END', 'STOP'],
    });
    expect(b.messages).toEqual([{ role: 'user', content: 'hello' }]);
    expect(messages.messages[0].content).toBe('hi');
  });

  it('removes a field cleared in the form instead of sending an empty value', () => {
    expect(setField({ a: 1, temperature: 1 }, 'temperature', undefined)).toEqual({ a: 1 });
    expect(setStops('chat', { stop: ['x'] }, '')).toEqual({});
  });

  it("reads and writes the system prompt in each protocol's own place", () => {
    expect(setSystem('chat', { messages: [{ role: 'user', content: 'q' }] }, 'sys').messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'q' },
    ]);
    expect(getSystem('chat', { messages: [{ role: 'developer', content: 'dev' }] })).toEqual({
      text: 'dev',
      editable: true,
    });
    expect(setSystem('responses', { input: 'x' }, 'inst')).toEqual({ input: 'x', instructions: 'inst' });
    const chatTurns = getTurns('chat', {
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
      ],
    });
    expect(chatTurns).toEqual([{ role: 'user', text: 'u', images: [], documents: [], summary: 'u', cached: false }]);
  });

  it('puts cache_control marks on the system prompt and on a turn, and takes them off', () => {
    const cached = setSystemCached({ system: 'long', messages: [] }, true);
    expect(cached.system).toEqual([{ type: 'text', text: 'long', cache_control: { type: 'ephemeral' } }]);
    expect(systemCached(cached)).toBe(true);
    expect(setSystemCached(cached, false).system).toBe('long');
    const turn = setTurnCached({ messages: [{ role: 'user', content: 'q' }] }, 0, true);
    expect(turn.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q', cache_control: { type: 'ephemeral' } }] },
    ]);
    expect(getTurns('messages', turn)[0].cached).toBe(true);
  });

  it("adds an image in the protocol's part shape to the last user turn", () => {
    expect(addImage('messages', { messages: [{ role: 'user', content: 'see' }] }, 'image/png', 'AAA').messages).toEqual(
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'see' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAA' } },
          ],
        },
      ],
    );
    expect(addImage('chat', { messages: [] }, 'image/png', 'AAA').messages).toEqual([
      {
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAA', detail: 'auto' } }],
      },
    ]);
    expect(addImage('responses', { input: 'look' }, 'image/png', 'AAA').input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'look' },
          { type: 'input_image', image_url: 'data:image/png;base64,AAA', detail: 'auto' },
        ],
      },
    ]);
  });

  it('adds an image as a new user turn when the last turn is not a user turn, leaving the earlier question alone', () => {
    const asked = { role: 'user', content: 'see' };
    expect(
      addImage(
        'messages',
        { messages: [asked, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }] },
        'image/png',
        'AAA',
      ).messages,
    ).toEqual([
      asked,
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAA' } }] },
    ]);
    expect(
      addImage('chat', { messages: [asked, { role: 'assistant', content: 'ok' }] }, 'image/png', 'AAA').messages,
    ).toEqual([
      asked,
      { role: 'assistant', content: 'ok' },
      {
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAA', detail: 'auto' } }],
      },
    ]);
    const output = { type: 'function_call_output', call_id: 'c1', output: '18' };
    expect(addImage('responses', { input: [asked, output] }, 'image/png', 'AAA').input).toEqual([
      asked,
      output,
      { role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png;base64,AAA', detail: 'auto' }] },
    ]);
  });

  it('reads a number field: every step of typing a decimal is a number, and text that is none says so', () => {
    for (const [text, value] of [
      ['0', 0],
      ['0.', 0],
      ['0.7', 0.7],
      ['.5', 0.5],
      ['-0.25', -0.25],
      [' 1e3 ', 1000],
      ['', undefined],
    ] as const) {
      expect(numberText.read(text), text).toEqual({ value });
    }
    for (const text of ['abc', '0.7x', '1,5', '0x10', 'NaN', 'Infinity', '1e999'])
      expect(numberText.read(text), text).toHaveProperty('error');
    expect(numberText.format(0.7)).toBe('0.7');
    expect(numberText.format('0.7')).toBe('');
  });

  it('reads stop sequences one per line, an empty line being none', () => {
    expect(stopsText.read('END\n')).toEqual({ value: ['END'] });
    expect(stopsText.read('END\n\nSTOP')).toEqual({ value: ['END', 'STOP'] });
    expect(stopsText.read('\n')).toEqual({ value: undefined });
    expect(stopsText.format(['END', 'STOP'])).toBe('END\nSTOP');
    expect(stopsText.format('END')).toBe('END');
  });

  it('Chat: stream_options goes with stream off and include_usage comes back with stream on', () => {
    const off = setStream('chat', { stream: true, stream_options: { include_usage: true }, x: 1 }, false);
    expect(off).toEqual({ stream: false, x: 1 });
    expect(setStream('chat', off, true)).toEqual({ stream: true, stream_options: { include_usage: true }, x: 1 });
    expect(
      setStream('chat', { stream: false, stream_options: { include_obfuscation: false } }, true).stream_options,
    ).toEqual({ include_obfuscation: false });
    expect(setStream('messages', { stream: true }, false)).toEqual({ stream: false });
  });
});

describe('a turn with images stays editable', () => {
  it.each(['messages', 'chat', 'responses'] as const)(
    '%s: its text can be changed or emptied, and each image shown and taken out alone',
    (protocol) => {
      const key = protocol === 'responses' ? 'input' : 'messages';
      let body: Record<string, unknown> = { [key]: [{ role: 'user', content: 'What color is this?' }] };
      body = addImage(protocol, body, 'image/png', 'AAA');
      body = addImage(protocol, body, 'image/jpeg', 'BBB');
      let [turn] = getTurns(protocol, body);
      expect(turn.text).toBe('What color is this?');
      expect(turn.images.map((i) => i.src)).toEqual(['data:image/png;base64,AAA', 'data:image/jpeg;base64,BBB']);
      body = setTurnText(protocol, body, 0, 'And this one?');
      expect(getTurns(protocol, body)[0].text).toBe('And this one?');
      body = removeAttachment(protocol, body, 0, turn.images[0].part);
      [turn] = getTurns(protocol, body);
      expect(turn.text).toBe('And this one?');
      expect(turn.images.map((i) => i.src)).toEqual(['data:image/jpeg;base64,BBB']);
      body = setTurnText(protocol, body, 0, '');
      expect(getTurns(protocol, body)[0]).toMatchObject({ text: '', images: [{ src: 'data:image/jpeg;base64,BBB' }] });
      // No empty text block goes out (Messages answers one with a 400); typing again brings it back, first.
      expect((body[key] as { content: unknown[] }[])[0].content).toHaveLength(1);
      body = setTurnText(protocol, body, 0, 'W');
      expect((body[key] as { content: { text?: string }[] }[])[0].content[0].text).toBe('W');
    },
  );

  it('an image alone gets a text part when text is typed, and a turn of several text parts stays a summary', () => {
    let body: Record<string, unknown> = addImage('messages', { messages: [] }, 'image/png', 'AAA');
    expect(getTurns('messages', body)[0].text).toBe('');
    body = setTurnText('messages', body, 0, 'Describe it');
    expect((body.messages as { content: unknown[] }[])[0].content).toEqual([
      { type: 'text', text: 'Describe it' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAA' } },
    ]);
    const two = {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
            { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
          ],
        },
      ],
    };
    expect(getTurns('messages', two)[0]).toMatchObject({ text: undefined, summary: 'a · b · [image]' });
  });
});
