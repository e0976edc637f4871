/**
 * `prices:*` and `models:limits` (docs/architecture.md §11). The price library and the model catalog are
 * imported on first use: together they are megabytes of data start-up has no need of.
 */
import type { CostQuote, PriceSettings, QuoteItem } from '../../../shared/contract';
import { entryLimits } from '../../../shared/model-limits';
import type { CoreContext, Handlers } from '../core-context';
import { RunError } from '../errors';
import { catalogLimits } from './model-catalog';
import type { PriceStore } from './price-store';

type PricingHandlers = Pick<Handlers, 'prices:get' | 'prices:save' | 'prices:quote' | 'models:limits'>;

export interface Pricing {
  handlers: PricingHandlers;
  /** What each item cost under a profile's prices: for any feature that shows a cost (runs, load, collections). */
  quote(profileId: string, items: readonly QuoteItem[]): Promise<CostQuote[]>;
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
  return {
    quote,
    handlers: {
      'prices:get': async ({ profileId }) => {
        known(profileId);
        return store.get(profileId);
      },
      'prices:save': async ({ profileId, prices }) => {
        known(profileId);
        return store.save(profileId, prices);
      },
      'prices:quote': async ({ profileId, items }) => {
        known(profileId);
        return { quotes: await quote(profileId, items) };
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
