/**
 * What replaces the conversation is undoable and says what it did (New conversation, Reset to sample, a
 * preset loaded); one named tool can be forced from the form; Ctrl/Cmd+K reaches the model picker; the Demo
 * gateway's tabs start on a model. Only the transport is faked.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ModelList, Preset, ProfileView } from '../../../../shared/contract';

vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { Composer } from './Composer';
import { useAppStore } from '../../store';
import { completedRun } from '../../test/runs';
import { answers, calls, resetGateway } from '../../test/fake-gateway';

type Body = Record<string, unknown>;
const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  answers['runs:start'] = async () => ({ ok: true, value: { runId: 'r2' } });
});
afterEach(cleanup);

const composer = () => useAppStore.getState().composers.chat;
/** The Chat tab with a system turn, two turns and the output of run r1 on view. */
function conversationOnView() {
  const body: Body = {
    model: 'm',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ],
    temperature: 0.3,
  };
  useAppStore.setState((s) => ({
    profiles: { activeId: 'p1', profiles: [], keyStorages: [] },
    composers: {
      ...s.composers,
      chat: {
        ...s.composers.chat,
        body,
        jsonText: JSON.stringify(body),
        draft: 'half typed',
        activeRunId: 'r1',
        runIds: ['r1'],
      },
    },
    runs: { r1: completedRun('r1', { blocks: [{ kind: 'text', text: 'hello' }], usage: {} }) },
  }));
  render(<Composer protocol="chat" />);
  return body;
}

describe('New conversation', () => {
  it('empties the turns, the Message box and the output, keeps the system prompt and parameters, and Undo brings all back', () => {
    const body = conversationOnView();
    fireEvent.click(screen.getByRole('button', { name: 'New conversation' }));
    expect(composer().body).toEqual({
      model: 'm',
      messages: [{ role: 'system', content: 'Be brief.' }],
      temperature: 0.3,
    });
    expect(composer().draft).toBe('');
    expect(composer().activeRunId).toBeUndefined();
    expect(screen.getByRole('region', { name: 'Turns' }).textContent).toContain('0 turns');
    expect(screen.getByRole('status', { name: 'Last change' }).textContent).toContain('New conversation.');

    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(composer().body).toEqual(body);
    expect(composer().draft).toBe('half typed');
    expect(composer().activeRunId).toBe('r1');
    expect(screen.queryByRole('status', { name: 'Last change' })).toBeNull();
  });

  it('Reset to sample puts the sample request back on the same model, undoably', () => {
    const body = conversationOnView();
    fireEvent.click(screen.getByRole('button', { name: 'Reset to sample' }));
    expect(composer().body).toMatchObject({ model: 'm', messages: [{ role: 'user' }], stream: true });
    expect(composer().body.temperature).toBeUndefined();
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(composer().body).toEqual(body);
  });
});

describe('loading a preset', () => {
  it('says what was loaded, sets the old output aside, and Undo restores the unsaved work', () => {
    const body = conversationOnView();
    const preset: Preset = {
      id: 'p',
      name: 'Daily',
      tags: [],
      protocol: 'chat',
      body: { model: 'x', messages: [{ role: 'user', content: 'preset prompt' }] },
      stream: false,
      createdAt: '',
      updatedAt: '',
    };
    let label = '';
    act(() => void (label = useAppStore.getState().composerPresetLoaded(preset).label));
    expect(label).toBe('Loaded preset “Daily”');
    expect(composer().body).toEqual({ ...preset.body, stream: false });
    expect(composer().activeRunId).toBeUndefined();
    expect(screen.getByRole('status', { name: 'Last change' }).textContent).toContain('Loaded preset “Daily”.');
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(composer().body).toEqual(body);
    expect(composer().draft).toBe('half typed');
    expect(composer().activeRunId).toBe('r1');
  });
});

describe('what else replaces the tab’s work: Import from curl, Open in composer', () => {
  const incoming = { model: 'x', messages: [{ role: 'user', content: 'from elsewhere' }] };

  it('Import from curl says so, sets the old reply aside, and Undo brings back the work and its output', async () => {
    const body = conversationOnView();
    answers['import:curl'] = async () => ({
      ok: true,
      value: { protocol: 'chat', path: '/v1/chat/completions', method: 'POST', body: incoming, notes: [] },
    });
    await act(async () => void (await useAppStore.getState().curlImportRequested('curl …')));
    expect(composer().body).toEqual(incoming);
    expect(composer().activeRunId).toBeUndefined();
    expect(screen.getByRole('status', { name: 'Last change' }).textContent).toContain('Imported from curl.');
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(composer().body).toEqual(body);
    expect(composer().draft).toBe('half typed');
    expect(composer().activeRunId).toBe('r1');
  });

  it('Open in composer (a recorded request) is undoable the same way', () => {
    const body = conversationOnView();
    act(() => useAppStore.getState().composerRunReopened('chat', incoming));
    expect(composer().body).toEqual(incoming);
    expect(composer().activeRunId).toBeUndefined();
    expect(screen.getByRole('status', { name: 'Last change' }).textContent).toContain('Opened a recorded request.');
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(composer().body).toEqual(body);
    expect(composer().draft).toBe('half typed');
    expect(composer().activeRunId).toBe('r1');
  });
});

