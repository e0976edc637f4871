import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import type { ProtocolId, Transcript } from '../../../../shared/protocols/types';
import type { CallInput } from '../../../../shared/contract';

type Body = Record<string, unknown>;
type StartAnswer = Awaited<ReturnType<Answer<'runs:start'>>>;
const start = vi.fn(async (_input: CallInput<'runs:start'>): Promise<StartAnswer> => ({
  ok: true,
  value: { runId: 'r2' },
}));
const savePreset = vi.fn(async (input: CallInput<'presets:save'>) => ({
  ok: true as const,
  value: storedPreset({ ...input, id: 'x', createdAt: '', updatedAt: '' }),
}));
// Only the transport is faked: the store, the Composer and its children are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { Composer } from './Composer';
import { useAppStore } from '../../store';
import { completedRun } from '../../test/runs';
import { answers, resetGateway, storedPreset, type Answer } from '../../test/fake-gateway';

const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  answers['runs:start'] = (input) => start(input);
  answers['runs:cancel'] = async () => ({ ok: true, value: { cancelled: true } });
  answers['presets:save'] = (input) => savePreset(input);
  answers['presets:list'] = async () => ({ ok: true, value: { presets: [] } });
  start.mockClear();
  savePreset.mockClear();
});
afterEach(cleanup);

const body = (p: ProtocolId) => useAppStore.getState().composers[p].body;
const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement | HTMLTextAreaElement;

/** Types into a controlled field one key at a time, each key landing on what the field shows after the last one. */
function typeKeys(el: HTMLInputElement | HTMLTextAreaElement, keys: string) {
  for (const key of keys) fireEvent.change(el, { target: { value: el.value + key } });
}
function clear(el: HTMLInputElement | HTMLTextAreaElement) {
  fireEvent.change(el, { target: { value: '' } });
}

/** Replaces the text of the real JSON editor (CodeMirror), as typing or pasting there would. */
function typeJson(text: string) {
  const view = EditorView.findFromDOM(document.querySelector<HTMLElement>('.json-editor .cm-editor')!)!;
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
}

/** A finished run of this tab, as the core reports it. */
function finishedRun(protocol: ProtocolId, runId: string, transcript: Transcript) {
  useAppStore.setState((s) => ({
    profiles: { activeId: 'p1', profiles: [], keyStorages: [] },
    composers: {
      ...s.composers,
      [protocol]: {
        ...s.composers[protocol],
        body: { ...s.composers[protocol].body, model: 'm' },
        activeRunId: runId,
        runIds: [runId],
      },
    },
    runs: { ...s.runs, [runId]: completedRun(runId, transcript) },
  }));
}

describe('number fields take what is typed, key by key', () => {
  it('0.5 typed key by key into max_tokens, temperature, top_p and the thinking budget shows 0.5 and sends 0.5', () => {
    render(<Composer protocol="messages" />);
    fireEvent.change(screen.getByLabelText('Thinking'), { target: { value: 'enabled' } });
    for (const [label, read] of [
      ['max_tokens', (b: Body) => b.max_tokens],
      ['temperature', (b: Body) => b.temperature],
      ['top_p', (b: Body) => b.top_p],
      ['Thinking budget', (b: Body) => (b.thinking as Body).budget_tokens],
    ] as const) {
      const input = field(label);
      clear(input);
      typeKeys(input, '0.5');
      expect(input.value, label).toBe('0.5');
      expect(read(body('messages')), label).toBe(0.5);
    }
  });

  it('shows the value the JSON editor sets, after the user typed in the field', () => {
    render(<Composer protocol="chat" />);
    const temperature = field('temperature');
    typeKeys(temperature, '0.');
    expect(temperature.value).toBe('0.');
    typeJson(JSON.stringify({ ...body('chat'), temperature: 1.2 }));
    expect(temperature.value).toBe('1.2');
  });

  it('text that is not a finite number keeps the last value and says so, instead of dropping the field', () => {
    render(<Composer protocol="chat" />);
    const temperature = field('temperature');
    typeKeys(temperature, '0.7');
    for (const bad of ['0.7x', 'Infinity', '1e999']) {
      fireEvent.change(temperature, { target: { value: bad } });
      expect(temperature.value).toBe(bad);
      expect(body('chat').temperature).toBe(0.7);
      expect(temperature.getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(temperature.getAttribute('aria-describedby')!)?.textContent).toMatch(
        /Send waits until/,
      );
    }
    fireEvent.change(temperature, { target: { value: '0.9' } });
    expect(temperature.getAttribute('aria-invalid')).toBeNull();
    expect(body('chat').temperature).toBe(0.9);
  });
});

