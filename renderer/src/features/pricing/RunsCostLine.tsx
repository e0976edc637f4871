import { useEffect, useMemo, useState } from 'react';
import type { RunsCost } from '../../../../shared/contract';
import { useAppStore } from '../../store';
import { usd } from './cost-text';

/** "cost $0.0421 (list price, 2 runs without a price left out)" and the like, for any set of runs. */
export function runsCostText(c: RunsCost): string {
  const notes = [
    c.unpriced > 0 ? `${c.unpriced} run${c.unpriced === 1 ? '' : 's'} without a price left out` : '',
    c.missing > 0 ? `${c.missing} run${c.missing === 1 ? '' : 's'} no longer in memory` : '',
  ].filter(Boolean);
  const figure = c.priced > 0 ? usd(c.usd) : c.missing > 0 && c.unpriced === 0 ? 'not known' : 'no price';
  return `cost ${figure}${notes.length ? ` (${notes.join(', ')})` : ''}`;
}

/**
 * What a set of runs cost together (an agent check, a collection run), totalled by the core from the runs it
 * holds; asked again when prices change.
 */
export function RunsCostLine({ runIds }: { runIds: readonly string[] }) {
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const version = useAppStore((s) => s.pricesVersion);
  const request = useAppStore((s) => s.runsCostRequested);
  const key = useMemo(() => runIds.join(' '), [runIds]);
  const [answer, setAnswer] = useState<{ key: string; cost: RunsCost }>();
  useEffect(() => {
    if (!profileId || !key) return;
    let live = true;
    void request(profileId, key.split(' ')).then((r) => {
      if (live && r.ok) setAnswer({ key, cost: r.value });
    });
    return () => {
      live = false;
    };
  }, [profileId, key, version, request]);
  if (!key || answer?.key !== key) return null;
  const text = runsCostText(answer.cost);
  return (
    <span
      className="runs-cost"
      role="note"
      aria-label={text}
      title="From the usage each run reported and this profile's prices"
    >
      {text}
    </span>
  );
}
