import { useCallback, useMemo } from 'react';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { resolveValue, scopeFor, variablesUsed } from '../../../../shared/collections/variables';
import { useAppStore } from '../../store';

/**
 * The `{{variables}}` of a protocol tab's request (docs/collections.md): the active profile's values, then the
 * folder's its preset came from. Send is held while one has no value; what is sent has them put in, so the
 * ledger shows the request as it went out while the tab keeps the `{{name}}` the user wrote.
 */
export function useVariables<B extends Record<string, unknown>>(protocol: ProtocolId, body: B) {
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const collections = useAppStore((s) => s.collections);
  const folder = useAppStore((s) => s.draftFolders[protocol]);
  const scope = useMemo(() => scopeFor(collections, profileId, folder), [collections, profileId, folder]);
  const used = useMemo(() => variablesUsed(body), [body]);
  const unknown = useMemo(() => used.filter((n) => !Object.hasOwn(scope, n)), [used, scope]);
  const resolve = useCallback(<T>(value: T): T => resolveValue(value, scope), [scope]);
  const heldBecause = unknown.length
    ? `Send is held: no value for ${unknown.map((n) => `{{${n}}}`).join(', ')}. Set it in Presets → Variables.`
    : undefined;
  return { used, unknown, heldBecause, resolve };
}