describe('a number field holding text that means no number', () => {
  const ready = () =>
    useAppStore.setState((s) => ({
      profiles: { activeId: 'p1', profiles: [], keyStorages: [] },
      composers: { ...s.composers, messages: { ...s.composers.messages, body: { ...body('messages'), model: 'm' } } },
    }));
  const send = () => screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;

  it('holds Send and says which field, so the body never goes with a value the field does not show', async () => {
    ready();
    render(<Composer protocol="messages" />);
    const max = field('max_tokens');
    clear(max);
    typeKeys(max, '1e309');
    // On the way, "1e30" was a number and went into the body; the field now shows text that is none.
    expect(max.value).toBe('1e309');
    expect(send().disabled).toBe(true);
    expect(screen.getByLabelText('Why Send is off').textContent).toBe(
      'Fix max_tokens before sending: Too large to be a JSON number. Send waits until it fits, or is empty.',
    );
    await act(async () => fireEvent.keyDown(max, { key: 'Enter', ctrlKey: true }));
    expect(start).not.toHaveBeenCalled();

    fireEvent.change(max, { target: { value: 'abc' } });
    expect(screen.getByLabelText('Why Send is off').textContent).toMatch(
      /^Fix max_tokens before sending: Not a number/,
    );
    fireEvent.change(max, { target: { value: '300' } });
    expect(send().disabled).toBe(false);
    await act(async () => fireEvent.click(send()));
    expect(start.mock.calls[0][0].body.max_tokens).toBe(300);
  });
});

describe('stop sequences', () => {
  it('Enter starts a second stop sequence', () => {
    render(<Composer protocol="chat" />);
    const stops = field('Stop sequences');
    typeKeys(stops, 'END\nSTOP');
    expect(stops.value).toBe('END\nSTOP');
    expect(body('chat').stop).toEqual(['END', 'STOP']);
  });
});

describe('tool results', () => {
  const toolCall: Transcript = {
    blocks: [
      {
        kind: 'tool_call',
        id: 'call_1',
        name: 'get_weather',
        argsText: '{"city":"Paris"}',
        args: { city: 'Paris' },
        complete: true,
      },
    ],
    usage: {},
  };

  it('Ctrl+Enter in a tool result box sends the tool results, not the old request', async () => {
    finishedRun('chat', 'r1', toolCall);
    render(<Composer protocol="chat" />);
    const box = field('Result for get_weather');
    fireEvent.change(box, { target: { value: '18°C' } });
    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });
    });
    expect(start).toHaveBeenCalledTimes(1);
    const sent = start.mock.calls[0][0].body.messages as Body[];
    expect(sent.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
    ]);
  });
});

describe('tool calls that share an id', () => {
  it('each gets its own result box, and the results go out in the calls’ order', async () => {
    // Some OpenAI-compatible backends repeat or leave out the id: the boxes must not be tied together by it.
    const twice: Transcript = {
      blocks: ['Paris', 'Oslo'].map((city) => ({
        kind: 'tool_call' as const,
        id: 'call_1',
        name: 'get_weather',
        argsText: JSON.stringify({ city }),
        args: { city },
        complete: true,
      })),
      usage: {},
    };
    finishedRun('chat', 'r1', twice);
    render(<Composer protocol="chat" />);
    // Each box has a name of its own, so a screen reader (or a test) can tell them apart.
    const boxes = [
      field('Result for get_weather (call 1)'),
      field('Result for get_weather (call 2)'),
    ] as HTMLTextAreaElement[];
    expect(screen.queryByLabelText('Result for get_weather')).toBeNull();
    fireEvent.change(boxes[0], { target: { value: '18°C' } });
    fireEvent.change(boxes[1], { target: { value: '9°C' } });
    expect(boxes.map((b) => b.value)).toEqual(['18°C', '9°C']);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send tool results' })));
    const sent = (start.mock.calls[0][0].body.messages as Body[]).slice(2);
    expect(sent).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
      { role: 'tool', tool_call_id: 'call_1', content: '9°C' },
    ]);
  });
});

