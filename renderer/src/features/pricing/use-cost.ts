import { useEffect, useMemo, useState } from 'react';
import type { CostQuote, QuoteItem } from '../../../../shared/contract';
import type { Usage } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';

/**
 * What each item cost, quoted by the core (the price library lives there): asked again when the items, the
 * profile or its prices change. Undefined until answered; `items` of no length answer `[]`.
 */
export function useCostQuotes(
  profileId: string | undefined,
  items: readonly QuoteItem[] | undefined,
): CostQuote[] | undefined {
  const version = useAppStore((s) => s.pricesVersion);
  const request = useAppStore((s) => s.costQuoteRequested);
  // By value: a parent that builds the same items anew each render must not ask again.
  const key = useMemo(() => (items ? JSON.stringify(items) : undefined), [items]);
  const [answer, setAnswer] = useState<{ key: string; version: number; quotes: CostQuote[] }>();
  useEffect(() => {
    if (!profileId || key === undefined) return;
    let live = true;
    void request(profileId, JSON.parse(key) as QuoteItem[]).then((r) => {
      if (live && r.ok) setAnswer({ key: `${profileId} ${key}`, version, quotes: r.value.quotes });
    });
    return () => {
      live = false;
    };
  }, [profileId, key, version, request]);
  return answer && answer.key === `${profileId} ${key}` ? answer.quotes : undefined;
}

/** One run's quote: the model asked for first, then the one the gateway reported. */
export function useRunCost(
  profileId: string | undefined,
  asked: string | undefined,
  reported: string | undefined,
  usage: Usage | undefined,
): CostQuote | undefined {
  const items = useMemo(
    () => (usage ? [{ models: [asked, reported].filter((m): m is string => !!m), usage }] : undefined),
    [asked, reported, usage],
  );
  return useCostQuotes(profileId, items)?.[0];
}
