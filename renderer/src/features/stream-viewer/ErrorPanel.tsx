import { useEffect, useState } from 'react';
import type { GatewayErrorInfo } from '../../../../shared/contract';

/**
 * The time, read afresh whenever `until` changes and then every second until it has passed. The panel is reused
 * when another run is shown (History, Compare), so a clock read once at mount would count down from a stale time.
 */
function useClockUntil(until: number | undefined): number {
  const [clock, setClock] = useState(() => ({ until, now: Date.now() }));
  if (clock.until !== until) setClock({ until, now: Date.now() });
  useEffect(() => {
    if (until === undefined) return;
    const tick = () => {
      const now = Date.now();
      setClock({ until, now });
      if (now >= until) clearInterval(timer);
    };
    const timer = setInterval(tick, 1000);
    tick();
    return () => clearInterval(timer);
  }, [until]);
  return clock.now;
}

export function ErrorPanel({ error, rawBody, endedAt }: { error: GatewayErrorInfo; rawBody?: string; endedAt: string }) {
  const retryMs = error.retryAfter !== undefined ? Date.parse(endedAt) + error.retryAfter * 1000 : NaN;
  const retryAt = Number.isFinite(retryMs) ? retryMs : undefined;
  const now = useClockUntil(retryAt);
  const left = retryAt ? Math.max(0, Math.ceil((retryAt - now) / 1000)) : undefined;
  return (
    <div className="error-panel" role="alert" aria-label="Error">
      <div className="error-title">
        {error.status !== undefined && <span className="badge err">HTTP {error.status}</span>} <span className="mono">{error.type}</span>
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
      {(rawBody ?? error.rawBody) && (
        <details open={!!error.contentType?.includes('html')}>
          <summary>Raw body (shown as text, never rendered)</summary>
          <pre className="mono raw-body">{rawBody ?? error.rawBody}</pre>
        </details>
      )}
    </div>
  );
}