describe('tool results go out once', () => {
  const toolCall: Transcript = {
    blocks: [{ kind: 'tool_call', id: 'call_1', name: 'get_weather', argsText: '{}', args: {}, complete: true }],
    usage: {},
  };
  const answer = () => fireEvent.change(field('Result for get_weather'), { target: { value: '18°C' } });
  const sentTurns = (call: number) => (start.mock.calls[call][0].body.messages as Body[]).slice(1).map((m) => m.role);

  it('a send the core refuses leaves the body as it was, so the retry sends the results once', async () => {
    finishedRun('chat', 'r1', toolCall);
    const before = body('chat');
    start.mockResolvedValueOnce({ ok: false, error: { code: 'busy', message: 'The core is busy' } });
    render(<Composer protocol="chat" />);
    answer();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send tool results' })));
    expect(screen.getByText('The core is busy')).toBeTruthy();
    expect(body('chat')).toBe(before);
    answer();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send tool results' })));
    expect(sentTurns(1)).toEqual(['assistant', 'tool']);
    expect((body('chat').messages as Body[]).slice(1).map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect(useAppStore.getState().composers.chat.activeRunId).toBe('r2');
  });

  it('a double click while the core has not answered yet starts one run, and Send waits too', async () => {
    finishedRun('messages', 'r1', toolCall);
    let answerStart!: (a: StartAnswer) => void;
    start.mockImplementationOnce(() => new Promise<StartAnswer>((r) => (answerStart = r)));
    render(<Composer protocol="messages" />);
    answer();
    const button = screen.getByRole('button', { name: 'Send tool results' }) as HTMLButtonElement;
    act(() => {
      fireEvent.click(button);
      fireEvent.click(button);
    });
    expect(button.disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => answerStart({ ok: true, value: { runId: 'r2' } }));
    expect(start).toHaveBeenCalledTimes(1);
    expect((body('messages').messages as Body[]).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });
});

describe('a whole body loaded over the last run', () => {
  const toolCall: Transcript = {
    blocks: [{ kind: 'tool_call', id: 'toolu_old', name: 'get_weather', argsText: '{}', args: {}, complete: true }],
    usage: {},
  };
  const reopened = { model: 'm', messages: [{ role: 'user', content: 'reopened question' }], stream: true };

  it('after History "Open in composer", the old reply offers no Continue, and Send carries no warnings accepted before', async () => {
    finishedRun('chat', 'r1', { blocks: [{ kind: 'text', text: 'Reply to an old conversation' }], usage: {} });
    useAppStore.setState((s) => ({
      composers: {
        ...s.composers,
        chat: { ...s.composers.chat, warnings: ['Not proven on Chat Completions: tool calls.'] },
      },
    }));
    render(<Composer protocol="chat" />);
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
    act(() => useAppStore.getState().composerRunReopened('chat', reopened));
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(start.mock.calls[0][0].body.messages).toEqual(reopened.messages);
    expect(start.mock.calls[0][0].warnings).toEqual([]);
  });

  it('a loaded body hides the old tool calls, while a form edit keeps them', () => {
    finishedRun('messages', 'r1', toolCall);
    render(<Composer protocol="messages" />);
    fireEvent.change(field('temperature'), { target: { value: '0.3' } });
    expect(screen.getByRole('button', { name: 'Send tool results' })).toBeTruthy();
    act(() =>
      useAppStore.getState().composerBodyLoaded('messages', {
        model: 'm',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'preset' }],
      }),
    );
    expect(screen.queryByLabelText('Result for get_weather')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send tool results' })).toBeNull();
  });
});

describe('Attach image', () => {
  it('after Continue, with the Message box empty, the image is a new user turn, not part of the earlier question', async () => {
    finishedRun('messages', 'r1', { blocks: [{ kind: 'text', text: 'Answer one' }], usage: {} });
    const question = (body('messages').messages as Body[])[0];
    render(<Composer protocol="messages" />);
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const file = new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], 'a.png', { type: 'image/png' });
    await act(async () => {
      fireEvent.change(document.querySelector('input[type=file]')!, { target: { files: [file] } });
      await new Promise((r) => setTimeout(r, 20));
    });
    const messages = body('messages').messages as Body[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[0]).toEqual(question);
    expect(messages[2].content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: btoa('\x89PNG\r\n\x1a\n') } },
    ]);
  });
});

