import { useState } from 'react';
import { formatAge } from '../../../../shared/capabilities';
import type { AgentResult, AgentStep, StepExchange } from '../../../../shared/contract';
import { AGENTS } from '../../../../shared/agents/types';
import { useAppStore } from '../../store';
import { useNow } from '../../lib/use-now';
import { StreamViewer } from '../stream-viewer/StreamViewer';
import { RunsCostLine } from '../pricing/RunsCostLine';

const exchangeRequest = (x: StepExchange) =>
  `${x.method} ${x.url}\n${JSON.stringify(x.requestHeaders, null, 2)}\n\n${x.requestBody}`;
const exchangeResponse = (x: StepExchange) => `${x.status ?? x.error ?? ''}\n${x.responseBody ?? ''}`;

/** Its own component, so the tick each second renders this text and not the verdict with its open run. */
function Age({ at }: { at: string }) {
  return formatAge(useNow(1000) - Date.parse(at));
}

const OUTCOME_MARK: Record<AgentStep['outcome'], string> = { pass: '✓', warn: '!', fail: '✗', skip: '–' };

/**
 * One (agent, model) verdict: the sentence first (it starts with ready / degraded / not ready), then every
 * step with its evidence; each step's runs open in the stream viewer, or in the composer to try again by hand.
 */
export function AgentVerdict({
  result,
  onError,
}: {
  result: AgentResult;
  onError: (message: string | undefined) => void;
}) {
  const evidenceRequested = useAppStore((s) => s.evidenceRequested);
  const runReopened = useAppStore((s) => s.composerRunReopened);
  const tabSelected = useAppStore((s) => s.tabSelected);
  const [shown, setShown] = useState<string>();
  const protocol = AGENTS[result.agent].protocol;

  const load = async (runId: string): Promise<boolean> => {
    const err = await evidenceRequested(runId);
    onError(err ? `${err.message} (runs are kept in memory for a while only: check again to see it)` : undefined);
    return !err;
  };
  const open = async (runId: string) => {
    if (await load(runId)) setShown(runId);
  };
  const toComposer = async (runId: string) => {
    if (!(await load(runId))) return;
    const ledger = useAppStore.getState().runs[runId]?.ledger;
    let body: unknown;
    try {
      body = ledger ? JSON.parse(ledger.body) : undefined;
    } catch {
      body = undefined;
    }
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return onError('The recorded body is not a JSON object.');
    runReopened(
      protocol,
      body as Record<string, unknown>,
      `Step of the ${AGENTS[result.agent].label} check on ${result.model}.`,
    );
    tabSelected(protocol);
  };
  const tookSeconds = Math.round(result.durationMs / 100) / 10;

  return (
    <section className={`agent-verdict ${result.level}`} role="region" aria-label="Agent verdict">
      <p className="verdict-text">{result.verdict}</p>
      <p className="muted small">
        {AGENTS[result.agent].label} · <span className="mono">{result.model}</span>
        {result.smallModel ? ` · small fast model ${result.smallModel}` : ''}
        {result.replayed ? ` · replaying ${result.replayed}` : ''} · measured {new Date(result.at).toLocaleString()} (
        <Age at={result.at} /> ago) · {tookSeconds} s · <RunsCostLine runIds={result.steps.flatMap((s) => s.runIds)} />
      </p>
      <ol className="agent-steps" aria-label="Steps">
        {result.steps.map((s) => (
          <StepItem key={s.id} step={s} onOpen={(id) => void open(id)} onCompose={(id) => void toComposer(id)} />
        ))}
      </ol>
      {shown && (
        <div className="evidence-viewer">
          <StreamViewer runId={shown} />
        </div>
      )}
    </section>
  );
}

function StepItem({
  step: s,
  onOpen,
  onCompose,
}: {
  step: AgentStep;
  onOpen(id: string): void;
  onCompose(id: string): void;
}) {
  return (
    <li className={`step ${s.outcome}`}>
      <span className={`badge ${s.outcome}`} aria-label={s.outcome}>
        {OUTCOME_MARK[s.outcome]}
      </span>{' '}
      <strong>{s.title}</strong>
      {s.status !== undefined ? ` · HTTP ${s.status}` : ''}: {s.evidence}
      {s.consequence && <div className="consequence">{s.consequence}</div>}
      {s.exchange && (
        <details>
          <summary>Request and response</summary>
          <pre className="mono">{exchangeRequest(s.exchange)}</pre>
          <pre className="mono">{exchangeResponse(s.exchange)}</pre>
        </details>
      )}
      <div className="row wrap">
        {s.runIds.map((id, i) => (
          <span key={id} className="run-links">
            <button
              type="button"
              className="small"
              aria-label={`Open run ${i + 1} of ${s.title}`}
              onClick={() => onOpen(id)}
            >
              Run {i + 1}
            </button>
            <button
              type="button"
              className="small ghost"
              aria-label={`Open run ${i + 1} of ${s.title} in the composer`}
              onClick={() => onCompose(id)}
            >
              in the composer
            </button>
          </span>
        ))}
      </div>
    </li>
  );
}
