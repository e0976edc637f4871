import { useEffect, useRef } from 'react';
import { useAppStore } from '../../store';
import { useNow } from '../../lib/use-now';
import type { GatewayErrorInfo } from '../../../../shared/contract';

/** Statuses that say "try again later": a rate limit, and Anthropic's overloaded. */
const RETRYABLE = new Set([429, 529]);

/**
 * "Retry now" says what a click does: it sends at once, whatever the wait (the countdown is the retry-after line
 * above, not the button's, so a label like "Retry in 28 s" cannot read as a schedule). Retrying by itself when
 * the wait is over is the switch beside it (a setting the core keeps, off by default).
 */
function RetryButton({ left, onRetry }: { left?: number; onRetry: () => void }) {
  const autoRetry = useAppStore((s) => s.settings.autoRetry);
  const autoRetrySwitched = useAppStore((s) => s.autoRetrySwitched);
  const fired = useRef(false);
  useEffect(() => {
    if (!autoRetry || left !== 0 || fired.current) return;
    fired.current = true;
    onRetry();
  }, [autoRetry, left, onRetry]);
  return (
    <div className="row retry">
      <button
        type="button"
        className="primary small"
        onClick={onRetry}
        title={left ? `Sends the request again now, ${left} s before retry-after allows` : 'Sends the request again'}
      >
        Retry now
      </button>
      <label className="inline small muted">
        <input type="checkbox" checked={autoRetry} onChange={(e) => void autoRetrySwitched(e.target.checked)} />
        Retry automatically when the wait is over{autoRetry && left ? ` (in ${left} s)` : ''}
      </label>
    </div>
  );
}

interface ErrorPanelProps {
  error: GatewayErrorInfo;
  rawBody?: string;
  endedAt: string;
  /** Sends the same request again; offered on a 429 or 529 when given. */
  onRetry?: () => void;
}

export function ErrorPanel({ error, rawBody, endedAt, onRetry }: ErrorPanelProps) {
  const retryMs = error.retryAfter !== undefined ? Date.parse(endedAt) + error.retryAfter * 1000 : NaN;
  const retryAt = Number.isFinite(retryMs) ? retryMs : undefined;
  // Read afresh for each new `until`: the panel is reused when another run is shown (History, Compare).
  const now = useNow(1000, { on: retryAt !== undefined, until: retryAt });
  const left = retryAt ? Math.max(0, Math.ceil((retryAt - now) / 1000)) : undefined;
  const retryable = onRetry && error.status !== undefined && RETRYABLE.has(error.status);
  return (
    <div className="error-panel" role="alert" aria-label="Error">
      <div className="error-title">
        {error.status !== undefined && <span className="badge err">HTTP {error.status}</span>}{' '}
        <span className="mono">{error.type}</span>
        {error.code && <span className="mono muted"> · {error.code}</span>}
      </div>
      <p className="error-message">{error.message}</p>
      <dl className="kv small">
        {error.requestId && (
          <>
            <dt>request id</dt>
            <dd className="mono">{error.requestId}</dd>
          </>
        )}
        {error.retryAfter !== undefined && (
          <>
            <dt>retry-after</dt>
            <dd aria-label="Retry after">
              {error.retryAfter} s — {left ? `retry in ${left} s` : 'you can retry now'}
            </dd>
          </>
        )}
        {error.contentType && (
          <>
            <dt>content-type</dt>
            <dd className="mono">{error.contentType}</dd>
          </>
        )}
      </dl>
      {retryable && <RetryButton left={error.retryAfter === undefined ? 0 : left} onRetry={onRetry} />}
      {(rawBody ?? error.rawBody) && (
        <details open={!!error.contentType?.includes('html')}>
          <summary>Raw body (shown as text, never rendered)</summary>
          <pre className="mono raw-body">{rawBody ?? error.rawBody}</pre>
        </details>
      )}
    </div>
  );
}
