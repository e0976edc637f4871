/**
 * `prices:*` and `models:limits` (docs/architecture.md §12). The price library and the model catalog are
 * imported on first use: together they are megabytes of data start-up has no need of.
 */
import type { CostQuote, PriceSettings, QuoteItem, RunsCost } from '../../../shared/contract';
import { entryLimits } from '../../../shared/model-limits';
import type { CoreContext, Handlers } from '../core-context';
import { RunError } from '../errors';
import { catalogLimits } from './model-catalog';
import type { PriceStore } from './price-store';

type PricingHandlers = Pick<Handlers, 'prices:get' | 'prices:save' | 'prices:quote' | 'prices:runs' | 'models:limits'>;

export interface Pricing {
  handlers: PricingHandlers;
  /** What each item cost under a profile's prices: for any feature that shows a cost (runs, load, collections). */
  quote(profileId: string, items: readonly QuoteItem[]): Promise<CostQuote[]>;
  /** What finished runs cost together, each under its own profile's prices. */
  runsCost(profileId: string, runIds: readonly string[]): Promise<RunsCost>;
}

export function createPricing(ctx: CoreContext, store: PriceStore): Pricing {
  const known = (profileId: string) => {
    if (!ctx.profiles.has(profileId)) throw new RunError('not_found', `No profile with id ${profileId}.`);
  };
  const quote = async (profileId: string, items: readonly QuoteItem[]): Promise<CostQuote[]> => {
    const { quoteCost } = await import('./price-table');
    const settings: PriceSettings = store.get(profileId);
    return items.map((item) =>
      quoteCost(item.models, item.usage, item.profileId ? store.get(item.profileId) : settings),
    );
  };
  const runsCost = async (profileId: string, runIds: readonly string[]): Promise<RunsCost> => {
    const items: QuoteItem[] = [];
    let missing = 0;
    for (const id of new Set(runIds)) {
      const run = ctx.runs.get(id);
      if (!run) {
        missing++;
        continue;
      }
      const models = [run.ledger.model, run.result.transcript.model].filter((m): m is string => !!m);
      items.push({ models, usage: run.result.metrics.usage, profileId: run.ledger.profileId });
    }
    const quotes = await quote(profileId, items);
    const priced = quotes.flatMap((q) => (q.kind === 'priced' ? [q.usd] : []));
    return {
      usd: priced.reduce((a, b) => a + b, 0),
      priced: priced.length,
      unpriced: quotes.length - priced.length,
      missing,
    };
  };
  return {
    quote,
    runsCost,
    handlers: {
      'prices:get': async ({ profileId }) => {
        known(profileId);
        return store.get(profileId);
      },
      'prices:save': async ({ profileId, prices }) => {
        known(profileId);
        return store.save(profileId, prices);
      },
      // A run from a profile since deleted is still priced, at list prices: its own are gone with it.
      'prices:quote': async ({ profileId, items }) => ({ quotes: await quote(profileId, items) }),
      'prices:runs': async ({ profileId, runIds }) => {
        known(profileId);
        return runsCost(profileId, runIds);
      },
      'models:limits': async ({ profileId, model }) => {
        known(profileId);
        const own = entryLimits(ctx.models.entry(profileId, model)?.extra);
        if (own.contextWindow !== undefined) return { model, ...own, source: 'gateway' };
        const cat = await catalogLimits(model);
        if (cat.contextWindow !== undefined) return { model, ...cat, source: 'catalog' };
        return { model };
      },
    },
  };
}
