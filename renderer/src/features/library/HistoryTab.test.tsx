import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { RecordedRun, HistorySummary } from '../../../../shared/contract';

// Only the transport is faked (see test/fake-gateway.ts): the store and the components are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { HistoryTab } from './HistoryTab';
import { useAppStore } from '../../store';
import { answers, calls, resetGateway } from '../../test/fake-gateway';

const recorded = (runId: string, word: string, events: number, gap: number): RecordedRun => ({
  ledger: {
    runId,
    protocol: 'chat',
    profileId: 'p',
    profileName: 'P',
    stream: true,
    method: 'POST',
    url: 'u',
    headers: {},
    body: '{}',
    bodyBytes: 2,
    startedAt: '2026-01-01T00:00:00Z',
    warnings: [],
  },
  events: Array.from({ length: events }, (_, seq) => ({
    seq,
    t: seq * gap,
    type: 'chunk',
    data: JSON.stringify({
      id: 'c',
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: { content: `${word} ` } }],
    }),
    size: 40,
  })),
  result: {
    verdict: 'complete',
    reason: '',
    transcript: { blocks: [{ kind: 'text', text: `${word} `.repeat(events) }], usage: {} },
    metrics: { totalMs: events * gap, events, bytes: 8, usage: {} },
    warnings: [],
    endedAt: '',
  },
  origin: 'composer',
});
const summary = (runId: string, preview: string): HistorySummary => ({
  runId,
  startedAt: '2026-01-01T00:00:00Z',
  protocol: 'chat',
  model: `m-${runId}`,
  profileName: 'P',
  origin: 'composer',
  verdict: 'complete',
  totalMs: 1,
  events: 1,
  bytes: 1,
  preview,
});

const settle = (ms = 20) => act(() => new Promise((r) => setTimeout(r, ms)));
const replays = () => Object.entries(useAppStore.getState().runs).filter(([id]) => id.startsWith('replay_'));
const pick = async (preview: string) => {
  fireEvent.click(screen.getByText(preview).closest('button')!);
  await settle();
};

let runs: Record<string, RecordedRun>;
/** A fetch of run A that takes this long, as from a slow disk. */
let slowA = 0;
const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  slowA = 0;
  runs = { A: recorded('A', 'ALPHA', 40, 50), B: recorded('B', 'BRAVO', 3, 1) };
  answers['history:list'] = async () => ({
    ok: true,
    value: {
      runs: Object.keys(runs).map((id) => summary(id, id === 'A' ? 'alpha' : 'bravo')),
      total: Object.keys(runs).length,
      bytes: 1,
    },
  });
  answers['history:get'] = async ({ runId }) => {
    if (runId === 'A' && slowA) await new Promise((r) => setTimeout(r, slowA));
    return runs[runId]
      ? { ok: true, value: runs[runId] }
      : { ok: false, error: { code: 'not_found', message: 'gone' } };
  };
  answers['history:delete'] = async ({ runId }) => {
    delete runs[runId];
    return { ok: true, value: { deleted: true } };
  };
});
afterEach(cleanup);

describe('History list', () => {
  it('typing a filter asks for the list per keystroke but reads app info only when History opens, and a slow answer for an old filter does not replace a newer one', async () => {
    answers['app:info'] = async () => ({ ok: true, value: { version: '1', host: 'web', dataDir: '/d', problems: [] } });
    answers['history:list'] = async (input: { text?: string }) => {
      // The answer for "a" arrives last, after the one for "al".
      if (input.text === 'a') await new Promise((r) => setTimeout(r, 80));
      const shown = Object.keys(runs).filter((id) =>
        input.text ? (id === 'A' ? 'alpha' : 'bravo').includes(input.text) : true,
      );
      return {
        ok: true,
        value: { runs: shown.map((id) => summary(id, id === 'A' ? 'alpha' : 'bravo')), total: shown.length, bytes: 1 },
      };
    };
    render(<HistoryTab />);
    await settle();
    expect(calls.filter((c) => c.call === 'app:info')).toHaveLength(1);
    const search = screen.getByRole('textbox', { name: 'Search history' });
    fireEvent.change(search, { target: { value: 'a' } });
    fireEvent.change(search, { target: { value: 'al' } });
    await settle(150);
    expect(calls.filter((c) => c.call === 'history:list')).toHaveLength(3);
    expect(calls.filter((c) => c.call === 'app:info')).toHaveLength(1);
    expect(screen.queryByText('bravo')).toBeNull();
    expect(screen.getByText('alpha')).toBeTruthy();
  });
});

describe('History at scale', () => {
  it('10,000 runs: only rows in view exist, fetched a page at a time, scrolling fetches the page there', async () => {
    const all = Array.from({ length: 10_000 }, (_, i) => summary(`r${i}`, `preview number ${i}`));
    answers['history:list'] = async ({ offset, limit }) => {
      const runs = all.slice(offset ?? 0, (offset ?? 0) + (limit ?? 200));
      return { ok: true, value: { runs, total: all.length, bytes: 1 } };
    };
    render(<HistoryTab />);
    await settle();
    expect(screen.getByText(/^10000 runs/)).toBeTruthy();
    const rows = screen.getAllByRole('listitem');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    expect(rows[0].getAttribute('aria-setsize')).toBe('10000');
    const lists = () => calls.filter((c) => c.call === 'history:list').map((c) => [c.input.offset, c.input.limit]);
    expect(lists()).toEqual([[0, 200]]);

    const scroller = document.querySelector('.history-scroll')!;
    scroller.scrollTop = 6000 * 64;
    fireEvent.scroll(scroller);
    await settle(50);
    expect(lists()).toContainEqual([6000, 200]);
    expect(screen.getByText('preview number 6001')).toBeTruthy();
    expect(screen.queryByText('preview number 0')).toBeNull();
  });
});

