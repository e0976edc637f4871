import { useEffect, useMemo, useRef, useState } from 'react';
import type { TokenCount } from '../../../../shared/contract';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { getModel } from '../../../../shared/protocols/compose';
import { useAppStore } from '../../store';
import { count as formatCount } from '../stream-viewer/format';
import { useBodyToSend } from '../composer/body-to-send';
import { FitWarning } from './FitWarning';

const DEBOUNCE_MS = 400;

type CountWith = 'auto' | 'always' | 'never';

/**
 * "sent N, gateway reported M": N is the count of the body the run went out with, as its ledger records it
 * (after "Send tool results" that is the body with the tool turns, not the one counted while typing).
 */
function useSentCount(protocol: ProtocolId, useGateway: CountWith): { runId: string; tokens: number } | undefined {
  const activeRunId = useAppStore((s) => s.composers[protocol].activeRunId);
  const sentText = useAppStore((s) => (activeRunId ? s.runs[activeRunId]?.ledger?.body : undefined));
  const sentProfile = useAppStore((s) => (activeRunId ? s.runs[activeRunId]?.ledger?.profileId : undefined));
  const countRequested = useAppStore((s) => s.tokenCountRequested);
  const [sent, setSent] = useState<{ runId: string; tokens: number }>();
  useEffect(() => {
    if (!activeRunId || !sentText || !sentProfile) return;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(sentText) as Record<string, unknown>;
    } catch {
      return;
    }
    let live = true;
    void countRequested({ profileId: sentProfile, protocol, body, useGateway }).then((r) => {
      if (live && r.ok) setSent({ runId: activeRunId, tokens: r.value.inputTokens });
    });
    return () => {
      live = false;
    };
  }, [activeRunId, sentText, sentProfile, protocol, useGateway, countRequested]);
  return sent?.runId === activeRunId ? sent : undefined;
}

/**
 * "Input tokens": counted while the user edits, from the gateway when it can, else a labelled estimate. What
 * is counted is what Send would send: the body plus the "Message" box as the next user turn. Nothing is asked
 * of the gateway before a model is chosen: its count would only be an error about the missing model.
 */
export function InputTokens({ protocol }: { protocol: ProtocolId }) {
  const body = useBodyToSend(protocol);
  const jsonError = useAppStore((s) => s.composers[protocol].jsonError);
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const activeRunId = useAppStore((s) => s.composers[protocol].activeRunId);
  const reported = useAppStore((s) =>
    activeRunId ? s.runs[activeRunId]?.result?.metrics.usage.inputTotal : undefined,
  );
  const [count, setCount] = useState<TokenCount>();
  const [error, setError] = useState<string>();
  const [breakdownOpen, setBreakdownOpen] = useState(false);
  const [useGateway, setUseGateway] = useState<CountWith>('auto');
  const countRequested = useAppStore((s) => s.tokenCountRequested);
  const noModel = !getModel(body);
  const preSend = useSentCount(protocol, useGateway);
  const latest = useRef(0);
  /** Read when a count is sent (not a dependency), so hiding the breakdown does not count again. */
  const wantBreakdown = useRef(false);
  /** Bumped when the breakdown is opened: a count with it is asked for then. */
  const [breakdownAsked, setBreakdownAsked] = useState(0);
  /** Set with it: that count goes out at once, not after the typing debounce. */
  const now = useRef(false);

  /** What one count asks: any change is a new request, counted afresh. */
  const request = useMemo(
    () => ({ body, profileId, useGateway, breakdownAsked, countable: !jsonError && !!profileId && !noModel }),
    [body, profileId, useGateway, breakdownAsked, jsonError, noModel],
  );
  /** The request answered last, with its breakdown: shown only while it is the request of now, so never stale. */
  const [answered, setAnswered] = useState<{ request: typeof request; breakdown?: TokenCount['breakdown'] }>();
  const pending = request.countable && answered?.request !== request;
  const breakdown = answered?.request === request ? answered.breakdown : undefined;

  // One count per request; while the breakdown is open it comes with it.
  useEffect(() => {
    const { countable, profileId: countOn, body: counted, useGateway: countWith } = request;
    if (!countable || !countOn) return;
    const n = ++latest.current;
    const delay = now.current ? 0 : DEBOUNCE_MS;
    now.current = false;
    const t = setTimeout(
      () =>
        void (async () => {
          const withBreakdown = wantBreakdown.current;
          const r = await countRequested({
            profileId: countOn,
            protocol,
            body: counted,
            useGateway: countWith,
            ...(withBreakdown ? { breakdown: true } : {}),
          });
          if (n !== latest.current) return;
          if (r.ok) {
            setCount(r.value);
            setError(undefined);
          } else if (r.error.code !== 'aborted') setError(r.error.message);
          const got = r.ok && withBreakdown ? (r.value.breakdown ?? []) : undefined;
          setAnswered({ request, breakdown: got });
        })(),
      delay,
    );
    return () => clearTimeout(t);
  }, [request, protocol, countRequested]);

  const text = jsonError
    ? 'fix the JSON'
    : noModel
      ? 'pick a model to count'
      : error
        ? `count failed: ${error}`
        : count
          ? `${formatCount(count.inputTokens)} · ${count.label}`
          : 'counting…';
  const settled = !pending && !jsonError && !noModel;
  return (
    <div className="input-tokens">
      <span
        role="status"
        aria-label="Input tokens"
        className={`token-count ${count?.source ?? ''}`}
        title={count?.fallbackReason ?? count?.label}
      >
        Input tokens: {text}
        {pending && !jsonError && !noModel ? ' …' : ''}
      </span>
      {/* The last count's reason, only while it is the count shown: a new body (a model picked) is counted afresh. */}
      {count?.fallbackReason && settled && <span className="muted small"> ({count.fallbackReason})</span>}
      <FitWarning profileId={profileId} body={body} inputTokens={settled ? count?.inputTokens : undefined} />
      {preSend && reported !== undefined && (
        <span className="small" aria-label="Count vs usage">
          {' '}
          · last run: sent {formatCount(preSend.tokens)}, gateway reported {formatCount(reported)} (
          {reported - preSend.tokens >= 0 ? '+' : ''}
          {reported - preSend.tokens})
        </span>
      )}
      <select
        aria-label="Count with"
        className="small"
        value={useGateway}
        onChange={(e) => setUseGateway(e.target.value as CountWith)}
        title="Ask the gateway's count_tokens, or count locally"
      >
        <option value="auto">auto</option>
        <option value="always">gateway</option>
        <option value="never">local</option>
      </select>
      <button
        type="button"
        className="ghost small"
        aria-expanded={breakdownOpen}
        onClick={() => {
          wantBreakdown.current = !breakdownOpen;
          setBreakdownOpen(!breakdownOpen);
          if (!breakdownOpen) {
            now.current = true;
            setBreakdownAsked((k) => k + 1);
          }
        }}
      >
        {breakdownOpen ? 'Hide breakdown' : 'Breakdown'}
      </button>
      {breakdownOpen && !breakdown && !jsonError && <span className="muted small"> breakdown: counting…</span>}
      {breakdownOpen && breakdown && (
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
