import { useEffect, useMemo } from 'react';
import type { TranslateResult } from '../../../../shared/translate';
import { useAppStore } from '../../store';
import { columnBody } from './column-request';

/**
 * Each column's request, translated from the shared prompt, and its capability check kept in the store by
 * column id (so a removed column's check is never shown, or sent, for its neighbour).
 */
export function useCompareGuards(): TranslateResult[] {
  const body = useAppStore((s) => s.compareBody);
  const columns = useAppStore((s) => s.compareColumns);
  const columnIds = useAppStore((s) => s.compareColumnIds);
  const guardRequested = useAppStore((s) => s.guardRequested);
  const guardsReceived = useAppStore((s) => s.compareGuardsReceived);
  const translated = useMemo(() => columns.map((c) => columnBody(body, c)), [body, columns]);

  useEffect(() => {
    let live = true;
    const ids = [...columnIds];
    void Promise.all(
      columns.map((c, i) => {
        const t = translated[i];
        if (!t.ok || !c.model || !c.profileId) return Promise.resolve(undefined);
        const input = { profileId: c.profileId, model: c.model, protocol: c.protocol, body: t.body };
        // A failed check leaves the column without a report, as if none had been asked for.
        return guardRequested(input).then((r) => (r.ok ? r.value : undefined));
      }),
    ).then((g) => live && guardsReceived(Object.fromEntries(ids.map((id, i) => [id, g[i]]))));
    return () => {
      live = false;
    };
  }, [columns, columnIds, translated, guardRequested, guardsReceived]);
  return translated;
}