describe('Save preset', () => {
  it('saves what Send would send, the Message box included, and says so', async () => {
    useAppStore.setState({ profiles: { activeId: 'p1', profiles: [], keyStorages: [] } });
    render(<Composer protocol="messages" />);
    fireEvent.change(field('Message'), { target: { value: 'My real prompt' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save preset' }));
    expect(screen.getByRole('form', { name: 'Save preset' }).textContent).toMatch(/Message box is saved too/);
    fireEvent.change(field('Preset name'), { target: { value: 'p' } });
    await act(async () => fireEvent.submit(screen.getByRole('form', { name: 'Save preset' })));
    expect((savePreset.mock.calls[0][0].body.messages as Body[]).at(-1)).toEqual({
      role: 'user',
      content: 'My real prompt',
    });
  });
});

describe('Continue', () => {
  it('appends the reply once, even after the tab is left and opened again', () => {
    finishedRun('chat', 'r1', { blocks: [{ kind: 'text', text: 'Hi there' }], usage: {} });
    const assistantTurns = () => (body('chat').messages as Body[]).filter((m) => m.role === 'assistant').length;
    const first = render(<Composer protocol="chat" />);
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(assistantTurns()).toBe(1);
    first.unmount(); // another tab was opened: App renders one tab at a time
    render(<Composer protocol="chat" />);
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
    expect(assistantTurns()).toBe(1);
  });
});

describe('fields that share an object with other fields', () => {
  it('the tool_choice dropdown keeps the other fields of the Messages tool_choice', () => {
    render(<Composer protocol="messages" />);
    typeJson(JSON.stringify({ ...body('messages'), tool_choice: { type: 'auto', disable_parallel_tool_use: true } }));
    fireEvent.change(screen.getByLabelText('Tool choice'), { target: { value: 'any' } });
    expect(body('messages').tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
  });

  it('Chat: unchecking Stream takes stream_options out, checking it again puts include_usage back', () => {
    render(<Composer protocol="chat" />);
    const stream = field('Stream');
    fireEvent.click(stream);
    expect(body('chat').stream).toBe(false);
    expect(body('chat')).not.toHaveProperty('stream_options');
    expect((field('include_usage') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(stream);
    expect(body('chat')).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });
});

describe('while the JSON does not parse', () => {
  it('the form is read-only and says why, so the JSON being typed is not overwritten', () => {
    finishedRun('responses', 'r1', { blocks: [{ kind: 'text', text: 'Hi there' }], usage: {} });
    render(<Composer protocol="responses" />);
    const broken = JSON.stringify(body('responses'), null, 2).replace(
      '"stream": true',
      '"stream": true,\n  "prompt_cache_key": "abc",',
    );
    typeJson(broken);
    expect(screen.getByRole('alert').textContent).toMatch(/form is read-only until this parses/);
    for (const name of ['max_output_tokens', 'temperature', 'Instructions', 'Tool choice', 'Model'])
      expect(field(name).matches(':disabled'), name).toBe(true);
    expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(true);
    expect(useAppStore.getState().composers.responses.jsonText).toBe(broken);
    typeJson(broken.replace('"abc",', '"abc"'));
    expect(field('max_output_tokens').matches(':disabled')).toBe(false);
    expect(body('responses').prompt_cache_key).toBe('abc');
  });
});

describe('fields that would make the request fail or differ from what is shown', () => {
  const ready = (protocol: ProtocolId) =>
    useAppStore.setState((s) => ({
      profiles: { activeId: 'p1', profiles: [], keyStorages: [] },
      composers: {
        ...s.composers,
        [protocol]: { ...s.composers[protocol], body: { ...s.composers[protocol].body, model: 'm' } },
      },
    }));

  it('half-typed tools JSON holds Send, by button and by Ctrl+Enter, until it parses', async () => {
    ready('chat');
    render(<Composer protocol="chat" />);
    const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    expect(send.disabled).toBe(false);
    fireEvent.change(field('Tools'), { target: { value: '[{"type":"function","function":{"name":"get_weather"' } });
    expect(send.disabled).toBe(true);
    expect(screen.getByText('Fix the tools JSON before sending.')).toBeTruthy();
    await act(async () => fireEvent.keyDown(field('Tools'), { key: 'Enter', ctrlKey: true }));
    expect(start).not.toHaveBeenCalled();
    fireEvent.change(field('Tools'), { target: { value: '[{"type":"function","function":{"name":"get_weather"}}]' } });
    expect(send.disabled).toBe(false);
    await act(async () => fireEvent.click(send));
    expect(start).toHaveBeenCalledTimes(1);
    expect(start.mock.calls[0][0].body.tools).toEqual([{ type: 'function', function: { name: 'get_weather' } }]);
  });

  it('half-typed tools give way to tools set elsewhere (the JSON editor, a preset), and Send comes back', () => {
    ready('chat');
    render(<Composer protocol="chat" />);
    fireEvent.change(field('Tools'), { target: { value: '[{"type":"function"' } });
    fireEvent.blur(field('Tools'));
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    const tools = [{ type: 'function', function: { name: 'lookup' } }];
    act(() => useAppStore.getState().composerBodyEdited('chat', { ...body('chat'), tools }));
    expect(JSON.parse(field('Tools').value)).toEqual(tools);
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('turning on a thinking budget raises a max_tokens that could not hold it, and a budget typed past it is flagged', () => {
    ready('messages');
    render(<Composer protocol="messages" />);
    expect(body('messages').max_tokens).toBe(1024);
    fireEvent.change(field('Thinking'), { target: { value: 'enabled' } });
    expect(body('messages').thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body('messages').max_tokens).toBe(4096);
    expect(screen.queryByText(/the budget must be under max_tokens/)).toBeNull();
    clear(field('Thinking budget'));
    typeKeys(field('Thinking budget'), '5000');
    expect(screen.getByText('the budget must be under max_tokens (4096), which counts thinking')).toBeTruthy();
    fireEvent.change(field('Thinking'), { target: { value: '' } });
    clear(field('max_tokens'));
    typeKeys(field('max_tokens'), '8000');
    fireEvent.change(field('Thinking'), { target: { value: 'enabled' } });
    expect(body('messages').max_tokens).toBe(8000);
  });
});

describe('Ctrl+Enter in the JSON editor', () => {
  it('sends the body as shown, without adding a line to it', async () => {
    useAppStore.setState((s) => ({
      profiles: { activeId: 'p1', profiles: [], keyStorages: [] },
      composers: {
        ...s.composers,
        messages: { ...s.composers.messages, body: { ...s.composers.messages.body, model: 'm' } },
      },
    }));
    render(<Composer protocol="messages" />);
    const before = useAppStore.getState().composers.messages.jsonText;
    const content = document.querySelector<HTMLElement>('.json-editor .cm-content')!;
    await act(async () => fireEvent.keyDown(content, { key: 'Enter', ctrlKey: true }));
    expect(start).toHaveBeenCalledTimes(1);
    expect(useAppStore.getState().composers.messages.jsonText).toBe(before);
    expect(EditorView.findFromDOM(content)!.state.doc.toString()).toBe(before);
  });
});

describe('Responses: continue by id', () => {
  const reply: Transcript = { id: 'resp_1', blocks: [{ kind: 'text', text: 'First answer' }], usage: {} };

  it('sends only the next turn, naming the reply in previous_response_id, and keeps the instructions', async () => {
    finishedRun('responses', 'r1', reply);
    useAppStore.setState((s) => ({
      composers: {
        ...s.composers,
        responses: { ...s.composers.responses, body: { ...s.composers.responses.body, instructions: 'Be brief.' } },
      },
    }));
    render(<Composer protocol="responses" />);
    fireEvent.click(screen.getByRole('button', { name: 'Continue by id' }));
    expect(screen.queryByRole('button', { name: 'Continue by id' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
    fireEvent.change(field('Message'), { target: { value: 'And then?' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    const sent = start.mock.calls[0][0].body;
    expect(sent.previous_response_id).toBe('resp_1');
    expect(sent.instructions).toBe('Be brief.');
    expect(sent.input).toEqual([{ role: 'user', content: 'And then?' }]);
  });

  it('is off when the request that got the reply had store off, whatever the form says now', () => {
    finishedRun('responses', 'r1', reply);
    const sentWith = (store: boolean) =>
      act(() =>
        useAppStore.setState((s) => ({
          runs: {
            ...s.runs,
            r1: {
              ...s.runs.r1,
              ledger: {
                runId: 'r1',
                protocol: 'responses',
                profileId: 'p1',
                profileName: 'P',
                stream: true,
                method: 'POST',
                url: 'u',
                headers: {},
                body: JSON.stringify({ model: 'm', store, input: body('responses').input }),
                bodyBytes: 10,
                startedAt: '',
                warnings: [],
              },
            },
          },
        })),
      );
    sentWith(false);
    render(<Composer protocol="responses" />);
    expect(body('responses').store).not.toBe(false);
    expect((screen.getByRole('button', { name: 'Continue by id' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement).disabled).toBe(false);
    sentWith(true);
    expect((screen.getByRole('button', { name: 'Continue by id' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
