import type { CollectionRunProgress, CollectionRunRow } from '../../../../shared/contract';
import { toJUnit } from '../../../../shared/collections/junit';
import { plural } from '../../../../shared/plural';
import { useAppStore } from '../../store';
import { download } from '../../lib/download';
import { RunsCostLine } from '../pricing/RunsCostLine';

const STATE_WORDS: Record<CollectionRunRow['state'], string> = {
  waiting: 'waiting',
  running: 'running…',
  passed: 'passed',
  failed: 'failed',
  skipped: 'not sent',
};

const ms = (v?: number) => (v === undefined ? '—' : v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(2)} s`);

function tokens(r: CollectionRunRow): string {
  if (r.inputTokens === undefined && r.outputTokens === undefined) return '—';
  return `${r.inputTokens ?? '—'} in · ${r.outputTokens ?? '—'} out`;
}

function expectationsCell(r: CollectionRunRow) {
  if (r.reason) return <span>{r.reason}</span>;
  if (!r.checks.length) return <span className="muted">{r.state === 'passed' ? 'completed' : '—'}</span>;
  return (
    <ul className="checks">
      {r.checks.map((c) => (
        <li key={c.expected} className={c.pass ? 'ok' : 'bad'}>
          {c.pass ? '✓' : '✗'} {c.expected}
          {c.actual ? ` — ${c.actual}` : ''}
        </li>
      ))}
    </ul>
  );
}

/** The run as JUnit XML, for the user's CI: one testcase per request, named by folder and request. */
export function junitOf(run: CollectionRunProgress): string {
  return toJUnit({
    name: `Collection ${run.folder.join(' / ')} on ${run.profileName}`,
    startedAt: run.startedAt,
    cases: run.rows.map((r) => ({
      name: r.name,
      folder: r.folder.join('/'),
      durationMs: r.totalMs ?? 0,
      passed: r.state === 'passed',
      skipped: r.state === 'skipped' || r.state === 'waiting',
      checks: r.checks,
      reason: r.reason ?? (r.verdict && r.verdict !== 'complete' ? `verdict ${r.verdict}` : undefined),
    })),
  });
}

/** The region "Collection run": one row per request as it ends, what it expected, and the JUnit export. */
export function CollectionRunPanel() {
  const run = useAppStore((s) => s.collectionRun);
  const stop = useAppStore((s) => s.collectionRunStopRequested);
  if (!run) return null;
  const passed = run.rows.filter((r) => r.state === 'passed').length;
  const failed = run.rows.filter((r) => r.state === 'failed').length;
  const done = run.state !== 'running';
  return (
    <section className="collection-run" role="region" aria-label="Collection run">
      <div className="row collection-run-head">
        <h3>
          {run.folder.join(' / ')} on {run.profileName}
        </h3>
        <span role="status" className={failed ? 'bad' : 'muted'}>
          {done ? (run.state === 'stopped' ? 'Stopped: ' : 'Finished: ') : 'Running: '}
          {passed} of {plural(run.rows.length, 'request')} passed{failed ? `, ${failed} failed` : ''}
        </span>
        {done && <RunsCostLine runIds={run.rows.flatMap((r) => (r.runId ? [r.runId] : []))} />}
        {!done && (
          <button type="button" onClick={() => void stop()}>
            Stop
          </button>
        )}
        {done && (
          <button
            type="button"
            onClick={() =>
              download(
                `collection-${run.folder.join('-').replace(/[^\w.-]+/g, '_')}.junit.xml`,
                junitOf(run),
                'application/xml',
              )
            }
          >
            Export JUnit
          </button>
        )}
      </div>
      <table className="collection-run-table">
        <thead>
          <tr>
            <th scope="col">Request</th>
            <th scope="col">Result</th>
            <th scope="col">Verdict</th>
            <th scope="col">Status</th>
            <th scope="col">TTFT</th>
            <th scope="col">Tokens</th>
            <th scope="col">Expectations</th>
          </tr>
        </thead>
        <tbody>
          {run.rows.map((r) => (
            <tr key={r.presetId} className={`state-${r.state}`}>
              <th scope="row">
                {r.name}
                <span className="muted small"> {r.model ?? ''}</span>
              </th>
              <td>{STATE_WORDS[r.state]}</td>
              <td>{r.verdict ?? '—'}</td>
              <td>{r.status ?? '—'}</td>
              <td>{ms(r.ttftMs)}</td>
              <td>{tokens(r)}</td>
              <td>{expectationsCell(r)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
