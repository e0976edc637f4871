import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { AgentConnection, AgentResult, AgentTurn, SavedReplayInfo } from '../../../../shared/contract';

// Only the transport is faked: the store and the components are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { AgentsTab } from './AgentsTab';
import { useAppStore } from '../../store';
import { answers, calls, resetGateway } from '../../test/fake-gateway';

const pristine = useAppStore.getState();
const CONNECTION: AgentConnection = {
  sessionId: 'agent_1',
  profileId: 'p1',
  profileName: 'Relay',
  port: 4567,
  baseUrl: 'http://127.0.0.1:4567',
  token: 'gp-local-abc123',
  startedAt: '2026-11-28T00:00:00.000Z',
};
const turn = (n: number): AgentTurn => ({
  runId: `run_${n}`,
  sessionId: 'agent_1',
  method: 'POST',
  path: '/v1/responses',
  agent: 'codex',
  model: 'gpt-sim-o3',
  startedAt: `2026-11-28T00:00:0${n}.000Z`,
  status: 200,
  verdict: 'complete',
});
const SAVED: SavedReplayInfo = {
  id: 'replay_1',
  name: 'Codex on the relay',
  agent: 'codex',
  client: 'codex_exec/0.171.0',
  profileName: 'Relay',
  model: 'gpt-sim-o3',
  savedAt: '2026-11-28T00:01:00.000Z',
  tool: 'exec_command',
  requests: 2,
};

beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  useAppStore.setState({
    profiles: { activeId: 'p1', profiles: [], keyStorages: [] },
    models: {
      p1: {
        profileId: 'p1',
        models: ['gpt-sim-o3', 'gpt-sim-4o'].map((id) => ({ id, family: 'openai' as const })),
        added: [],
        removed: [],
        pages: 1,
        fetchedAt: new Date().toISOString(),
      },
    },
  });
  answers['agents:list'] = async () => ({ ok: true, value: { profileId: 'p1', results: [] } });
  answers['replays:list'] = async () => ({ ok: true, value: [] });
  answers['agents:session'] = async () => ({
    ok: true,
    value: { connection: CONNECTION, turns: [turn(1), turn(2)] },
  });
  answers['replays:save'] = async () => ({ ok: true, value: SAVED });
});
afterEach(cleanup);

describe('Save as replay', () => {
  it('saves the session’s turns, then the saved replay is an agent Check runs on another model', async () => {
    render(<AgentsTab />);
    await act(async () => undefined);
    const region = screen.getByRole('region', { name: 'Agent session' });
    fireEvent.change(within(region).getByRole('textbox', { name: 'Replay name' }), {
      target: { value: 'Codex on the relay' },
    });
    await act(async () => fireEvent.click(within(region).getByRole('button', { name: 'Save as replay' })));
    expect(calls).toContainEqual({
      call: 'replays:save',
      input: { name: 'Codex on the relay', runIds: ['run_1', 'run_2'] },
    });
    expect(within(region).getByRole('status').textContent).toContain('Saved as “Codex on the relay”');

    const agent = screen.getByRole('combobox', { name: 'Agent' });
    const option = within(agent).getByRole('option', { name: 'Codex on the relay (saved, codex_exec/0.171.0)' });
    fireEvent.change(agent, { target: { value: (option as HTMLOptionElement).value } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Model' }), { target: { value: 'gpt-sim-4o' } });
    const result: AgentResult = {
      agent: 'codex',
      model: 'gpt-sim-4o',
      replayId: 'replay_1',
      replayed: 'the saved session “Codex on the relay” (codex_exec/0.171.0 on gpt-sim-o3, 2026-11-28)',
      level: 'ready',
      verdict: 'ready — all 4 steps passed on evidence.',
      steps: [],
      at: new Date().toISOString(),
      durationMs: 10,
    };
    answers['agents:check'] = async () => ({ ok: true, value: result });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Check' })));
    expect(calls).toContainEqual({
      call: 'agents:check',
      input: { profileId: 'p1', agent: 'codex', model: 'gpt-sim-4o', replayId: 'replay_1' },
    });
    expect(screen.getByRole('region', { name: 'Agent verdict' }).textContent).toContain(
      'replaying the saved session “Codex on the relay”',
    );
  });

  it('says why a session cannot be saved', async () => {
    answers['replays:save'] = async () => ({
      ok: false,
      error: { code: 'invalid_input', message: 'This session has no turn that sends a tool’s result back.' },
    });
    render(<AgentsTab />);
    await act(async () => undefined);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save as replay' })));
    expect(screen.getByRole('alert').textContent).toContain('no turn that sends a tool’s result back');
    expect(calls).toContainEqual({
      call: 'replays:save',
      input: { name: 'codex on gpt-sim-o3', runIds: ['run_1', 'run_2'] },
    });
  });
});
