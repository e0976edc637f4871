import { memo } from 'react';
import type { CompareColumn } from '../../../../shared/contract';
import { PROTOCOL_IDS, PROTOCOL_INFO, type ProtocolId } from '../../../../shared/protocols/types';
import type { TranslateResult } from '../../../../shared/translate';
import { useAppStore } from '../../store';
import { Output } from '../stream-viewer/Output';
import { VERDICT_TONE, ms } from '../stream-viewer/format';
import { changeSummary, LossList } from '../translate/LossList';
import { plural } from '../../../../shared/plural';

/** One column's live run, compact. Subscribes to its own run only, so six streams never re-render each other. */
const ColumnRun = memo(function ColumnRun({ runId, onOpen }: { runId?: string; onOpen: () => void }) {
  const run = useAppStore((s) => (runId ? s.runs[runId] : undefined));
  if (!run) return <p className="muted small">Not run yet.</p>;
  const word = run.result?.verdict ?? run.status;
  const tone = VERDICT_TONE[word === 'done' ? 'streaming' : word];
  const ttft = run.result?.metrics.ttftMs ?? run.live.ttftMs;
  const total = run.result?.metrics.totalMs ?? run.live.lastT;
  return (
    <div className="column-run">
      <div role="status" aria-label="Stream status" className={`stream-status ${tone}`}>
        <strong>{word}</strong>
        {run.result && <span className="reason small"> — {run.result.reason}</span>}
      </div>
      <p className="muted small mono">
        TTFT {ms(ttft)} · total {ms(total)} · {plural(run.live.events, 'event')}
      </p>
      <Output transcript={run.transcript} live={run.status !== 'done'} />
      <button type="button" className="ghost small" onClick={onOpen}>
        Open in the full viewer
      </button>
    </div>
  );
});

/** Profile, protocol and model of a column, and its ✕. */
function ColumnHead({
  index,
  column,
  onRemoved,
}: {
  index: number;
  column: CompareColumn;
  onRemoved: (i: number) => void;
}) {
  const profiles = useAppStore((s) => s.profiles?.profiles);
  const count = useAppStore((s) => s.compareColumns.length);
  const edit = useAppStore((s) => s.compareColumnEdited);
  const remove = useAppStore((s) => s.compareColumnRemoved);
  const n = index + 1;
  return (
    <div className="row wrap">
      <select
        aria-label={`Column ${n} profile`}
        value={column.profileId}
        onChange={(e) => edit(index, { profileId: e.target.value })}
      >
        {profiles?.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      <select
        aria-label={`Column ${n} protocol`}
        value={column.protocol}
        onChange={(e) => edit(index, { protocol: e.target.value as ProtocolId })}
      >
        {PROTOCOL_IDS.map((p) => (
          <option key={p} value={p}>
            {PROTOCOL_INFO[p].label}
          </option>
        ))}
      </select>
      <input
        aria-label={`Column ${n} model`}
        className="mono"
        list="compare-models"
        value={column.model}
        onChange={(e) => edit(index, { model: e.target.value })}
      />
      <button
        type="button"
        className="ghost small"
        aria-label={`Remove column ${n}`}
        disabled={count <= 2}
        onClick={() => {
          remove(index);
          onRemoved(index);
        }}
      >
        ✕
      </button>
    </div>
  );
}

/** The column's request as it will be sent: what the translation lost, changed or added, and capability warnings. */
function ColumnRequest(props: { index: number; translated: TranslateResult; columnId: string }) {
  const { index, translated, columnId } = props;
  const guard = useAppStore((s) => s.compareGuards[columnId]);
  const flagged = guard?.items.filter((x) => x.state !== 'proven') ?? [];
  const warnings = flagged.length ? ` · ${flagged.length} capability warning${flagged.length === 1 ? '' : 's'}` : '';
  return (
    <details>
      <summary className="small">
        Request for this column{translated.ok ? ` · ${changeSummary(translated.losses)}` : ' · cannot translate'}
        {warnings}
      </summary>
      {translated.ok ? (
        <>
          <LossList losses={translated.losses} label={`Column ${index + 1} loss list`} />
          {flagged.length > 0 && (
            <ul className="guard">
              {flagged.map((x) => (
                <li key={x.capability} className={`guard-item ${x.state}`}>
                  <span className="badge">{x.state}</span> {x.capability}
                </li>
              ))}
            </ul>
          )}
          <pre className="mono small column-body">{JSON.stringify(translated.body, null, 2)}</pre>
        </>
      ) : (
        <p className="field-error">{translated.reason}</p>
      )}
    </details>
  );
}

/** The overrides field: applied when left, if it parses; its error stays beside it until fixed or emptied. */
function ColumnOverrides({ index, column, columnId }: { index: number; column: CompareColumn; columnId: string }) {
  const error = useAppStore((s) => s.compareOverrideErrors[columnId]);
  const typed = useAppStore((s) => s.compareOverridesTyped);
  const errorId = `${columnId}-overrides-error`;
  return (
    <>
      <label className="small">
        overrides (JSON merged into this column's body)
        <input
          aria-label={`Column ${index + 1} overrides`}
          className="mono"
          placeholder='{"temperature": 0.2}'
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          defaultValue={column.overrides ? JSON.stringify(column.overrides) : ''}
          onBlur={(e) => {
            e.target.setCustomValidity(typed(index, e.target.value) ?? '');
          }}
        />
      </label>
      {error && (
        <p id={errorId} className="field-error">
          Overrides not applied: {error}. Run all waits until this is fixed or emptied.
        </p>
      )}
    </>
  );
}

interface ColumnEditorProps {
  index: number;
  columnId: string;
  translated: TranslateResult;
  onOpen: (runId: string) => void;
  /** A column was removed: the diff's pair of columns follows. */
  onRemoved: (index: number) => void;
}

/** One column: where it goes, what it sends, and its run. */
export function ColumnEditor({ index, columnId, translated, onOpen, onRemoved }: ColumnEditorProps) {
  const column = useAppStore((s) => s.compareColumns[index]);
  const runId = useAppStore((s) => s.compareRunIds[index]);
  if (!column) return null;
  return (
    <section className="compare-column card" aria-label={`Column ${index + 1}`}>
      <ColumnHead index={index} column={column} onRemoved={onRemoved} />
      <ColumnRequest index={index} translated={translated} columnId={columnId} />
      <ColumnOverrides index={index} column={column} columnId={columnId} />
      <ColumnRun runId={runId} onOpen={() => runId && onOpen(runId)} />
    </section>
  );
}
