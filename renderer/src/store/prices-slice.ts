import type { StateCreator } from 'zustand';
import type {
  AppError,
  CostQuote,
  ModelLimits,
  PriceSettings,
  QuoteItem,
  Result,
  RunsCost,
} from '../../../shared/contract';
import { gateway } from '../bridge';
import type { AppState } from './index';

/**
 * Prices and model limits, both answered by the core (docs/architecture.md §12): the window holds each
 * profile's price settings for the "Prices" dialog and a version that moves whenever they are saved, so every
 * cost on screen asks again.
 */
export interface PricesSlice {
  prices: Record<string, PriceSettings>;
  /** Bumped by every save: costs shown are quoted again. */
  pricesVersion: number;
  pricesDialogOpen: boolean;
  /** The model the dialog opens on (the run whose cost was clicked), to price it in one step. */
  pricesDialogModel?: string;
  pricesDialogToggled(open: boolean, model?: string): void;
  pricesRequested(profileId: string): Promise<void>;
  /** Saved first, applied once the core has it; the error when it did not stick. */
  pricesSaved(profileId: string, prices: PriceSettings): Promise<AppError | undefined>;
  costQuoteRequested(profileId: string, items: QuoteItem[]): Promise<Result<{ quotes: CostQuote[] }>>;
  runsCostRequested(profileId: string, runIds: string[]): Promise<Result<RunsCost>>;
  /** Each model's limits once asked, by `profileId model`: the picker and the token counter share them. */
  modelLimits: Record<string, ModelLimits>;
  modelLimitsRequested(profileId: string, model: string): Promise<void>;
}

export const limitsKey = (profileId: string, model: string) => `${profileId} ${model}`;

export const createPricesSlice: StateCreator<AppState, [], [], PricesSlice> = (set, get) => ({
  prices: {},
  pricesVersion: 0,
  pricesDialogOpen: false,
  pricesDialogToggled: (open, model) => set({ pricesDialogOpen: open, pricesDialogModel: model }),
  async pricesRequested(profileId) {
    const r = await gateway.prices.get({ profileId });
    if (r.ok) set({ prices: { ...get().prices, [profileId]: r.value } });
  },
  async pricesSaved(profileId, prices) {
    const r = await gateway.prices.save({ profileId, prices });
    if (!r.ok) return r.error;
    set({ prices: { ...get().prices, [profileId]: r.value }, pricesVersion: get().pricesVersion + 1 });
    return undefined;
  },
  costQuoteRequested: (profileId, items) => gateway.prices.quote({ profileId, items }),
  runsCostRequested: (profileId, runIds) => gateway.prices.runs({ profileId, runIds }),
  modelLimits: {},
  async modelLimitsRequested(profileId, model) {
    const r = await gateway.models.limits({ profileId, model });
    if (r.ok) set({ modelLimits: { ...get().modelLimits, [limitsKey(profileId, model)]: r.value } });
  },
});