describe('loading a preset translated into another tab', () => {
  it('goes into that tab, says so, and is undone like any load', () => {
    const body = conversationOnView();
    const preset: Preset = {
      id: 'p',
      name: 'Daily',
      tags: [],
      protocol: 'messages',
      body: {},
      stream: true,
      createdAt: '',
      updatedAt: '',
    };
    const translated = { model: 'x', messages: [{ role: 'user', content: 'translated prompt' }] };
    act(() => void useAppStore.getState().composerPresetLoaded(preset, { protocol: 'chat', body: translated }));
    expect(composer().body).toEqual(translated);
    expect(screen.getByRole('status', { name: 'Last change' }).textContent).toContain(
      'Loaded preset “Daily”, translated.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(composer().body).toEqual(body);
  });
});

describe('tool_choice from the form', () => {
  it('forces one named tool in Chat’s shape, and Send carries it', async () => {
    conversationOnView();
    fireEvent.change(screen.getByLabelText('Tools'), {
      target: { value: JSON.stringify([{ type: 'function', function: { name: 'get_weather' } }]) },
    });
    fireEvent.change(screen.getByLabelText('Tool choice'), { target: { value: 'tool:get_weather' } });
    expect((screen.getByLabelText('Tool choice') as HTMLSelectElement).selectedOptions[0].textContent).toBe(
      'only get_weather',
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    const sent = calls.find((c) => c.call === 'runs:start')!.input as { body: Body };
    expect(sent.body.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
  });
});

describe('Ctrl/Cmd+K', () => {
  it('focuses the model picker from anywhere in the window', () => {
    conversationOnView();
    const message = screen.getByRole('textbox', { name: 'Message' });
    message.focus();
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Model' }));
    message.focus();
    fireEvent.keyDown(document.body, { key: 'k', metaKey: true });
    expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Model' }));
  });
});

describe('the Demo gateway starts on a model', () => {
  const demo = { id: 'demo', name: 'Demo gateway', builtin: 'demo' } as ProfileView;
  const list: ModelList = {
    profileId: 'demo',
    models: [
      { id: 'sim-fault-slow', family: 'unknown', ownedBy: 'simulator', fault: true },
      { id: 'claude-sim-sonnet', family: 'anthropic', ownedBy: 'anthropic' },
    ],
    suggested: 'claude-sim-sonnet',
    added: [],
    removed: [],
    pages: 1,
  };

  it('takes the model the core suggests, once the kept drafts are read, and Send is on', async () => {
    answers['drafts:list'] = async () => ({ ok: true, value: { drafts: {} } });
    useAppStore.setState({ profiles: { activeId: 'demo', profiles: [demo], keyStorages: [] }, models: { demo: list } });
    await act(async () => void render(<Composer protocol="messages" />));
    expect(useAppStore.getState().composers.messages.body.model).toBe('claude-sim-sonnet');
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('the Environment profile (GATEWAY_BASE_URL) starts on the model the core suggests too, and Send is on', async () => {
    answers['drafts:list'] = async () => ({ ok: true, value: { drafts: {} } });
    const env = { id: 'env', name: 'Environment', builtin: 'env' } as ProfileView;
    useAppStore.setState({
      profiles: { activeId: 'env', profiles: [env], keyStorages: [] },
      models: { env: { ...list, profileId: 'env' } },
    });
    await act(async () => void render(<Composer protocol="messages" />));
    expect(useAppStore.getState().composers.messages.body.model).toBe('claude-sim-sonnet');
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('leaves a profile of the user’s own without a model: the choice is theirs', async () => {
    answers['drafts:list'] = async () => ({ ok: true, value: { drafts: {} } });
    useAppStore.setState({
      profiles: { activeId: 'demo', profiles: [{ ...demo, builtin: undefined }], keyStorages: [] },
      models: { demo: list },
    });
    await act(async () => void render(<Composer protocol="messages" />));
    expect(useAppStore.getState().composers.messages.body.model).toBeUndefined();
    expect(screen.getByLabelText('Why Send is off').textContent).toBe('Pick a model first.');
  });
});
