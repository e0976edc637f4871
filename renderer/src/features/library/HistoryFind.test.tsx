import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { HistorySummary, RecordedRun } from '../../../../shared/contract';

// Only the transport is faked (see test/fake-gateway.ts): the store and the components are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { HistoryTab } from './HistoryTab';
import { useAppStore } from '../../store';
import { answers, calls, resetGateway } from '../../test/fake-gateway';

const summary = (runId: string, o: Partial<HistorySummary> = {}): HistorySummary => ({
  runId,
  startedAt: '2026-01-01T00:00:00Z',
  protocol: 'messages',
  model: `model-${runId}`,
  profileName: 'P',
  origin: 'composer',
  source: 'mine',
  verdict: 'complete',
  totalMs: 1,
  events: 1,
  bytes: 1,
  preview: `preview of ${runId}`,
  ...o,
});

const recorded = (runId: string, prompt: string, answer: string): RecordedRun => ({
  ledger: {
    runId,
    protocol: 'messages',
    profileId: 'p',
    profileName: 'P',
    model: 'm',
    stream: false,
    method: 'POST',
    url: 'http://gw/v1/messages',
    headers: {},
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: prompt }] }),
    bodyBytes: 1,
    startedAt: '2026-01-01T00:00:00Z',
    warnings: [],
  },
  events: [],
  result: {
    verdict: 'complete',
    reason: '',
    transcript: { blocks: [{ kind: 'text', text: answer }], usage: {} },
    metrics: { totalMs: 1, events: 0, bytes: 1, usage: {} },
    warnings: [],
    endedAt: '',
  },
  origin: 'composer',
});

const settle = (ms = 20) => act(() => new Promise((r) => setTimeout(r, ms)));
const lists = () => calls.filter((c) => c.call === 'history:list').map((c) => c.input);

let listed: HistorySummary[];
const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  listed = [summary('A'), summary('B')];
  answers['history:list'] = async () => ({ ok: true, value: { runs: listed, total: listed.length, bytes: 1 } });
  const runs: Record<string, RecordedRun> = {
    A: recorded('A', 'tell me about otters', 'Otters are mustelids.'),
    B: recorded('B', 'tell me about beavers', 'Beavers build dams.'),
  };
  answers['history:get'] = async ({ runId }) => ({ ok: true, value: runs[runId] });
});
afterEach(cleanup);

describe('History Source', () => {
  it('shows the user’s own runs until the Source combobox says otherwise, one row per check', async () => {
    render(<HistoryTab />);
    await settle();
    const source = screen.getByRole('combobox', { name: 'Source' });
    expect((source as HTMLSelectElement).selectedOptions[0].textContent).toBe('Mine');
    expect(lists()[0]).toMatchObject({ source: 'mine', grouped: true });
    const choices = within(source)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(choices).toEqual(['Mine', 'Compare', 'Capabilities', 'Agents', 'Load', 'Collection runs', 'All']);

    const check = { id: 'caps_1:claude-sim-sonnet', label: 'Capabilities · claude-sim-sonnet', unit: 'probe' };
    listed = [summary('P1', { source: 'capabilities', check, groupCount: 12 })];
    fireEvent.change(source, { target: { value: 'capabilities' } });
    await settle();
    expect(lists().at(-1)).toMatchObject({ source: 'capabilities' });
    const row = screen.getByRole('button', { name: /Capabilities · claude-sim-sonnet · 12 probes/ });
    expect(row.getAttribute('aria-expanded')).toBe('false');

    listed = [
      listed[0],
      summary('P1', { source: 'capabilities', check }),
      summary('P2', { source: 'capabilities', check }),
    ];
    fireEvent.click(row);
    await settle();
    expect(lists().at(-1)).toMatchObject({ source: 'capabilities', expanded: [check.id] });
    expect(screen.getByRole('button', { name: /12 probes/ }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
  });
});

describe('History rename, pin, export and diff', () => {
  it('Rename and Pin the open run: each is sent to the core and the list is read again', async () => {
    answers['history:rename'] = async ({ runId, name }) => ({ ok: true, value: summary(runId, { name }) });
    answers['history:pin'] = async ({ runId, pinned }) => ({ ok: true, value: summary(runId, { pinned }) });
    render(<HistoryTab />);
    await settle();
    fireEvent.click(screen.getByText('preview of A').closest('button')!);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Run name' }), { target: { value: ' Otter baseline ' } });
    const before = lists().length;
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
    await settle();
    expect(calls.find((c) => c.call === 'history:rename')?.input).toEqual({ runId: 'A', name: 'Otter baseline' });
    expect(lists().length).toBe(before + 1);

    listed = [summary('A', { name: 'Otter baseline' }), summary('B')];
    fireEvent.click(screen.getByRole('button', { name: 'Pin' }));
    await settle();
    expect(calls.find((c) => c.call === 'history:pin')?.input).toEqual({ runId: 'A', pinned: true });
    listed = [summary('A', { name: 'Otter baseline', pinned: true }), summary('B')];
    await useAppStore.getState().historyRequested();
    await settle();
    expect(screen.getByRole('button', { name: 'Unpin' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getAllByRole('listitem')[0].textContent).toContain('pinned');
    expect(screen.getAllByRole('listitem')[0].textContent).toContain('Otter baseline');
  });

  it('Export HAR takes the ticked runs and downloads the file the core made', async () => {
    answers['history:export'] = async ({ format }) => ({
      ok: true,
      value: { fileName: `runs-2.${format}`, text: '{"log":{}}', count: 2 },
    });
    const saved: { name: string; href: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
    URL.createObjectURL = vi.fn(() => 'blob:har');
    URL.revokeObjectURL = vi.fn();
    render(<HistoryTab />);
    await settle();
    const exportHar = screen.getByRole('button', { name: 'Export HAR' });
    expect((exportHar as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getAllByRole('checkbox', { name: /^Select run/ })[1]);
    fireEvent.click(screen.getAllByRole('checkbox', { name: /^Select run/ })[0]);
    fireEvent.click(exportHar);
    await settle();
    expect(calls.find((c) => c.call === 'history:export')?.input).toEqual({ runIds: ['B', 'A'], format: 'har' });
    expect(saved).toEqual([{ name: 'runs-2.har', href: 'blob:har' }]);
    click.mockRestore();
  });

  it('Diff shows two ticked runs’ requests and outputs side by side', async () => {
    render(<HistoryTab />);
    await settle();
    const diff = screen.getByRole('button', { name: 'Diff' });
    fireEvent.click(screen.getAllByRole('checkbox', { name: /^Select run/ })[0]);
    expect((diff as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getAllByRole('checkbox', { name: /^Select run/ })[1]);
    fireEvent.click(diff);
    await settle();
    const region = screen.getByRole('region', { name: 'Diff' });
    const request = within(region).getByLabelText('Request diff');
    expect(request.querySelector('.removed')?.textContent).toContain('otters');
    expect(request.querySelector('.added')?.textContent).toContain('beavers');
    const output = within(region).getByLabelText('Output diff');
    expect([...output.querySelectorAll('.removed')].map((e) => e.textContent).join('')).toContain('Otters');
    expect([...output.querySelectorAll('.added')].map((e) => e.textContent).join('')).toContain('Beavers');
  });
});
