import { memo, useEffect, useMemo, useState } from 'react';
import { diffWords } from 'diff';
import { useShallow } from 'zustand/react/shallow';
import type { CompareColumn, GuardReport } from '../../../../shared/contract';
import { PROTOCOL_IDS, PROTOCOL_INFO, type ProtocolId, type Transcript } from '../../../../shared/protocols/types';
import { translateRequest } from '../../../../shared/translate';
import { gateway } from '../../bridge';
import { useAppStore } from '../../store';
import { JsonEditor } from '../composer/JsonEditor';
import { usePresetSave } from '../library/use-preset-save';
import { getSystem, getTurns, setField, setSystem, setTurnText } from '../composer/body-fields';
import { Output } from '../stream-viewer/Output';
import { StreamViewer } from '../stream-viewer/StreamViewer';
import { VERDICT_TONE, ms } from '../stream-viewer/format';
import { summaryRows } from './summary';

const MAX_COLUMNS = 6;

function columnBody(shared: Record<string, unknown>, column: CompareColumn) {
  const t = translateRequest('messages', column.protocol, shared);
  if (!t.ok) return t;
  return { ...t, body: { ...t.body, model: column.model, ...column.overrides } };
}

type ParsedOverrides = { ok: true; value?: Record<string, unknown> } | { ok: false; error: string };

/** The overrides field's text: empty means no overrides; anything but a JSON object is an error, never dropped silently. */
function parseOverrides(text: string): ParsedOverrides {
  if (!text.trim()) return { ok: true };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `not valid JSON (${(err as Error).message})` };
  }
  return v && typeof v === 'object' && !Array.isArray(v) ? { ok: true, value: v as Record<string, unknown> } : { ok: false, error: 'must be a JSON object, like {"temperature": 0.2}' };
}

const textOf = (t?: Transcript) => (t ? t.blocks.map((b) => (b.kind === 'text' || b.kind === 'refusal' ? b.text : b.kind === 'tool_call' ? `[${b.name}(${b.argsText})]` : '')).join('') : '');

/** One column's live run, compact. Subscribes to its own run only, so six streams never re-render each other. */
const ColumnRun = memo(function ColumnRun({ runId, onOpen }: { runId?: string; onOpen: () => void }) {
  const run = useAppStore((s) => (runId ? s.runs[runId] : undefined));
  if (!run) return <p className="muted small">Not run yet.</p>;
  const word = run.result?.verdict ?? run.status;
  const tone = VERDICT_TONE[word === 'done' ? 'streaming' : word];
  return (
    <div className="column-run">
      <div role="status" aria-label="Stream status" className={`stream-status ${tone}`}>
        <strong>{word}</strong>
        {run.result && <span className="reason small"> — {run.result.reason}</span>}
      </div>
      <p className="muted small mono">
        TTFT {ms(run.result?.metrics.ttftMs ?? run.live.ttftMs)} · total {ms(run.result?.metrics.totalMs ?? run.live.lastT)} · {run.live.events} events
      </p>
      <Output transcript={run.transcript} live={run.status !== 'done'} />
      <button type="button" className="ghost small" onClick={onOpen}>
        Open in the full viewer
      </button>
    </div>
  );
});