describe('History verdict filter', () => {
  it('"complete, with warnings" finds warned runs, "complete" clean ones; the list tells them apart', async () => {
    const listed = [{ ...summary('A', 'alpha'), warnings: 2 }, summary('B', 'bravo')];
    answers['history:list'] = async () => ({ ok: true, value: { runs: listed, total: 2, bytes: 1 } });
    render(<HistoryTab />);
    await settle();
    const items = screen.getAllByRole('listitem').map((li) => li.querySelector('strong')!.textContent);
    expect(items).toEqual(['complete, with warnings', 'complete']);
    const select = screen.getByRole('combobox', { name: 'Filter by verdict' });
    fireEvent.change(select, { target: { value: 'complete, with warnings' } });
    await settle();
    const lastList = () => calls.filter((c) => c.call === 'history:list').at(-1)!.input;
    expect(lastList()).toMatchObject({ verdict: 'complete', withWarnings: true });
    fireEvent.change(select, { target: { value: 'complete' } });
    await settle();
    expect(lastList()).toMatchObject({ verdict: 'complete', withWarnings: false });
    fireEvent.change(select, { target: { value: 'truncated' } });
    await settle();
    expect(lastList().withWarnings).toBeUndefined();
  });
});

describe('History replay', () => {
  it('a replay fetched for one run is dropped once another run is picked', async () => {
    render(<HistoryTab />);
    await settle();
    await pick('alpha');
    slowA = 100;
    fireEvent.click(screen.getByRole('button', { name: 'Replay fast' }));
    await pick('bravo');
    await settle(250);
    expect(replays()).toEqual([]);
    const detail = document.querySelector('.library-detail')!.textContent;
    expect(detail).toContain('BRAVO');
    expect(detail).not.toContain('ALPHA');
  });

  it("deleting the shown run stops its replay and drops the replay's view: no later tick brings it back", async () => {
    // A second between events: the replay is still going when Delete is pressed, however slow the machine.
    runs.A = recorded('A', 'ALPHA', 40, 1000);
    render(<HistoryTab />);
    await settle();
    await pick('alpha');
    fireEvent.click(screen.getByRole('button', { name: 'Replay 1×' }));
    await settle(200);
    const [[, playing]] = replays();
    expect(playing.events.length).toBeGreaterThan(0);
    expect(playing.events.length).toBeLessThan(40);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await settle();
    expect(replays()).toEqual([]);
    // A replay still ticking would recreate its view with the next events (the next is due within a second).
    await settle(1200);
    expect(replays()).toEqual([]);
  });

  it('a replay at 1× can be stopped: it ends cancelled where it was, saying how the recording ended', async () => {
    // A second between events: the replay is still going when Stop is pressed, however slow the machine.
    runs.A = recorded('A', 'ALPHA', 40, 1000);
    render(<HistoryTab />);
    await settle();
    await pick('alpha');
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Replay 1×' }));
    await settle(200);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await settle();
    const [[, stopped]] = replays();
    const shownEvents = stopped.events.length;
    expect(shownEvents).toBeLessThan(40);
    expect(screen.getByLabelText('Stream status').textContent).toMatch(
      new RegExp(`^cancelled — Replay stopped after ${shownEvents} of 40 events; the recorded run ended complete\\.`),
    );
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    await settle(300);
    expect(replays()[0][1].events).toHaveLength(shownEvents);
  });

  it('stepping through pauses the clock: a long wait between steps is no stall', async () => {
    render(<HistoryTab />);
    await settle();
    await pick('alpha');
    fireEvent.click(screen.getByRole('button', { name: 'Step through' }));
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Next event' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next event' }));
    // The wall clock moves on by minutes while the user reads.
    const now = Date.now();
    const spy = vi.spyOn(Date, 'now').mockReturnValue(now + 300_000);
    await settle(600);
    const status = screen.getByLabelText('Stream status').textContent;
    spy.mockRestore();
    expect(status).toContain('2 events · stepping, clock paused');
    expect(status).not.toMatch(/no data|waiting/);
    const metrics = [...screen.getByLabelText('Metrics').querySelectorAll('div')];
    const total = metrics.find((d) => d.querySelector('dt')?.textContent === 'total');
    // The recording's time of the second event (50 ms apart), not five minutes.
    expect(total?.querySelector('dd')?.textContent).toBe('50 ms');
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
  });

  it('deleting a run being stepped through ends its step-through and drops its view', async () => {
    render(<HistoryTab />);
    await settle();
    await pick('alpha');
    fireEvent.click(screen.getByRole('button', { name: 'Step through' }));
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Next event' }));
    expect(replays()[0][1].events).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await settle();
    expect(replays()).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Next event' })).toBeNull();
  });

  it('a replay that is replaced, or left by picking another run or closing History, leaves no view behind', async () => {
    const { unmount } = render(<HistoryTab />);
    await settle();
    await pick('alpha');
    fireEvent.click(screen.getByRole('button', { name: 'Replay fast' }));
    await settle(100);
    fireEvent.click(screen.getByRole('button', { name: 'Replay fast' }));
    await settle(100);
    expect(replays()).toHaveLength(1);
    await pick('bravo');
    expect(replays()).toEqual([]);
    expect(document.querySelector('.library-detail')!.textContent).toContain('BRAVO');
    fireEvent.click(screen.getByRole('button', { name: 'Replay 1×' }));
    await settle(50);
    expect(replays()).toHaveLength(1);
    unmount();
    expect(replays()).toEqual([]);
  });
});
