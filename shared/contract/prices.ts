/**
 * What a run cost, and what a model holds (docs/architecture.md §12). The core owns the price library and the
 * model catalog, so neither reaches the renderer's bundle: the window sends the usage the gateway reported and
 * gets back a figure with where it came from, or "no price" — never a guess.
 */
import { z } from 'zod';
import { defineCall } from './define';

/** USD per million tokens, as a relay's price list states them. */
export const PriceRatesSchema = z
  .object({
    inputMtok: z.number().min(0).max(100_000),
    outputMtok: z.number().min(0).max(100_000),
    /** Absent: cache reads cost what input costs. */
    cacheReadMtok: z.number().min(0).max(100_000).optional(),
    /** Absent: cache writes cost what input costs. */
    cacheWriteMtok: z.number().min(0).max(100_000).optional(),
  })
  .strict();
export type PriceRates = z.infer<typeof PriceRatesSchema>;

/**
 * One profile's prices: list prices times `multiplier` (a relay that charges, say, 1.2× list), and per model
 * an override that replaces the list price altogether (the multiplier does not apply to it).
 */
export const PriceSettingsSchema = z
  .object({
    multiplier: z.number().positive().max(1_000),
    overrides: z.record(z.string().min(1).max(300), PriceRatesSchema),
  })
  .strict();
export type PriceSettings = z.infer<typeof PriceSettingsSchema>;

export const DEFAULT_PRICE_SETTINGS: PriceSettings = { multiplier: 1, overrides: {} };

/** The usage a gateway reported, as normalised (shared/protocols/types.ts `Usage`). */
export const UsageSchema = z
  .object({
    inputTotal: z.number().min(0).optional(),
    inputCached: z.number().min(0).optional(),
    inputCacheWrite: z.number().min(0).optional(),
    output: z.number().min(0).optional(),
    reasoning: z.number().min(0).optional(),
  })
  .strip();

export const QuoteItemSchema = z
  .object({
    /** The model asked for, then the one the gateway reported: the first that has a price is used. */
    models: z.array(z.string().max(300)).max(3),
    usage: UsageSchema,
    /** Priced with this profile's prices instead of the call's (Compare columns may each use another). */
    profileId: z.string().min(1).max(100).optional(),
  })
  .strict();
export type QuoteItem = z.input<typeof QuoteItemSchema>;

/** A figure and where its prices came from, or why there is none. */
export type CostQuote =
  | {
      kind: 'priced';
      usd: number;
      source: 'list' | 'override';
      /** The profile's multiplier, applied to a list price (1 when none). */
      multiplier: number;
      /** The model id the price is for (the library's own id for a list price). */
      pricedAs: string;
    }
  | { kind: 'none'; reason: string };

export const QUOTE_LIMIT = 10_000;

/** What a set of runs cost together (an agent check, a collection run), from the runs the core still holds. */
export interface RunsCost {
  usd: number;
  /** Runs priced into `usd`. */
  priced: number;
  /** Runs with no price (an unknown model, no usage reported): left out of `usd`. */
  unpriced: number;
  /** Runs the core no longer holds in memory (after a restart): not counted at all. */
  missing: number;
}

/** A model's window and output cap, and who said so. */
export interface ModelLimits {
  model: string;
  contextWindow?: number;
  maxOutput?: number;
  /** "gateway": its own /v1/models entry; "catalog": the models.dev catalog (tokenlens). */
  source?: 'gateway' | 'catalog';
}

const ProfileId = z.string().min(1).max(100);

export const priceCalls = {
  'prices:get': defineCall<PriceSettings>()(z.object({ profileId: ProfileId }).strict()),
  /** Replaces the profile's prices; returns them as saved. */
  'prices:save': defineCall<PriceSettings>()(z.object({ profileId: ProfileId, prices: PriceSettingsSchema }).strict()),
  'prices:quote': defineCall<{ quotes: CostQuote[] }>()(
    z.object({ profileId: ProfileId, items: z.array(QuoteItemSchema).max(QUOTE_LIMIT) }).strict(),
  ),
  'prices:runs': defineCall<RunsCost>()(
    z.object({ profileId: ProfileId, runIds: z.array(z.string().min(1).max(100)).max(1_000) }).strict(),
  ),
  /** The model's limits: the gateway's own figure when its models entry gives one, else the catalog's. */
  'models:limits': defineCall<ModelLimits>()(z.object({ profileId: ProfileId, model: z.string().max(300) }).strict()),
};
