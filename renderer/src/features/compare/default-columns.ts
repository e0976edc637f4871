/**
 * Compare's columns start from the active profile: a model that profile lists, on every protocol when one is
 * known to serve all three, or the first that serves each column's protocol (and a note saying so).
 */
import type { CapabilityResultView, CompareColumn, ModelInfo } from '../../../../shared/contract';
import { PROTOCOL_IDS, type ProtocolId } from '../../../../shared/protocols/types';

/** Relays such as new-api list each model's endpoint types; only the three that map to a protocol are read. */
const ENDPOINT_TYPES: Record<string, ProtocolId> = {
  anthropic: 'messages',
  openai: 'chat',
  'openai-response': 'responses',
};

/**
 * Whether the profile's gateway serves `model` on `protocol`: false only on evidence (the list's endpoint
 * types leave it out, or a probe got a 404 there), true on a probe that was answered, undefined when unknown.
 */
export function servedOn(
  model: ModelInfo,
  protocol: ProtocolId,
  results: readonly CapabilityResultView[] = [],
): boolean | undefined {
  const types = model.extra?.supported_endpoint_types;
  if (Array.isArray(types) && types.some((t) => typeof t === 'string' && t in ENDPOINT_TYPES)) {
    if (!types.some((t) => ENDPOINT_TYPES[t as string] === protocol)) return false;
  }
  const probed = results.filter((r) => r.model === model.id && r.protocol === protocol);
  if (probed.some((r) => r.status === 404)) return false;
  if (probed.some((r) => r.outcome === 'proven')) return true;
  return undefined;
}

/** Listed models in the order to try: known families first, fault models never. */
function candidates(models: readonly ModelInfo[]): ModelInfo[] {
  // Fault models (the core marks them) make poor defaults.
  const usable = models.filter((m) => !m.fault);
  return [...usable.filter((m) => m.family !== 'unknown'), ...usable.filter((m) => m.family === 'unknown')];
}

/** The first candidate not known to miss any of `protocols`. */
function modelFor(
  models: readonly ModelInfo[],
  protocols: readonly ProtocolId[],
  results?: readonly CapabilityResultView[],
) {
  return candidates(models).find((m) => protocols.every((p) => servedOn(m, p, results) !== false))?.id;
}

export interface Layout {
  /** Undefined when there is nothing to lay out (no models): the columns stay as they were. */
  columns?: CompareColumn[];
  note?: string;
}

interface ProfileModels {
  profileId: string;
  models?: readonly ModelInfo[];
  results?: readonly CapabilityResultView[];
  /** The models list could not be fetched: said instead of "not loaded yet". */
  error?: string;
}

function noModels(p: ProfileModels): Layout {
  if (p.error)
    return { note: `This profile's model list could not be fetched (${p.error}). Columns left as they were.` };
  return {
    note: p.models
      ? "This profile's model list is empty, so there is no model to lay out. Columns left as they were."
      : "This profile's model list is not loaded yet, so there are no models to lay out. Columns left as they were.",
  };
}

/**
 * One column per protocol in `protocols`, all on one model the profile lists that is not known to miss any of
 * them (`preferred` first, when listed); when none serves them all, each column gets its own and a note says so.
 */
export function protocolLayout(p: ProfileModels, protocols: readonly ProtocolId[], preferred?: string): Layout {
  const listed = candidates(p.models ?? []);
  if (!listed.length) return noModels(p);
  const keep = listed.find((m) => m.id === preferred);
  const shared =
    keep && protocols.every((q) => servedOn(keep, q, p.results) !== false)
      ? keep.id
      : modelFor(listed, protocols, p.results);
  if (shared) return { columns: protocols.map((protocol) => ({ profileId: p.profileId, protocol, model: shared })) };
  const columns = protocols.map((protocol) => ({
    profileId: p.profileId,
    protocol,
    model: modelFor(listed, [protocol], p.results) ?? listed[0].id,
  }));
  return {
    columns,
    note:
      `No model this profile lists serves all of ${protocols.length === PROTOCOL_IDS.length ? 'the three' : 'these'} ` +
      'protocols: each column uses one that serves its protocol.',
  };
}

/** The columns Compare opens with on a profile: Messages and Chat Completions on one listed model. */
export function defaultColumns(p: ProfileModels): Layout {
  return protocolLayout(p, ['messages', 'chat']);
}

/** "Same protocol, N models": up to three listed models on one protocol; fewer than two cannot be compared. */
export function modelsLayout(p: ProfileModels, protocol: ProtocolId): Layout {
  const ids = candidates(p.models ?? [])
    .filter((m) => servedOn(m, protocol, p.results) !== false)
    .slice(0, 3)
    .map((m) => m.id);
  if (!p.models?.length) return noModels(p);
  if (ids.length < 2) {
    return {
      note:
        `Needs at least 2 models, but this profile's model list has ${ids.length === 1 ? 'only 1' : 'none'}. ` +
        'Columns left as they were.',
    };
  }
  return { columns: ids.map((model) => ({ profileId: p.profileId, protocol, model })) };
}
