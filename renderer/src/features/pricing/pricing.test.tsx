/**
 * The cost in the metrics line and the "Prices" dialog, against the typed fake of the contract: the figure is
 * the core's quote with its source in words, "no price" when none is known, and a price saved in the dialog
 * is quoted again at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { CostQuote, PriceSettings } from '../../../../shared/contract';

vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { useAppStore } from '../../store';
import { answers, calls, resetGateway } from '../../test/fake-gateway';
import { completedRun } from '../../test/runs';
import { StreamViewer } from '../stream-viewer/StreamViewer';
import { PricesButton } from './PricesDialog';
import { SummaryTable } from '../compare/SummaryTable';
import { LoadCost } from './LoadCost';
import { RunsCostLine } from './RunsCostLine';
import type { LoadRecord } from '../../../../shared/contract';

const pristine = useAppStore.getState();
const usage = { inputTotal: 1_200, inputCached: 200, inputCacheWrite: 100, output: 300 };
let saved: PriceSettings = { multiplier: 1, overrides: {} };

/** A core that prices claude-sonnet-4-5 at $0.0123 list, and anything with an override at its input rate × 1e-4. */
function quoteOf(models: string[]): CostQuote {
  const id = models.find((m) => saved.overrides[m]);
  if (id)
    return {
      kind: 'priced',
      usd: saved.overrides[id].inputMtok * 1e-4,
      source: 'override',
      multiplier: 1,
      pricedAs: id,
    };
  if (models.includes('claude-sonnet-4-5'))
    return {
      kind: 'priced',
      usd: 0.0123 * saved.multiplier,
      source: 'list',
      multiplier: saved.multiplier,
      pricedAs: 'anthropic/claude-sonnet-4-5',
    };
  return { kind: 'none', reason: `no list price is known for ${models[0]}` };
}

beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  saved = { multiplier: 1, overrides: {} };
  answers['prices:quote'] = async ({ items }) => ({ ok: true, value: { quotes: items.map((i) => quoteOf(i.models)) } });
  answers['prices:get'] = async () => ({ ok: true, value: saved });
  answers['prices:save'] = async ({ prices }) => {
    saved = { multiplier: prices.multiplier, overrides: prices.overrides };
    return { ok: true, value: saved };
  };
});
afterEach(cleanup);

/** The machine running the suite may be busy: a quote is two promise hops and a render, not a timed thing. */
const SLOW = { timeout: 5_000 };

function showRun(model: string) {
  const run = completedRun('r1', { blocks: [], usage });
  run.result!.metrics.usage = usage;
  run.ledger = {
    runId: 'r1',
    protocol: 'messages',
    profileId: 'demo',
    profileName: 'Demo',
    model,
    stream: true,
    method: 'POST',
    url: 'u',
    headers: {},
    body: JSON.stringify({ model, max_tokens: 100, messages: [] }),
    bodyBytes: 2,
    startedAt: '',
    warnings: [],
  };
  act(() =>
    useAppStore.setState({
      runs: { r1: run },
      profiles: { activeId: 'demo', profiles: [] } as unknown as ReturnType<typeof useAppStore.getState>['profiles'],
    }),
  );
  render(
    <>
      <PricesButton />
      <StreamViewer runId="r1" />
    </>,
  );
}

