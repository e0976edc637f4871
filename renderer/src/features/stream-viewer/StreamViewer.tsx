import { useMemo, useState } from 'react';
import type { Ledger as LedgerData, RunMetrics } from '../../../../shared/contract';
import { getModel } from '../../../../shared/protocols/compose';
import { useAppStore } from '../../store';
import { useNow } from '../../lib/use-now';
import { readArrival } from './arrival';
import { ErrorPanel } from './ErrorPanel';
import { EventsList } from './EventsList';
import { bytes, count, ms, usageRows, VERDICT_TONE, verdictWord } from './format';
import { Ledger } from './Ledger';
import { Output } from './Output';
import { Timeline } from './Timeline';
import { CostFigure } from '../pricing/CostFigure';
import { useRunCost } from '../pricing/use-cost';

type Pane = 'events' | 'timeline' | 'ledger';

/** The model the request named, read from the body as sent; undefined when it is not JSON or names none. */
function requestedModel(body: string): string | undefined {
  try {
    return getModel(JSON.parse(body) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

/** The reported model is the one asked for, or a dated snapshot of it (gpt-4o-2024-08-06, claude-x-20250929); gpt-4o-mini is not gpt-4o. */
function sameModel(asked: string, reported: string): boolean {
  if (reported === asked) return true;
  if (!reported.startsWith(`${asked}-`)) return false;
  return /^(\d{4}-\d{2}-\d{2}|\d{8})$/.test(reported.slice(asked.length + 1));
}

/**
 * A rate over less time than this is timer and scheduling noise, not a speed: a non-streamed reply of 15 tokens
 * answered in 2 ms reads 7,500 tok/s. A quarter second holds several display frames and network reads.
 */
export const RATE_MIN_MS = 250;

/** tok/s, saying what it was measured over: from the first token, or (with none seen) the whole request. */
function TokensPerSec({ metrics: m, buffered }: { metrics?: RunMetrics; buffered: boolean }) {
  if (m?.outputTokensPerSec === undefined) return <dd>—</dd>;
  if (buffered) {
    const why = `${m.outputTokensPerSec} tok/s as measured: every token arrived in one burst`;
    return <dd title={why}>— (one burst)</dd>;
  }
  const whole = m.ttftMs === undefined;
  const spanMs = m.totalMs - (m.ttftMs ?? 0);
  if (spanMs < RATE_MIN_MS) {
    const over = whole ? 'the whole request' : 'the time from the first token to the end';
    const why = `Not shown: ${over} took ${ms(spanMs)}, under ${RATE_MIN_MS} ms, too short for a rate to mean anything`;
    return <dd title={why}>— (too short)</dd>;
  }
  if (!whole) return <dd>{m.outputTokensPerSec}</dd>;
  return (
    <dd title="No token arrived on its own (non-streamed): output tokens over the whole request, waiting included">
      {m.outputTokensPerSec} <span className="muted small">over the whole request</span>
    </dd>
  );
}

/** After this long without an event, a live run says how long it has been quiet. */
const QUIET_MS = 2000;

/** `onRetry`: sends the run's request again (its ledger); the Errors panel offers it for a 429 or 529. */
export function StreamViewer({ runId, onRetry }: { runId?: string; onRetry?: (ledger: LedgerData) => void }) {
  const run = useAppStore((s) => (runId ? s.runs[runId] : undefined));
  const [pane, setPane] = useState<Pane>('events');
  const stepped = !!run?.live.stepped;
  // Every half second while live: the time keeps moving while no events come, so a stall shows.
  const now = useNow(500, { on: !!run && run.status !== 'done' && !stepped });
  // Once per run, not per frame: a body with images can be megabytes.
  const ledger = run?.ledger;
  const asked = useMemo(() => (ledger ? requestedModel(ledger.body) : undefined), [ledger]);
  const cost = useRunCost(ledger?.profileId, asked, run?.transcript.model, run?.result?.metrics.usage);
  // Read once when the run ends; the timeline shows it, and a stream flushed in one burst has no meaningful rate.
  const done = run?.status === 'done';
  const events = run?.events;
  const endMs = run?.result?.metrics.totalMs ?? run?.live.lastT;
  const ttfbMs = run?.response?.ttfbMs;
  const content = run?.live.content;
  const reading = useMemo(
    () => (events && done ? readArrival(events, endMs, ttfbMs, content ?? []) : undefined),
    [done, events, endMs, ttfbMs, content],
  );
  if (!run) {
    return (
      <div className="viewer empty-viewer">
        <div role="status" aria-label="Stream status" className="stream-status idle">
          idle
        </div>
        <p className="muted">
          Press Send (Ctrl+Enter) to run this request. Every event, its timing and how the run ended will show here.
        </p>
      </div>
    );
  }
  const result = run.result;
  const live = run.status !== 'done';
  const liveWord = run.status === 'done' ? 'streaming' : run.status;
  const word = result ? verdictWord(result.verdict, result.warnings.length) : liveWord;
  const m = result?.metrics;
  const usage = m?.usage ?? run.transcript.usage;
  // While live, the time since the run started, so a stalled stream shows its stall instead of the time of its
  // last event.
  const started = run.live.startedAt;
  // Stepping: the time of the last event shown, so the user's pauses between steps count for nothing.
  const elapsed = live && started !== undefined && !stepped ? Math.max(now - started, run.live.lastT ?? 0) : undefined;
  const quietMs = elapsed === undefined ? undefined : elapsed - (run.live.lastT ?? run.response?.ttfbMs ?? 0);
  const totalMs = m?.totalMs ?? elapsed ?? run.live.lastT;
  const seconds = (v: number) => `${Math.floor(v / 1000)} s`;
  const quiet =
    quietMs === undefined || quietMs < QUIET_MS
      ? ''
      : run.response
        ? ` · no data for ${seconds(quietMs)}`
        : ` · waiting ${seconds(quietMs)} for the response`;
  return (
    <div className="viewer">
      <div className="viewer-head">
        <div role="status" aria-label="Stream status" className={`stream-status ${VERDICT_TONE[word]}`}>
          <strong>{word}</strong>
          {result ? (
            <span className="reason"> — {result.reason}</span>
          ) : (
            <span className="reason">
              {' '}
              — {count(run.live.events)} {run.live.events === 1 ? 'event' : 'events'}
              {stepped ? ' · stepping, clock paused' : ''}
              {/* Not announced: inside the status region it would be read out again every half second. */}
              <span aria-live="off">{quiet}</span>
            </span>
          )}
        </div>
        <dl className="metrics" aria-label="Metrics">
          <div>
            <dt>status</dt>
            <dd>{run.response?.status ?? '—'}</dd>
          </div>
          <div>
            <dt>TTFB</dt>
            <dd>{ms(run.response?.ttfbMs)}</dd>
          </div>
          <div>
            <dt>TTFT</dt>
            <dd>{ms(m?.ttftMs ?? run.live.ttftMs)}</dd>
          </div>
          <div>
            <dt>total</dt>
            <dd>{ms(totalMs)}</dd>
          </div>
          <div>
            <dt>tok/s</dt>
            <TokensPerSec metrics={m} buffered={reading?.kind === 'buffered'} />
          </div>
          <div>
            <dt>events</dt>
            <dd>{count(m?.events ?? run.live.events)}</dd>
          </div>
          <div>
            <dt>bytes</dt>
            <dd>{bytes(m?.bytes ?? run.live.bytes)}</dd>
          </div>
          <CostFigure quote={cost} pending={!!result} model={asked ?? run.transcript.model} />
        </dl>
        <dl className="metrics usage" aria-label="Usage">
          {usageRows(usage).map(([k, v]) => (
            <div key={k} className={v === 'not reported' ? 'not-reported' : ''}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
        {(run.transcript.id || run.transcript.model) && (
          // As the gateway reported them: the id is what previous_response_id and support tickets need, and a
          // relay may answer with another model than the one asked for.
          <dl className="metrics" aria-label="Response">
            {run.transcript.id && (
              <div>
                <dt>id</dt>
                <dd>{run.transcript.id}</dd>
              </div>
            )}
            {run.transcript.model && (
              <div>
                <dt>model</dt>
                <dd>{run.transcript.model}</dd>
              </div>
            )}
            {run.transcript.model && asked !== undefined && !sameModel(asked, run.transcript.model) && (
              <div>
                <dt>asked for</dt>
                <dd>{asked}</dd>
              </div>
            )}
          </dl>
        )}
        {result && result.warnings.length > 0 && (
          <ul className="run-warnings small" aria-label="Warnings">
            {result.warnings.map((w) => (
              <li key={w}>⚠ {w}</li>
            ))}
          </ul>
        )}
      </div>
      {result?.error && (
        <ErrorPanel
          error={result.error}
          rawBody={result.rawBody}
          endedAt={result.endedAt}
          onRetry={onRetry && run.ledger ? () => onRetry(run.ledger!) : undefined}
        />
      )}
      <Output
        transcript={run.transcript}
        live={live}
        empty={
          // A body that could not be read (cut short, not the protocol's shape) still arrived: say where it is.
          result?.rawBody !== undefined && !result.error ? (
            <>
              No output could be read from the {bytes(result.metrics.bytes)} body.{' '}
              <button type="button" className="ghost small" onClick={() => setPane('ledger')}>
                Show the body as received
              </button>
            </>
          ) : undefined
        }
      />
      <div className="pane-tabs" role="tablist" aria-label="Run details">
        {(['events', 'timeline', 'ledger'] as Pane[]).map((p) => (
          <button
            key={p}
            type="button"
            role="tab"
            aria-selected={pane === p}
            className={pane === p ? 'selected' : ''}
            onClick={() => setPane(p)}
          >
            {p === 'events' ? `Events (${count(run.live.events)})` : p === 'timeline' ? 'Timeline' : 'Ledger'}
          </button>
        ))}
      </div>
      <div className="pane">
        {pane === 'events' && <EventsList key={run.runId} events={run.events} live={live} types={run.live.types} />}
        {pane === 'timeline' && (
          <Timeline
            events={run.events}
            ttfbMs={run.response?.ttfbMs}
            ttftMs={m?.ttftMs ?? run.live.ttftMs}
            totalMs={totalMs}
            reading={reading}
          />
        )}
        {pane === 'ledger' && (
          <Ledger
            ledger={run.ledger}
            response={run.response}
            body={{
              rawBody: result?.rawBody,
              received: m?.bytes,
              streamed:
                result?.rawBody === undefined &&
                (run.events.length > 0 || /text\/event-stream/i.test(run.response?.contentType ?? '')),
              onShowEvents: () => setPane('events'),
            }}
          />
        )}
      </div>
    </div>
  );
}
