/**
 * What a run cost, from the usage the gateway reported and a price table (docs/architecture.md §12): the list
 * prices of @pydantic/genai-prices (cache and tiered prices included) for the model ids it knows, times the
 * profile's multiplier; a profile's own per-model override instead, for relays that charge otherwise; else
 * "no price". Pure: no files, no clock but the library's (its prices can depend on the date).
 */
import { calcPrice, findProvider, type Provider, type Usage as LibraryUsage } from '@pydantic/genai-prices';
import type { CostQuote, PriceRates, PriceSettings } from '../../../shared/contract/prices';
import type { Usage } from '../../../shared/protocols/types';

/**
 * The library's usage: `input_tokens` is the whole prompt, cache reads and writes being parts of it — as our
 * `inputTotal` is (docs/protocols.md §8). Reasoning tokens are inside `output` in all three protocols, so they
 * are priced as output and never added twice. Undefined when the gateway reported no usage at all.
 */
export function libraryUsage(u: Usage): LibraryUsage | undefined {
  if (u.inputTotal === undefined && u.output === undefined) return undefined;
  const cacheRead = u.inputCached ?? 0;
  const cacheWrite = u.inputCacheWrite ?? 0;
  // A relay that reports cache counts beyond its prompt total: the parts are the evidence, the total at least them.
  const input = Math.max(u.inputTotal ?? 0, cacheRead + cacheWrite);
  return {
    input_tokens: input,
    cache_read_tokens: cacheRead,
    cache_write_tokens: cacheWrite,
    output_tokens: u.output ?? 0,
  };
}

/**
 * A relay's id to the library's: a `provider/` prefix the library knows names the provider
 * (`anthropic/claude-sonnet-4-5`, `openrouter/openai/gpt-4o`); dated snapshots (`-20250929`) the library
 * matches itself. Anything it cannot match is null: no price, never a near miss.
 */
export function listPrice(model: string, usage: LibraryUsage): { usd: number; pricedAs: string } | null {
  const id = model.trim();
  const slash = id.indexOf('/');
  if (slash > 0) {
    const providerId = id.slice(0, slash).toLowerCase();
    if (findProvider({ providerId })) {
      const r = calcPrice(usage, id.slice(slash + 1), { providerId });
      if (r) return { usd: r.total_price, pricedAs: `${r.provider.id}/${r.model.id}` };
    }
  }
  const r = calcPrice(usage, id);
  return r ? { usd: r.total_price, pricedAs: `${r.provider.id}/${r.model.id}` } : null;
}

/** An override's price, through the library as its documented custom provider, so the arithmetic is one. */
export function overridePrice(model: string, rates: PriceRates, usage: LibraryUsage): number {
  const provider: Provider = {
    id: 'override',
    name: 'Price override',
    api_pattern: '.*',
    models: [
      {
        id: model,
        match: { equals: model.trim().toLowerCase() },
        prices: {
          input_mtok: rates.inputMtok,
          output_mtok: rates.outputMtok,
          cache_read_mtok: rates.cacheReadMtok ?? rates.inputMtok,
          cache_write_mtok: rates.cacheWriteMtok ?? rates.inputMtok,
        },
      },
    ],
  };
  const r = calcPrice(usage, model, { provider });
  if (!r) throw new Error(`The override for ${model} did not match its own id.`);
  return r.total_price;
}

/** The cost of one run: the first of `models` with an override, else the first with a list price. */
export function quoteCost(models: readonly string[], usage: Usage, settings: PriceSettings): CostQuote {
  const lib = libraryUsage(usage);
  if (!lib) return { kind: 'none', reason: 'the gateway reported no usage' };
  const ids = [...new Set(models.map((m) => m.trim()).filter(Boolean))];
  if (ids.length === 0) return { kind: 'none', reason: 'the request named no model' };
  try {
    for (const id of ids) {
      const rates = settings.overrides[id];
      if (rates)
        return { kind: 'priced', usd: overridePrice(id, rates, lib), source: 'override', multiplier: 1, pricedAs: id };
    }
    for (const id of ids) {
      const list = listPrice(id, lib);
      if (list)
        return {
          kind: 'priced',
          usd: list.usd * settings.multiplier,
          source: 'list',
          multiplier: settings.multiplier,
          pricedAs: list.pricedAs,
        };
    }
  } catch (err) {
    return {
      kind: 'none',
      reason: `the price table could not price it (${err instanceof Error ? err.message : String(err)})`,
    };
  }
  return { kind: 'none', reason: `no list price is known for ${ids[0]}; set one in Prices` };
}