describe('the cost in the metrics line', () => {
  it('shows the list price of a model the price library knows, quoted from the usage reported', async () => {
    showRun('claude-sonnet-4-5');
    expect(await screen.findByRole('button', { name: 'cost $0.0123 (list price)' }, SLOW)).toBeTruthy();
    const asked = calls.find((c) => c.call === 'prices:quote');
    expect(asked?.input).toEqual({ profileId: 'demo', items: [{ models: ['claude-sonnet-4-5'], usage }] });
  });

  it('says "no price" for a model nobody priced, and a price set in Prices shows at once', async () => {
    showRun('claude-sim-sonnet');
    const figure = await screen.findByRole('button', { name: 'cost no price' }, SLOW);
    fireEvent.click(figure);
    const dialog = await screen.findByRole('dialog', { name: 'Prices' }, SLOW);
    // The dialog opens on the run's model, so pricing it is one step.
    expect((screen.getByLabelText('Model') as HTMLInputElement).value).toBe('claude-sim-sonnet');
    fireEvent.change(screen.getByLabelText('Input $ per 1M tokens'), { target: { value: '50' } });
    fireEvent.change(screen.getByLabelText('Output $ per 1M tokens'), { target: { value: '100' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set price' }));
    expect(dialog.textContent).toContain('claude-sim-sonnet');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'cost $0.0050 (your price)' }, SLOW)).toBeTruthy();
    expect(saved.overrides['claude-sim-sonnet']).toEqual({ inputMtok: 50, outputMtok: 100 });
  });

  it('a multiplier scales the list price, and says so', async () => {
    showRun('claude-sonnet-4-5');
    await screen.findByRole('button', { name: 'cost $0.0123 (list price)' }, SLOW);
    fireEvent.click(screen.getByRole('button', { name: 'Prices…' }));
    await screen.findByRole('dialog', { name: 'Prices' }, SLOW);
    await waitFor(() => expect((screen.getByLabelText('List price multiplier') as HTMLInputElement).value).toBe('1'));
    fireEvent.change(screen.getByLabelText('List price multiplier'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'cost $0.0246 (list price ×2)' }, SLOW)).toBeTruthy();
  });

  it('refuses a price that is not a number, and keeps nothing', async () => {
    showRun('claude-sim-sonnet');
    fireEvent.click(await screen.findByRole('button', { name: 'cost no price' }, SLOW));
    await screen.findByRole('dialog', { name: 'Prices' }, SLOW);
    fireEvent.change(screen.getByLabelText('Input $ per 1M tokens'), { target: { value: 'cheap' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set price' }));
    expect(screen.getByRole('alert').textContent).toContain('dollars per million tokens');
  });
});

describe('the cost in the Compare summary', () => {
  it('gives each column its cost under its own profile, and totals what was priced', async () => {
    saved = { multiplier: 1, overrides: { 'gpt-sim-4o': { inputMtok: 100, outputMtok: 1 } } };
    const result = (model: string) => {
      const r = completedRun(model, { blocks: [], usage, model }).result!;
      r.metrics.usage = usage;
      return r;
    };
    act(() =>
      useAppStore.setState({
        profiles: { activeId: 'demo', profiles: [] } as unknown as ReturnType<typeof useAppStore.getState>['profiles'],
        compareColumns: [
          { profileId: 'demo', protocol: 'messages', model: 'claude-sonnet-4-5' },
          { profileId: 'relay', protocol: 'chat', model: 'gpt-sim-4o' },
          { profileId: 'demo', protocol: 'responses', model: 'gpt-sim-mini' },
        ],
      }),
    );
    render(<SummaryTable results={[result('claude-sonnet-4-5'), result('gpt-sim-4o'), result('gpt-sim-mini')]} />);
    const table = screen.getByRole('table', { name: 'Comparison summary' });
    await waitFor(() => expect(table.textContent).toContain('$0.0123 (list price)'), SLOW);
    expect(table.textContent).toContain('$0.0100 (your price)');
    expect(table.textContent).toContain('no price');
    expect(screen.getByLabelText(/^total cost/).textContent).toBe('$0.0223 (1 run without a price left out)');
    const asked = calls.find((c) => c.call === 'prices:quote');
    expect(asked?.input.items.map((i) => i.profileId)).toEqual(['demo', 'relay', 'demo']);
  });
});

describe('the cost of a load run', () => {
  it('sums the requests that reported usage, quoting each distinct usage once, and gives the cost per 1,000', async () => {
    const row = (i: number, reported: boolean) => ({
      i,
      startMs: i,
      verdict: reported ? ('complete' as const) : ('http-error' as const),
      e2eMs: 10,
      itlMs: [],
      reason: '',
      ...(reported ? { inputTokens: 1_200, outputTokens: 300, cacheReadTokens: 200, cacheWriteTokens: 100 } : {}),
    });
    const record = {
      model: 'claude-sonnet-4-5',
      request: { profileId: 'demo', model: 'claude-sonnet-4-5' },
      rows: [row(0, true), row(1, true), row(2, true), row(3, false)],
    } as unknown as LoadRecord;
    render(
      <dl>
        <LoadCost record={record} />
      </dl>,
    );
    await waitFor(() => expect(screen.getByLabelText('Cost').textContent).toContain('$0.0369'), SLOW);
    expect(screen.getByLabelText('Cost per 1,000 requests').textContent).toContain('$12.3000');
    const asked = calls.find((c) => c.call === 'prices:quote');
    expect(asked?.input.items).toEqual([{ models: ['claude-sonnet-4-5'], usage }]);
  });
});

describe('the cost of an agent check (or any set of runs)', () => {
  it('totals the check’s runs in the core and says what it left out', async () => {
    answers['prices:runs'] = async ({ runIds }) => ({
      ok: true,
      value: { usd: 0.05 * saved.multiplier, priced: runIds.length - 1, unpriced: 1, missing: 0 },
    });
    act(() =>
      useAppStore.setState({
        profiles: { activeId: 'demo', profiles: [] } as unknown as ReturnType<typeof useAppStore.getState>['profiles'],
      }),
    );
    render(<RunsCostLine runIds={['r1', 'r2', 'r3']} />);
    expect(await screen.findByLabelText('cost $0.0500 (1 run without a price left out)', {}, SLOW)).toBeTruthy();
    await act(() => useAppStore.getState().pricesSaved('demo', { multiplier: 2, overrides: {} }));
    expect(await screen.findByLabelText('cost $0.1000 (1 run without a price left out)', {}, SLOW)).toBeTruthy();
  });
});
