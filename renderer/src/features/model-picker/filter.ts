import type { ModelInfo } from '../../../../shared/contract';

export interface IndexedModel {
  model: ModelInfo;
  haystack: string;
}

/** Lower-cased once per list, so typing filters thousands of models without re-normalising each keystroke. */
export function indexModels(models: ModelInfo[]): IndexedModel[] {
  return models.map((model) => ({
    model,
    haystack: `${model.id} ${model.displayName ?? ''} ${model.ownedBy ?? ''}`.toLowerCase(),
  }));
}

/**
 * Every whitespace-separated term must appear. The id typed exactly comes first (so the first row is never a
 * longer id that merely starts with it), then ids that start with the query, then the rest.
 */
export function filterModels(index: IndexedModel[], query: string): ModelInfo[] {
  const typed = query.trim();
  const q = typed.toLowerCase();
  if (!q) return index.map((i) => i.model);
  const terms = q.split(/\s+/);
  const exact: ModelInfo[] = [];
  const starts: ModelInfo[] = [];
  const rest: ModelInfo[] = [];
  for (const i of index) {
    if (!terms.every((t) => i.haystack.includes(t))) continue;
    const id = i.model.id;
    (id === typed ? exact : id.toLowerCase().startsWith(q) ? starts : rest).push(i.model);
  }
  return exact.concat(starts, rest);
}

export function relativeTime(iso: string | undefined, now = Date.now()): string {
  if (!iso) return 'never fetched';
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 10) return 'fetched just now';
  if (s < 60) return `fetched ${s} s ago`;
  if (s < 3600) return `fetched ${Math.round(s / 60)} min ago`;
  if (s < 86400) return `fetched ${Math.round(s / 3600)} h ago`;
  return `fetched ${new Date(iso).toLocaleDateString()}`;
}
