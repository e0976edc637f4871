import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { CapabilityProgress, GuardReport, Result } from '../../../../shared/contract';

// Only the transport is faked: the store and the BringAlong component are the real ones.
const guard = vi.fn<(input: unknown) => Promise<Result<GuardReport>>>();
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { BringAlong } from './BringAlong';
import { useAppStore } from '../../store';
import { answers, resetGateway } from '../../test/fake-gateway';

const toolsUnknown: GuardReport = {
  model: 'claude-sim-sonnet',
  protocol: 'chat',
  items: [{ capability: 'tools', because: '1 tool in tools[]', state: 'unknown', message: 'Never probed' }],
  unknown: ['tools'],
  warnings: ['Not proven for claude-sim-sonnet on Chat Completions: tool calls.'],
} as GuardReport;

const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  answers['capabilities:guard'] = (input) => guard(input);
  guard.mockReset();
});
afterEach(cleanup);

const running: CapabilityProgress = {
  jobId: 'j',
  profileId: 'demo',
  state: 'running',
  done: 3,
  total: 200,
  startedAt: '',
};

/** A tool-using Messages request, and optionally a capability job running on the same profile. */
function setUp(probing: boolean) {
  useAppStore.setState((s) => ({
    profiles: { activeId: 'demo', profiles: [], keyStorages: [] },
    probeJobs: (probing ? { j: running } : {}) as Record<string, CapabilityProgress>,
    composers: {
      ...s.composers,
      messages: {
        ...s.composers.messages,
        body: {
          model: 'claude-sim-sonnet',
          max_tokens: 100,
          messages: [{ role: 'user', content: 'weather?' }],
          tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
        },
      },
      chat: { ...s.composers.chat, warnings: [] },
    },
  }));
}

const chat = () => useAppStore.getState().composers.chat;

describe('BringAlong capability guard', () => {
  it('while a probe job runs, still lists the capabilities and keeps the warning for the ledger', async () => {
    guard.mockResolvedValue({ ok: true, value: toolsUnknown });
    setUp(true);
    render(<BringAlong from="messages" to="chat" onDone={() => {}} />);
    await act(async () => fireEvent.click(screen.getByText('Bring this request along')));

    expect(guard).toHaveBeenCalledTimes(1);
    expect(screen.getByLabelText('Capability check').textContent).toMatch(/unknown\s*tools/);
    const use = screen.getByRole('button', { name: 'Use this request anyway' });
    await act(async () => fireEvent.click(use));
    expect(chat().warnings).toEqual(toolsUnknown.warnings);
    expect(chat().body.tools).toBeDefined();
  });

  it('when the probe job ends, checks again so fresh results show', async () => {
    guard.mockResolvedValue({ ok: true, value: toolsUnknown });
    setUp(true);
    render(<BringAlong from="messages" to="chat" onDone={() => {}} />);
    await act(async () => fireEvent.click(screen.getByText('Bring this request along')));
    expect(guard).toHaveBeenCalledTimes(1);
    const proven = {
      ...toolsUnknown,
      items: [{ ...toolsUnknown.items[0], state: 'proven', message: 'Proven today' }],
      unknown: [],
      warnings: [],
    } as GuardReport;
    guard.mockResolvedValue({ ok: true, value: proven });
    await act(async () => useAppStore.setState({ probeJobs: { j: { ...running, state: 'finished', done: 200 } } }));
    expect(guard).toHaveBeenCalledTimes(2);
    expect(screen.getByLabelText('Capability check').textContent).toMatch(/proven\s*tools/);
    expect(screen.getByRole('button', { name: 'Use this request' })).toBeTruthy();
  });

  it('waits for the check before the request can be used, and says so', async () => {
    let answer!: (r: Result<GuardReport>) => void;
    guard.mockReturnValue(new Promise((r) => (answer = r)));
    setUp(false);
    render(<BringAlong from="messages" to="chat" onDone={() => {}} />);
    await act(async () => fireEvent.click(screen.getByText('Bring this request along')));

    expect(screen.getByRole('status').textContent).toMatch(
      /Checking capabilities on claude-sim-sonnet × Chat Completions/,
    );
    expect((screen.getByRole('button', { name: /Use this request/ }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => answer({ ok: true, value: toolsUnknown }));
    expect((screen.getByRole('button', { name: 'Use this request anyway' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('an edit of the request drops the old report at once, and waits for the check of the new one', async () => {
    guard.mockResolvedValueOnce({ ok: true, value: toolsUnknown });
    setUp(false);
    render(<BringAlong from="messages" to="chat" onDone={() => {}} />);
    await act(async () => fireEvent.click(screen.getByText('Bring this request along')));
    expect(screen.getByLabelText('Capability check')).toBeTruthy();

    let answer!: (r: Result<GuardReport>) => void;
    guard.mockReturnValueOnce(new Promise((r) => (answer = r)));
    const body = useAppStore.getState().composers.messages.body;
    act(() => useAppStore.getState().composerBodyEdited('messages', { ...body, model: 'claude-sim-haiku' }));
    expect(guard).toHaveBeenCalledTimes(2);
    expect(screen.queryByLabelText('Capability check')).toBeNull();
    expect(screen.getByRole('status').textContent).toMatch(/Checking capabilities on claude-sim-haiku/);
    expect((screen.getByRole('button', { name: /Use this request/ }) as HTMLButtonElement).disabled).toBe(true);

    await act(async () => answer({ ok: true, value: { ...toolsUnknown, model: 'claude-sim-haiku' } }));
    expect(screen.getByLabelText('Capability check').textContent).toMatch(/unknown\s*tools/);
    expect((screen.getByRole('button', { name: 'Use this request anyway' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('a failed check is shown, and sending anyway records that nothing was checked', async () => {
    guard.mockResolvedValue({
      ok: false,
      error: { code: 'internal', message: 'store unreadable' },
    } as Result<GuardReport>);
    setUp(false);
    render(<BringAlong from="messages" to="chat" onDone={() => {}} />);
    await act(async () => fireEvent.click(screen.getByText('Bring this request along')));

    expect(screen.getByText(/Capabilities not checked: the check failed: store unreadable/)).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Use this request anyway' })));
    expect(chat().warnings).toEqual([
      'Capabilities not checked on Chat Completions: the check failed: store unreadable.',
    ]);
  });
});
