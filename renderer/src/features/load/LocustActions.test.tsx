/**
 * "Export as Locust" sends the load the form sets up and saves what the core wrote; "Import Locust results"
 * sends Locust's CSV files by their suffix, opens the imported run, and says why when it was refused, keeping
 * the saved runs as they were. Only the transport is faked.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { LoadRecord, LoadRecordSummary } from '../../../../shared/contract';

vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { LocustActions } from './LocustActions';
import { LoadSummary } from './LoadSummary';
import { useAppStore } from '../../store';
import { answers, calls, resetGateway } from '../../test/fake-gateway';

const settle = () => act(() => new Promise((r) => setTimeout(r, 20)));
const pristine = useAppStore.getState();

const appRun: LoadRecordSummary = {
  loadId: 'load_app-1',
  startedAt: '2026-11-28T03:00:00.000Z',
  state: 'finished',
  endReason: 'All requests ended',
  profileName: 'Demo gateway',
  protocol: 'messages',
  source: 'Messages composer',
  config: { requests: 60, concurrency: 4 },
  summary: {
    sent: 60,
    completed: 60,
    failed: 0,
    cancelled: 0,
    durationMs: 10_000,
    outputTokensPerSecPerRequest: { count: 0 },
    totalOutputTokens: 0,
    ttftMs: { count: 0 },
    itlMs: { count: 0 },
    tpotMs: { count: 0 },
    e2eMs: { count: 0 },
    errors: [],
  },
};
const imported: LoadRecordSummary = { ...appRun, loadId: 'load_locust-1', profileName: 'Locust', engine: 'locust' };

let saved: { name: string; text: string }[];
beforeEach(() => {
  useAppStore.setState(pristine, true);
  useAppStore.setState({
    profiles: { activeId: 'demo', profiles: [], keyStorages: [] },
    loadRuns: [appRun],
  });
  resetGateway();
  saved = [];
  URL.createObjectURL = vi.fn(() => 'blob:locust');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, text: this.href });
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const choose = (...files: File[]) => fireEvent.change(screen.getByLabelText('Locust CSV files'), { target: { files } });

describe('Export as Locust', () => {
  it('asks the core for the locustfile of the load the form sets up, and saves it', async () => {
    answers['locust:export'] = async () => ({ ok: true, value: { text: 'CONFIG = ...', fileName: 'locustfile.py' } });
    useAppStore.getState().loadSettingsEdited({ requests: '60', concurrency: '4' });
    render(<LocustActions />);
    fireEvent.click(screen.getByRole('button', { name: 'Export as Locust' }));
    await settle();
    const sent = calls.find((c) => c.call === 'locust:export');
    expect(sent?.input).toMatchObject({ profileId: 'demo', protocol: 'messages', requests: 60, concurrency: 4 });
    expect(saved.map((f) => f.name)).toEqual(['locustfile.py']);
    expect(screen.getByRole('status').textContent).toContain('GATEWAY_API_KEY');
  });

  it('cannot export a load the form refuses', () => {
    useAppStore.getState().loadSettingsEdited({ concurrency: '0' });
    render(<LocustActions />);
    expect(screen.getByRole('button', { name: 'Export as Locust' })).toHaveProperty('disabled', true);
  });
});

describe('Import Locust results', () => {
  it('opens the file picker, sends the files by their suffix and opens the imported run', async () => {
    answers['locust:import'] = async () => ({ ok: true, value: { run: imported } });
    answers['load:list'] = async () => ({ ok: true, value: { runs: [imported, appRun] } });
    answers['load:get'] = async () => ({ ok: true, value: { ...imported, rows: [], rateLimits: [] } as LoadRecord });
    render(<LocustActions />);
    const picker = screen.getByLabelText('Locust CSV files');
    const opened = vi.spyOn(picker, 'click');
    fireEvent.click(screen.getByRole('button', { name: 'Import Locust results' }));
    expect(opened).toHaveBeenCalled();
    choose(
      new File(['history'], 'run_stats_history.csv'),
      new File(['stats'], 'run_stats.csv'),
      new File(['failures'], 'run_failures.csv'),
      new File(['exceptions'], 'run_exceptions.csv'),
    );
    await settle();
    const sent = calls.find((c) => c.call === 'locust:import');
    expect(sent?.input).toEqual({ stats: 'stats', history: 'history', failures: 'failures', name: 'run_stats.csv' });
    expect(screen.getByRole('status').textContent).toBe('Imported run_stats.csv as a Locust run.');
    expect(useAppStore.getState().loadRuns.map((r) => r.profileName)).toEqual(['Locust', 'Demo gateway']);
    expect(useAppStore.getState().loadSelectedId).toBe('load_locust-1');
  });

  it('says why a bad CSV was refused and keeps the saved runs as they were', async () => {
    const why = 'This is not Locust’s stats CSV (…_stats.csv): it has no column “Request Count”.';
    answers['locust:import'] = async () => ({ ok: false, error: { code: 'invalid_input', message: why } });
    render(<LocustActions />);
    choose(new File(['a,b\n1,2'], 'x_stats.csv'));
    await settle();
    expect(screen.getByRole('alert').textContent).toBe(`Not imported: ${why}`);
    expect(calls.some((c) => c.call === 'load:list')).toBe(false);
    expect(useAppStore.getState().loadRuns).toEqual([appRun]);
  });

  it('says which file could not be read (deleted since it was chosen) and imports nothing', async () => {
    render(<LocustActions />);
    const gone = new File(['stats'], 'run_stats.csv');
    gone.text = () => Promise.reject(new DOMException('The requested file could not be read.', 'NotReadableError'));
    choose(gone, new File(['history'], 'run_stats_history.csv'));
    await settle();
    expect(screen.getByRole('alert').textContent).toBe(
      'Not imported: could not read run_stats.csv (The requested file could not be read.). Choose the files again.',
    );
    expect(calls.some((c) => c.call === 'locust:import')).toBe(false);
  });

  it('asks for the stats file when it was not among the files chosen', async () => {
    render(<LocustActions />);
    choose(new File(['history'], 'run_stats_history.csv'));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('PREFIX_stats.csv');
    expect(calls.some((c) => c.call === 'locust:import')).toBe(false);
  });
});

describe('an imported run in Load summary', () => {
  it('shows the error examples Locust kept without a request number it does not have', () => {
    const record: LoadRecord = {
      ...imported,
      summary: {
        ...imported.summary,
        failed: 2,
        errors: [
          {
            key: 'HTTP 529',
            cls: 'http',
            count: 2,
            examples: [
              { i: -1, reason: 'HTTP 529: Overloaded' },
              { i: -1, reason: 'HTTP 529: Overloaded, retry later' },
            ],
          },
        ],
      },
      rows: [],
      rateLimits: [],
    };
    render(<LoadSummary record={record} />);
    const errors = screen.getByRole('list', { name: 'Errors by class' });
    expect(errors.textContent).toContain('HTTP 529 × 2');
    expect([...errors.querySelectorAll('li li')].map((li) => li.textContent)).toEqual([
      'HTTP 529: Overloaded',
      'HTTP 529: Overloaded, retry later',
    ]);
  });
});
