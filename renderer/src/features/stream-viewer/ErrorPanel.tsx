import { useEffect, useState } from 'react';
import type { GatewayErrorInfo } from '../../../../shared/contract';

export function ErrorPanel({ error, rawBody, endedAt }: { error: GatewayErrorInfo; rawBody?: string; endedAt: string }) {
  const retryAt = error.retryAfter !== undefined ? Date.parse(endedAt) + error.retryAfter * 1000 : undefined;
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!retryAt || retryAt <= Date.now()) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [retryAt]);
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
