import type { Ledger as LedgerData, ResponseInfo } from '../../../../shared/contract';
import { useMemo, useState } from 'react';
import { bytes, elideBase64, prettyJson } from './format';
import { ResponseBody } from './ResponseBody';

const IMPORTANT =
  /^(request-id|x-request-id|x-oneapi-request-id|x-litellm-call-id|retry-after|.*ratelimit.*|cf-ray|server|content-type)$/i;

function Headers({ headers, label }: { headers: Record<string, string>; label: string }) {
  return (
    <table className="headers" aria-label={label}>
      <tbody>
        {Object.entries(headers).map(([k, v]) => (
          <tr key={k} className={IMPORTANT.test(k) ? 'important' : ''}>
            <td className="mono">{k}</td>
            <td className="mono">{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The body as sent, its base64 strings (images) shortened unless asked for in full. */
function RequestBody({ body }: { body: string }) {
  const [full, setFull] = useState(false);
  const pretty = useMemo(() => prettyJson(body), [body]);
  const short = useMemo(() => elideBase64(pretty), [pretty]);
  return (
    <>
      {short.elided > 0 && (
        <p className="muted small">
          {short.elided === 1 ? 'A base64 string is' : `${short.elided} base64 strings are`} shown shortened.{' '}
          <button type="button" className="ghost small" onClick={() => setFull(!full)}>
            {full ? 'Shorten base64' : 'Show in full'}
          </button>
        </p>
      )}
      <pre className="mono body" aria-label="Request body">
        {full ? pretty : short.text}
      </pre>
    </>
  );
}

/** The response's body: see ResponseBody. */
type Body = { rawBody?: string; received?: number; streamed: boolean; onShowEvents?: () => void };

export function Ledger({ ledger, response, body }: { ledger?: LedgerData; response?: ResponseInfo; body?: Body }) {
  if (!ledger) return <p className="muted empty">Nothing sent yet.</p>;
  return (
    <div className="ledger" role="region" aria-label="Ledger">
      <h4>Request as sent</h4>
      <p className="mono">
        <span className="badge">{ledger.method}</span> {ledger.url}
        {ledger.proxy && <span className="muted"> via proxy {ledger.proxy}</span>}
      </p>
      <p className="muted small">
        {ledger.profileName} · {ledger.startedAt} · body {bytes(ledger.bodyBytes)}
      </p>
      <Headers headers={ledger.headers} label="Request headers" />
      <p className="muted small">
        Only host, content-length and connection are added on the wire (HTTP/1.1 needs them); redirects are not
        followed.
      </p>
      {ledger.warnings.length > 0 && (
        <div className="warnings">
          <h4>Sent despite these capability warnings</h4>
          <ul>
            {ledger.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      )}
      <RequestBody body={ledger.body} />
      <h4>Response</h4>
      {response ? (
        <>
          <p className="mono">
            {response.status} {response.statusText} · headers after {Math.round(response.ttfbMs)} ms
          </p>
          <Headers headers={response.headers} label="Response headers" />
          {body && <ResponseBody {...body} />}
        </>
      ) : (
        <p className="muted">No response.</p>
      )}
    </div>
  );
}
