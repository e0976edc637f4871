import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { AgentConnection, AgentTurn } from '../../../../shared/contract';

// Only the transport is faked: the store and the component are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { AgentSession } from './AgentSession';
import { useAppStore } from '../../store';
import { gateway } from '../../bridge';
import { answers, calls, pushed, resetGateway } from '../../test/fake-gateway';

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
const TURN: AgentTurn = {
  runId: 'run_1',
  sessionId: 'agent_1',
  method: 'POST',
  path: '/v1/messages?beta=true',
  agent: 'claude-code',
  model: 'claude-sim-sonnet',
  startedAt: '2026-11-28T00:00:01.000Z',
};
const writeText = vi.fn(async (_text: string) => undefined);

beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  answers['agents:session'] = async () => ({ ok: true, value: { turns: [] } });
  answers['agents:connect'] = async () => ({ ok: true, value: CONNECTION });
  answers['agents:disconnect'] = async () => ({ ok: true, value: { closed: true } });
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  writeText.mockClear();
});
afterEach(cleanup);

describe('Agent session: connect a real agent', () => {
  it('shows the lines to paste with the local token, each with Copy, and the turns as they happen', async () => {
    const off = gateway.on.agentsUpdate(useAppStore.getState().agentSessionUpdated);
    render(<AgentSession profileId="p1" model="claude-sim-sonnet" smallModel="claude-sim-haiku" />);
    expect(screen.queryByRole('region', { name: 'Agent session' })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Connect an agent' })));
    expect(calls).toContainEqual({ call: 'agents:connect', input: { profileId: 'p1' } });

    const region = screen.getByRole('region', { name: 'Agent session' });
    expect(within(region).getByLabelText('Claude Code', { selector: 'pre' }).textContent).toBe(
      'ANTHROPIC_BASE_URL=http://127.0.0.1:4567 ANTHROPIC_API_KEY=gp-local-abc123 ' +
        'ANTHROPIC_MODEL=claude-sim-sonnet ANTHROPIC_SMALL_FAST_MODEL=claude-sim-haiku claude',
    );
    const codex = within(region).getByLabelText('Codex CLI', { selector: 'pre' }).textContent;
    expect(codex).toContain('GP_AGENT_TOKEN=gp-local-abc123 codex -c model_provider=gp');
    expect(codex).toContain('base_url="http://127.0.0.1:4567/v1",env_key="GP_AGENT_TOKEN",wire_api="responses"');
    expect(codex).toMatch(/-m claude-sim-sonnet$/);
    expect(within(region).getByLabelText('config.toml for Codex CLI', { selector: 'pre' }).textContent).toContain(
      'wire_api = "responses"',
    );
    expect(within(region).getByLabelText('Chat-completions agent', { selector: 'pre' }).textContent).toContain(
      'OPENAI_BASE_URL=http://127.0.0.1:4567/v1 OPENAI_API_KEY=gp-local-abc123',
    );
    await act(async () => fireEvent.click(within(region).getByRole('button', { name: 'Copy Claude Code' })));
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining('ANTHROPIC_API_KEY=gp-local-abc123'));

    act(() => pushed('agents:update', { kind: 'turn', sessionId: 'agent_1', turn: TURN }));
    const table = within(region).getByRole('table', { name: 'Agent turns' });
    expect(table.textContent).toContain('POST /v1/messages?beta=true');
    expect(table.textContent).toContain('in flight');
    const failed: AgentTurn = {
      ...TURN,
      status: 400,
      verdict: 'http-error',
      reason: 'HTTP 400 invalid_request_error: Invalid signature in thinking block',
      totalMs: 40,
      next: 'Claude Code sends this turn again without its thinking blocks.',
    };
    act(() => pushed('agents:update', { kind: 'turn', sessionId: 'agent_1', turn: failed }));
    expect(table.textContent).toContain('http-error');
    expect(table.textContent).not.toContain('in flight');
    expect(table.textContent).toContain('Next: Claude Code sends this turn again without its thinking blocks.');
    expect(within(table).getByRole('button', { name: 'Open turn 1' })).toBeTruthy();

    await act(async () => fireEvent.click(within(region).getByRole('button', { name: 'Disconnect' })));
    expect(screen.queryByRole('region', { name: 'Agent session' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Connect an agent' })).toBeTruthy();
    off();
  });

  it('says why a session ended on its own', async () => {
    const off = gateway.on.agentsUpdate(useAppStore.getState().agentSessionUpdated);
    answers['agents:session'] = async () => ({ ok: true, value: { connection: CONNECTION, turns: [TURN] } });
    render(<AgentSession profileId="p1" model="" smallModel="" />);
    await act(async () => undefined);
    expect(screen.getByRole('region', { name: 'Agent session' })).toBeTruthy();
    act(() =>
      pushed('agents:update', { kind: 'closed', sessionId: 'agent_1', reason: 'Another profile was selected.' }),
    );
    expect(screen.queryByRole('region', { name: 'Agent session' })).toBeNull();
    expect(document.body.textContent).toContain('The last session ended: Another profile was selected.');
    off();
  });
});
