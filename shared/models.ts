/**
 * /v1/models in both families' shapes (docs/protocols.md §5). Relays mix them, add keys (`success`,
 * `supported_endpoint_types`) or synthesise entries, so every page is read by shape, not by what was asked for.
 */
import type { ModelInfo } from './contract/models';

export interface ModelsPage {
  models: ModelInfo[];
  /** First family's pagination: fetch the next page with after_id=lastId while hasMore. */
  hasMore: boolean;
  lastId?: string;
}

const KNOWN_KEYS = new Set(['id', 'type', 'object', 'display_name', 'created_at', 'created', 'owned_by']);

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/**
 * The family an entry shows evidence of, never a guess from its id. The first family's shape alone proves
 * nothing: new-api answers in it for every model it routes once the caller sends x-api-key and
 * anthropic-version (docs/protocols.md §5), with entries synthesised from the id. Only fields the first party's
 * list carries and relays do not synthesise (`capabilities`, `max_input_tokens`) count. In the second
 * family's shape `owned_by` names the vendor; an owner such as a relay's channel name says nothing.
 */
function familyOf(e: Record<string, unknown>): ModelInfo['family'] {
  const firstParty =
    (typeof e.capabilities === 'object' && e.capabilities !== null) || typeof e.max_input_tokens === 'number';
  if (e.type === 'model' && firstParty) return 'anthropic';
  // Either shape may name its owner: `type` alone is no evidence, so it must not stop `owned_by` being read.
  if (e.type !== 'model' && e.object !== 'model') return 'unknown';
  return ownerFamily(str(e.owned_by)?.toLowerCase());
}

function ownerFamily(owner: string | undefined): ModelInfo['family'] {
  if (owner === undefined) return 'unknown';
  if (owner.includes('anthropic')) return 'anthropic';
  return owner === 'openai' || owner === 'openai-internal' || owner === 'system' ? 'openai' : 'unknown';
}

export function readModelsPage(json: unknown): ModelsPage | { error: string } {
  if (!json || typeof json !== 'object') return { error: 'The models list is not a JSON object.' };
  const body = json as Record<string, unknown>;
  const data = Array.isArray(body.data) ? body.data : Array.isArray(body.models) ? body.models : undefined;
  if (!data) return { error: 'The models list has no data array.' };
  const models: ModelInfo[] = [];
  for (const entry of data) {
    if (typeof entry === 'string') {
      models.push({ id: entry, family: 'unknown' });
      continue;
    }
    if (!entry || typeof entry !== 'object') continue;
    const e = entry as Record<string, unknown>;
    const id = str(e.id) ?? str(e.name);
    if (!id) continue;
    const family = familyOf(e);
    const extra: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(e)) if (!KNOWN_KEYS.has(k)) extra[k] = v;
    const created =
      str(e.created_at) ?? (typeof e.created === 'number' ? new Date(e.created * 1000).toISOString() : undefined);
    models.push({
      id,
      family,
      displayName: str(e.display_name),
      createdAt: created,
      ownedBy: str(e.owned_by),
      extra: Object.keys(extra).length ? extra : undefined,
    });
  }
  return { models, hasMore: body.has_more === true, lastId: str(body.last_id) ?? models.at(-1)?.id };
}

/** Merge pages (and relays that list a model twice in both shapes) by id; the richer entry wins field by field. */
export function mergeModels(lists: ModelInfo[][]): ModelInfo[] {
  const byId = new Map<string, ModelInfo>();
  for (const list of lists) {
    for (const m of list) {
      const prev = byId.get(m.id);
      if (!prev) {
        byId.set(m.id, m);
        continue;
      }
      byId.set(m.id, {
        id: m.id,
        family: prev.family !== 'unknown' ? prev.family : m.family,
        displayName: prev.displayName ?? m.displayName,
        createdAt: prev.createdAt ?? m.createdAt,
        ownedBy: prev.ownedBy ?? m.ownedBy,
        extra: prev.extra || m.extra ? { ...m.extra, ...prev.extra } : undefined,
      });
    }
  }
  return [...byId.values()];
}

export function diffModelIds(before: string[] | undefined, after: string[]): { added: string[]; removed: string[] } {
  if (!before) return { added: [], removed: [] };
  const b = new Set(before);
  const a = new Set(after);
  return { added: after.filter((id) => !b.has(id)), removed: before.filter((id) => !a.has(id)) };
}
