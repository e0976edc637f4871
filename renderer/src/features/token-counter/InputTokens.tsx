import { useEffect, useRef, useState } from 'react';
import type { TokenCount } from '../../../../shared/contract';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { gateway } from '../../bridge';
import { useAppStore } from '../../store';
import { count as formatCount } from '../stream-viewer/format';

const DEBOUNCE_MS = 400;

/** "Input tokens": counted while the user edits, from the gateway when it can, else a labelled estimate. */
export function InputTokens({ protocol }: { protocol: ProtocolId }) {
  const body = useAppStore((s) => s.composers[protocol].body);
  const jsonError = useAppStore((s) => s.composers[protocol].jsonError);
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const activeRunId = useAppStore((s) => s.composers[protocol].activeRunId);
  const reported = useAppStore((s) => (activeRunId ? s.runs[activeRunId]?.result?.metrics.usage.inputTotal : undefined));
  const [count, setCount] = useState<TokenCount>();
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const [preSend, setPreSend] = useState<{ runId: string; tokens: number }>();
  const [breakdown, setBreakdown] = useState<TokenCount['breakdown']>();
  const [useGateway, setUseGateway] = useState<'auto' | 'always' | 'never'>('auto');
  const latest = useRef(0);

  useEffect(() => {
    if (jsonError || !profileId) return;
    setPending(true);
    const n = ++latest.current;
    const t = setTimeout(async () => {
      const r = await gateway.tokens.count({ profileId, protocol, body, useGateway });
      if (n !== latest.current) return;
      setPending(false);
      if (r.ok) {
        setCount(r.value);
        setError(undefined);
      } else if (r.error.code !== 'aborted') setError(r.error.message);
    }, DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [body, jsonError, profileId, protocol, useGateway]);

  // The pre-send count is the one for the body as sent: wait for an in-flight count to settle first.
  useEffect(() => {
    if (activeRunId && count && !pending && preSend?.runId !== activeRunId) setPreSend({ runId: activeRunId, tokens: count.inputTokens });
  }, [activeRunId, count, pending, preSend?.runId]);

  const showBreakdown = async () => {
    if (!profileId) return;
    const r = await gateway.tokens.count({ profileId, protocol, body, useGateway, breakdown: true });
    if (r.ok) setBreakdown(r.value.breakdown);
  };

  const text = jsonError ? 'fix the JSON' : error ? `count failed: ${error}` : count ? `${formatCount(count.inputTokens)} · ${count.label}` : 'counting…';
  return (
    <div className="input-tokens">
      <span role="status" aria-label="Input tokens" className={`token-count ${count?.source ?? ''}`} title={count?.fallbackReason ?? count?.label}>
        Input tokens: {text}
        {pending && !jsonError ? ' …' : ''}
      </span>
      {count?.fallbackReason && <span className="muted small"> ({count.fallbackReason})</span>}
      {preSend && preSend.runId === activeRunId && reported !== undefined && (
        <span className="small" aria-label="Count vs usage">
          {' '}
          · sent {formatCount(preSend.tokens)}, gateway reported {formatCount(reported)} ({reported - preSend.tokens >= 0 ? '+' : ''}
          {reported - preSend.tokens})
        </span>
      )}
      <select aria-label="Count with" className="small" value={useGateway} onChange={(e) => setUseGateway(e.target.value as typeof useGateway)} title="Ask the gateway's count_tokens, or count locally">
        <option value="auto">auto</option>
        <option value="always">gateway</option>
        <option value="never">local</option>
      </select>
      <button type="button" className="ghost small" onClick={() => (breakdown ? setBreakdown(undefined) : void showBreakdown())}>
        {breakdown ? 'Hide breakdown' : 'Breakdown'}
      </button>
      {breakdown && (
        <ul className="breakdown" aria-label="Token breakdown">
          {breakdown.map((b) => (
            <li key={b.label}>
              <span>{b.label}</span> <span className="mono">{b.tokens}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
