import type { CostQuote } from '../../../../shared/contract';

/** Dollars with enough places to tell runs apart: a single run often costs under a cent. */
export function usd(v: number): string {
  if (v === 0) return '$0';
  if (v < 0.0001) return '<$0.0001';
  return `$${v.toFixed(v >= 100 ? 2 : 4)}`;
}

/** Where the figure's prices came from, in the words the metrics line shows. */
export function sourceWords(q: CostQuote & { kind: 'priced' }): string {
  if (q.source === 'override') return 'your price';
  return q.multiplier === 1 ? 'list price' : `list price ×${q.multiplier}`;
}

/** "$0.0123 (list price)", "no price"; undefined while not yet answered. */
export function costText(q: CostQuote | undefined): string | undefined {
  if (!q) return undefined;
  return q.kind === 'priced' ? `${usd(q.usd)} (${sourceWords(q)})` : 'no price';
}

/** The sum over quotes, counting how many had no price: a total is only of what was priced, and says so. */
export function costTotal(quotes: readonly CostQuote[]): { usd: number; priced: number; unpriced: number } {
  let total = 0;
  let priced = 0;
  for (const q of quotes) {
    if (q.kind !== 'priced') continue;
    total += q.usd;
    priced++;
  }
  return { usd: total, priced, unpriced: quotes.length - priced };
}

/** A total in words: "$0.12", "$0.12 (2 runs without a price left out)", "no price". */
export function totalText(quotes: readonly CostQuote[], noun = 'run'): string {
  const t = costTotal(quotes);
  if (t.priced === 0) return 'no price';
  if (t.unpriced === 0) return usd(t.usd);
  const s = t.unpriced === 1 ? '' : 's';
  return `${usd(t.usd)} (${t.unpriced} ${noun}${s} without a price left out)`;
}
