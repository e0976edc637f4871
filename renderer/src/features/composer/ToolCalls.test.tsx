/**
 * The tool-result panel belongs to the reply whose conversation is still on screen, and what goes out with the
 * results is the conversation the user sees, the Message box included. Only the transport is faked.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { CallInput, Ledger } from '../../../../shared/contract';
import type { Transcript } from '../../../../shared/protocols/types';

vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { Composer } from './Composer';
import { useAppStore } from '../../store';
import { completedRun } from '../../test/runs';
import { answers, calls, resetGateway } from '../../test/fake-gateway';

type Body = Record<string, unknown>;
const weatherCall: Transcript = {
  blocks: [
    {
      kind: 'tool_call',
      id: 'toolu_old',
      name: 'get_weather',
      argsText: '{"city":"Paris"}',
      args: { city: 'Paris' },
      complete: true,
    },
  ],
  usage: {},
};

const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  answers['runs:start'] = async () => ({ ok: true, value: { runId: 'r2' } });
});
afterEach(cleanup);

/** A Messages run that answered the body on screen with a get_weather call, its ledger holding what was sent. */
function toolCallAnswered() {
  useAppStore.setState((s) => {
    const body: Body = { ...s.composers.messages.body, model: 'm', tool_choice: { type: 'any' } };
    const ledger: Ledger = {
      runId: 'r1',
      protocol: 'messages',
      profileId: 'p1',
      profileName: 'P',
      stream: true,
      method: 'POST',
      url: 'u',
      headers: {},
      body: JSON.stringify(body),
      bodyBytes: 1,
      startedAt: '',
      warnings: [],
    };
    return {
      profiles: { activeId: 'p1', profiles: [], keyStorages: [] },
      composers: {
        ...s.composers,
        messages: { ...s.composers.messages, body, jsonText: JSON.stringify(body), activeRunId: 'r1', runIds: ['r1'] },
      },
      runs: { r1: { ...completedRun('r1', weatherCall), ledger } },
    };
  });
  render(<Composer protocol="messages" />);
}
const sent = () => calls.filter((c) => c.call === 'runs:start').map((c) => (c.input as CallInput<'runs:start'>).body);
const roles = (b: Body) => (b.messages as Body[]).map((m) => m.role);

describe('the tool-result panel', () => {
  it('goes with the turns it answers: after every turn is removed, "hello" is sent as the first user turn, no stale tool_use', async () => {
    toolCallAnswered();
    expect(screen.getByRole('region', { name: 'Tool calls' }).textContent).toContain('toolu_old');
    fireEvent.click(screen.getByRole('button', { name: 'Remove turn 1' }));
    expect(screen.getByRole('region', { name: 'Turns' }).textContent).toContain('0 turns');
    expect(screen.queryByRole('region', { name: 'Tool calls' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send tool results' })).toBeNull();

    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'hello' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(sent()).toHaveLength(1);
    expect(sent()[0].messages).toEqual([{ role: 'user', content: 'hello' }]);
  });

  it('sends the Message box after the results instead of dropping it', async () => {
    toolCallAnswered();
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'and in Rome?' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Result for get_weather' }), { target: { value: '42' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send tool results' })));
    const body = sent()[0];
    expect(roles(body)).toEqual(['user', 'assistant', 'user', 'user']);
    expect((body.messages as Body[])[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_old', content: '42' },
    ]);
    expect((body.messages as Body[])[3]).toEqual({ role: 'user', content: 'and in Rome?' });
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('');
  });
});

describe('a conversation Messages refuses', () => {
  it('holds Send and says why when the first turn is the assistant’s', async () => {
    toolCallAnswered();
    fireEvent.change(screen.getByRole('combobox', { name: 'Turn 1 role' }), { target: { value: 'assistant' } });
    expect(screen.getByLabelText('Why Send is off').textContent).toBe(
      'Messages must start with a user turn; the API refuses a conversation that starts with the assistant.',
    );
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () =>
      fireEvent.keyDown(screen.getByRole('textbox', { name: 'Message' }), { key: 'Enter', ctrlKey: true }),
    );
    expect(sent()).toHaveLength(0);
  });
});
