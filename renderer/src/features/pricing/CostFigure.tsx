import type { CostQuote } from '../../../../shared/contract';
import { useAppStore } from '../../store';
import { costText } from './cost-text';

function why(q: CostQuote): string {
  if (q.kind === 'none') return `No price: ${q.reason}. Set one in Prices.`;
  const from =
    q.source === 'override'
      ? `your price for ${q.pricedAs} (Prices)`
      : `the list price of ${q.pricedAs} (@pydantic/genai-prices)${q.multiplier === 1 ? '' : ` × ${q.multiplier}, this profile’s multiplier`}`;
  return `From the usage the gateway reported and ${from}. Click to change prices.`;
}

/**
 * "cost $0.0123 (list price)" in the metrics line; "no price" when none is known. A button: the place to set
 * a price is one click away.
 */
export function CostFigure({
  quote,
  pending,
  model,
}: {
  quote: CostQuote | undefined;
  pending: boolean;
  model?: string;
}) {
  const open = useAppStore((s) => s.pricesDialogToggled);
  const text = quote ? costText(quote) : pending ? '…' : '—';
  return (
    <div className="cost-figure">
      <dt>cost</dt>
      <dd>
        <button
          type="button"
          className="link"
          aria-label={`cost ${text}`}
          title={quote ? why(quote) : 'Priced once the run reports its usage'}
          onClick={() => open(true, model)}
        >
          {text}
        </button>
      </dd>
    </div>
  );
}