export function CompareTab() {
  const body = useAppStore((s) => s.compareBody);
  const columns = useAppStore((s) => s.compareColumns);
  const columnIds = useAppStore((s) => s.compareColumnIds);
  const runIds = useAppStore((s) => s.compareRunIds);
  const jsonText = useAppStore((s) => s.compareJsonText);
  const jsonError = useAppStore((s) => s.compareJsonError);
  const profiles = useAppStore((s) => s.profiles);
  const activeProfile = profiles?.activeId ?? 'demo';
  const models = useAppStore((s) => s.models[activeProfile]?.models);
  const editBody = useAppStore((s) => s.compareBodyEdited);
  const jsonTyped = useAppStore((s) => s.compareJsonTyped);
  const setColumns = useAppStore((s) => s.compareColumnsChanged);
  const editColumn = useAppStore((s) => s.compareColumnEdited);
  const addColumn = useAppStore((s) => s.compareColumnAdded);
  const removeColumn = useAppStore((s) => s.compareColumnRemoved);
  const runsStarted = useAppStore((s) => s.compareRunsStarted);
  const runStartRequested = useAppStore((s) => s.runStartRequested);
  const results = useAppStore(useShallow((s) => runIds.map((id) => (id ? s.runs[id]?.result : undefined))));
  const [fullView, setFullView] = useState<string>();
  const [diffPair, setDiffPair] = useState<[number, number]>([0, 1]);
  // Keyed by column id, so a removed column's check is never shown (or sent) for its neighbour.
  const [guardsById, setGuardsById] = useState<Record<string, GuardReport | undefined>>({});
  const [presetName, setPresetName] = useState('');
  const saving = usePresetSave(() => undefined);
  const comparison = () => ({ name: presetName, protocol: 'messages' as const, body, stream: body.stream === true, compare: { columns }, tags: ['comparison'] });
  const [layoutNote, setLayoutNote] = useState<string>();
  // Keyed by column id, like the guards: a column whose overrides field does not parse, with the parse error.
  const [overrideErrorsById, setOverrideErrorsById] = useState<Record<string, string | undefined>>({});

  /** A column's stable id: React key, and the key of its guard (an id-less state set from outside falls back to the index). */
  const idOf = (i: number) => columnIds[i] ?? `index-${i}`;
  const translated = useMemo(() => columns.map((c) => columnBody(body, c)), [body, columns]);

  useEffect(() => {
    let live = true;
    const ids = columns.map((_, i) => idOf(i));
    void Promise.all(
      columns.map((c, i) => {
        const t = translated[i];
        return t.ok && c.model ? gateway.capabilities.guard({ profileId: c.profileId, model: c.model, protocol: c.protocol, body: t.body }).then((r) => (r.ok ? r.value : undefined)) : undefined;
      }),
    ).then((g) => live && setGuardsById(Object.fromEntries(ids.map((id, i) => [id, g[i]]))));
    return () => {
      live = false;
    };
  }, [columns, columnIds, translated]);
  const guards = columns.map((_, i) => guardsById[idOf(i)]);
  const overrideErrors = columns.map((_, i) => overrideErrorsById[idOf(i)]);
  const invalidOverrides = overrideErrors.flatMap((e, i) => (e ? [i + 1] : []));

  const update = (i: number, patch: Partial<CompareColumn>) => editColumn(i, patch);
  const remove = (i: number) => {
    removeColumn(i);
    // The diff keeps showing the same columns: those after the removed one move down by one, and a side that
    // showed the removed column falls back to the first or second column (at least two always remain).
    const moved = (j: number, fallback: number) => (j > i ? j - 1 : j === i ? fallback : j);
    setDiffPair(([x, y]) => [moved(x, 0), moved(y, 1)]);
  };
  const firstModel = (models ?? [])[0]?.id ?? 'claude-sim-sonnet';

  const runAll = async () => {
    const started = await Promise.all(
      columns.map(async (c, i) => {
        const t = translated[i];
        if (!t.ok) return [idOf(i), undefined] as const;
        const r = await runStartRequested({ profileId: c.profileId, protocol: c.protocol, body: t.body, origin: 'compare', warnings: guards[i]?.warnings ?? [] });
        return [idOf(i), { runId: r.runId, column: c }] as const;
      }),
    );
    runsStarted(Object.fromEntries(started));
  };

  const system = getSystem('messages', body);
  const turns = getTurns('messages', body);
  const rows = summaryRows(results);
  const [a, b] = diffPair;
  const diff = useMemo(() => (results[a] && results[b] ? diffWords(textOf(results[a]?.transcript), textOf(results[b]?.transcript)) : undefined), [results, a, b]);

  return (
    <div className="compare" role="tabpanel" aria-label="Compare">
      <section className="compare-prompt card">
        <div className="card-head">
          <span className="label">Shared prompt — written once, translated into each column's protocol</span>
          <span className="row">
            <button
              type="button"
              onClick={() => {
                setLayoutNote(undefined);
                setColumns(PROTOCOL_IDS.map((p) => ({ profileId: activeProfile, protocol: p, model: columns[0]?.model || firstModel })));
              }}
            >
              Same model, three protocols
            </button>
            <button
              type="button"
              onClick={() => {
                const protocol = columns[0]?.protocol ?? 'messages';
                const ids = (models ?? []).map((m) => m.id).filter((id) => !id.startsWith('sim-fault') && id !== 'sim-firehose').slice(0, 3);
                // Fewer than two columns cannot be compared (nor run), so the current ones are worth more.
                if (ids.length < 2) {
                  setLayoutNote(
                    models
                      ? `Needs at least 2 models, but this profile's model list has ${ids.length === 1 ? 'only 1' : 'none'}. Columns left as they were.`
                      : "This profile's model list is not loaded yet, so there are no models to lay out. Columns left as they were.",
                  );
                  return;
                }
                setLayoutNote(undefined);
                setColumns(ids.map((model) => ({ profileId: activeProfile, protocol, model })));
              }}
            >
              Same protocol, N models
            </button>
          </span>
        </div>
        {layoutNote && (
          <p role="status" aria-label="Layout note" className="note">
            {layoutNote}
          </p>
        )}
        <div className="compare-prompt-grid">
          <label>
            <span className="label">System prompt</span>
            <textarea aria-label="Shared system prompt" rows={2} value={system.text} disabled={!system.editable} onChange={(e) => editBody(setSystem('messages', body, e.target.value))} />
          </label>
          <label>
            <span className="label">User turn</span>
            <textarea aria-label="Shared user turn" rows={2} value={turns[turns.length - 1]?.text ?? ''} onChange={(e) => editBody(setTurnText('messages', body, turns.length - 1, e.target.value))} />
          </label>
          <label>
            <span className="label">max_tokens</span>
            <input aria-label="Shared max_tokens" value={typeof body.max_tokens === 'number' ? String(body.max_tokens) : ''} onChange={(e) => editBody(setField(body, 'max_tokens', Number(e.target.value) || undefined))} />
          </label>
          <label className="inline">
            <input type="checkbox" checked={body.stream === true} onChange={(e) => editBody(setField(body, 'stream', e.target.checked))} /> stream
          </label>
        </div>
        <details>
          <summary className="small">Whole shared prompt as JSON (Messages shape: tools, thinking, more turns…)</summary>
          <JsonEditor
            label="Shared prompt JSON"
            minHeight="100px"
            value={jsonText}
            onChange={jsonTyped}
          />
          {jsonError && <p className="field-error">{jsonError}</p>}
        </details>
        <div className="row">
          <button type="button" className="primary" disabled={!!jsonError || columns.length < 2 || invalidOverrides.length > 0} onClick={() => void runAll()}>
            Run all
          </button>
          <button type="button" disabled={columns.length >= MAX_COLUMNS} onClick={() => addColumn({ profileId: activeProfile, protocol: 'chat', model: firstModel })}>
            + Column
          </button>
          <div className="spacer" />
          <input
            aria-label="Comparison name"
            placeholder="comparison name"
            value={presetName}
            aria-invalid={!!saving.clash}
            onChange={(e) => {
              setPresetName(e.target.value);
              saving.reset();
            }}
          />
          <button
            type="button"
            disabled={!presetName.trim()}
            onClick={() => void saving.save(comparison())}
          >
            Save comparison
          </button>
          {saving.message && <span className="note">{saving.message}</span>}
          {saving.clash && (
            <button type="button" onClick={() => void saving.replace(comparison())}>
              Replace it
            </button>
          )}
        </div>
        {invalidOverrides.length > 0 && (
          <p className="note" role="status" aria-label="Run all blocked">
            Run all is off until the overrides of column {invalidOverrides.join(', ')} are valid JSON (or empty).
          </p>
        )}
      </section>

      <div className="compare-columns" style={{ gridTemplateColumns: `repeat(${columns.length}, minmax(260px, 1fr))` }}>
        {columns.map((c, i) => {
          const t = translated[i];
          const g = guards[i];
          const flagged = g?.items.filter((x) => x.state !== 'proven') ?? [];
          return (
            <section key={idOf(i)} className="compare-column card" aria-label={`Column ${i + 1}`}>
              <div className="row wrap">
                <select aria-label={`Column ${i + 1} profile`} value={c.profileId} onChange={(e) => update(i, { profileId: e.target.value })}>
                  {profiles?.profiles.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </select>
                <select aria-label={`Column ${i + 1} protocol`} value={c.protocol} onChange={(e) => update(i, { protocol: e.target.value as ProtocolId })}>
                  {PROTOCOL_IDS.map((p) => (
                    <option key={p} value={p}>
                      {PROTOCOL_INFO[p].label}
                    </option>
                  ))}
                </select>
                <input aria-label={`Column ${i + 1} model`} className="mono" list="compare-models" value={c.model} onChange={(e) => update(i, { model: e.target.value })} />
                <button type="button" className="ghost small" aria-label={`Remove column ${i + 1}`} disabled={columns.length <= 2} onClick={() => remove(i)}>
                  ✕
                </button>
              </div>
              <details>
                <summary className="small">
                  Request for this column{t.ok ? ` · ${t.losses.length} loss${t.losses.length === 1 ? '' : 'es'}` : ' · cannot translate'}
                  {flagged.length ? ` · ${flagged.length} capability warning${flagged.length === 1 ? '' : 's'}` : ''}
                </summary>
                {t.ok ? (
                  <>
                    <ul className="losses" aria-label={`Column ${i + 1} loss list`}>
                      {t.losses.map((l, k) => (
                        <li key={k} className={`loss ${l.kind}`}>
                          <span className="badge">{l.kind}</span> <span className="mono">{l.path}</span> — {l.reason}
                        </li>
                      ))}
                    </ul>
                    {flagged.length > 0 && (
                      <ul className="guard">
                        {flagged.map((x) => (
                          <li key={x.capability} className={`guard-item ${x.state}`}>
                            <span className="badge">{x.state}</span> {x.capability}
                          </li>
                        ))}
                      </ul>
                    )}
                    <pre className="mono small column-body">{JSON.stringify(t.body, null, 2)}</pre>
                  </>
                ) : (
                  <p className="field-error">{t.reason}</p>
                )}
              </details>
              <label className="small">
                overrides (JSON merged into this column's body)
                <input
                  aria-label={`Column ${i + 1} overrides`}
                  className="mono"
                  placeholder='{"temperature": 0.2}'
                  aria-invalid={overrideErrors[i] ? true : undefined}
                  aria-describedby={overrideErrors[i] ? `${idOf(i)}-overrides-error` : undefined}
                  defaultValue={c.overrides ? JSON.stringify(c.overrides) : ''}
                  onBlur={(e) => {
                    const parsed = parseOverrides(e.target.value);
                    e.target.setCustomValidity(parsed.ok ? '' : parsed.error);
                    setOverrideErrorsById((m) => ({ ...m, [idOf(i)]: parsed.ok ? undefined : parsed.error }));
                    if (parsed.ok) update(i, { overrides: parsed.value });
                  }}
                />
              </label>
              {overrideErrors[i] && (
                <p id={`${idOf(i)}-overrides-error`} className="field-error">
                  Overrides not applied: {overrideErrors[i]}. Run all waits until this is fixed or emptied.
                </p>
              )}
              <ColumnRun runId={runIds[i]} onOpen={() => setFullView(runIds[i])} />
            </section>
          );
        })}
      </div>
      <datalist id="compare-models">
        {(models ?? []).map((m) => (
          <option key={m.id} value={m.id} />
        ))}
      </datalist>

      <section className="card compare-summary">
        <table className="summary" aria-label="Comparison summary">
          <thead>
            <tr>
              <th />
              {columns.map((c, i) => (
                <th key={i}>
                  {i + 1}. {PROTOCOL_INFO[c.protocol].label} · <span className="mono">{c.model}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.label}>
                <th>{r.label}</th>
                {columns.map((_, i) => (
                  <td key={i} className={r.best === i ? 'best' : ''}>
                    {r.values[i] === undefined ? (results[i] ? 'not reported' : '—') : String(r.values[i])}
                    {r.best === i ? ' ★' : ''}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <div className="row">
          <span className="label">Diff</span>
          <select aria-label="Diff left" value={a} onChange={(e) => setDiffPair([Number(e.target.value), b])}>
            {columns.map((_, i) => (
              <option key={i} value={i}>
                column {i + 1}
              </option>
            ))}
          </select>
          <select aria-label="Diff right" value={b} onChange={(e) => setDiffPair([a, Number(e.target.value)])}>
            {columns.map((_, i) => (
              <option key={i} value={i}>
                column {i + 1}
              </option>
            ))}
          </select>
        </div>
        {diff ? (
          <div className="diff" aria-label="Output diff">
            <div className="diff-side">
              {diff.map((p, k) => (p.added ? null : <span key={k} className={p.removed ? 'removed' : ''}>{p.value}</span>))}
            </div>
            <div className="diff-side">
              {diff.map((p, k) => (p.removed ? null : <span key={k} className={p.added ? 'added' : ''}>{p.value}</span>))}
            </div>
          </div>
        ) : (
          <p className="muted small">Run two columns to compare their outputs word by word.</p>
        )}
      </section>
      {fullView && (
        <div className="full-view" role="dialog" aria-label="Full viewer">
          <button type="button" className="ghost" aria-label="Close full viewer" onClick={() => setFullView(undefined)}>
            ✕ Close
          </button>
          <StreamViewer runId={fullView} />
        </div>
      )}
    </div>
  );
}
