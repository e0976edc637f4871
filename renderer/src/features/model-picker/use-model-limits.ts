import { useEffect } from 'react';
import type { ModelLimits } from '../../../../shared/contract';
import { useAppStore } from '../../store';
import { limitsKey } from '../../store/prices-slice';

/**
 * A model's context window and output cap as the core found them (the gateway's own entry, else the catalog):
 * asked once per model, and again when the models list is fetched anew (its entry may now say more).
 */
export function useModelLimits(profileId: string | undefined, model: string | undefined): ModelLimits | undefined {
  const id = model?.trim();
  const limits = useAppStore((s) => (profileId && id ? s.modelLimits[limitsKey(profileId, id)] : undefined));
  const fetchedAt = useAppStore((s) => (profileId ? s.models[profileId]?.fetchedAt : undefined));
  const requested = useAppStore((s) => s.modelLimitsRequested);
  useEffect(() => {
    if (profileId && id) void requested(profileId, id);
  }, [profileId, id, fetchedAt, requested]);
  return limits;
}
