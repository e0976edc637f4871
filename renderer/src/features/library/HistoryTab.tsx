import { Fragment, useCallback, useEffect, useRef, useState } from 'react';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import type { HistorySummary } from '../../../../shared/contract';
import { PROTOCOL_INFO, VERDICTS } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import { StreamViewer } from '../stream-viewer/StreamViewer';
import { bytes, ms, verdictWord, WITH_WARNINGS } from '../stream-viewer/format';
import type { HistoryFilterState } from '../../store/library-slice';
import { CodeDialog, type RecordedRequest } from '../export/CodeDialog';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { startReplay, type ReplayHandle, type ReplayMode } from './replay';

let replayCounter = 0;

/** A run's row: two lines of text and a line of figures (styles.css `.history-list button`). */
const ROW_HEIGHT = 64;
const UNLAID = { width: 480, height: 800 };

interface RowProps {
  r?: HistorySummary;
  selected: boolean;
  onOpen: (runId: string) => void;
}

function HistoryRow({ r, selected, onOpen }: RowProps) {
  if (!r) return <span className="muted small h-loading">loading…</span>;
  return (
    <button type="button" className={selected ? 'selected' : ''} onClick={() => onOpen(r.runId)}>
      <span className={`verdict-dot ${r.verdict}${r.warnings ? ' warned' : ''}`} aria-hidden />
      <span className="h-main">
        <span className="mono small">
          {PROTOCOL_INFO[r.protocol].label} · {r.model ?? '?'} ·{' '}
          <strong>{verdictWord(r.verdict, r.warnings ?? 0)}</strong>
          {r.status ? ` · ${r.status}` : ''}
        </span>
        <span className="h-preview">{r.preview}</span>
      </span>
      <span className="muted small h-meta">
        {new Date(r.startedAt).toLocaleTimeString()} · {ms(r.totalMs)} · {r.events} ev
        {r.origin !== 'composer' ? ` · ${r.origin}` : ''}
      </span>
    </button>
  );
}

/** The list of runs, virtualized: only the rows in view exist, and their pages are fetched as they come into view. */
interface ListProps {
  runs: (HistorySummary | undefined)[];
  selected?: string;
  onOpen: (runId: string) => void;
}

function HistoryList({ runs, selected, onOpen }: ListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const rowsShown = useAppStore((s) => s.historyRowsShown);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here; nothing memoizes its API
  const virtual = useVirtualizer({
    count: runs.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    // A list with no layout yet (or none at all, as in jsdom) is taken to be a window tall, not zero rows.
    initialRect: UNLAID,
    observeElementRect: (instance, cb) => observeElementRect(instance, (rect) => cb(rect.height ? rect : UNLAID)),
  });
  const items = virtual.getVirtualItems();
  const from = items[0]?.index ?? 0;
  const to = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (runs.length) rowsShown(from, to);
  }, [from, to, runs, rowsShown]);
  return (
    <div className="history-scroll" ref={scroller}>
      <ul className="history-list" aria-label="Runs" style={{ height: virtual.getTotalSize() }}>
        {items.map((v) => (
          <li
            key={runs[v.index]?.runId ?? `row-${v.index}`}
            aria-setsize={runs.length}
            aria-posinset={v.index + 1}
            style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}
          >
            <HistoryRow r={runs[v.index]} selected={selected === runs[v.index]?.runId} onOpen={onOpen} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The verdict select's value: "complete" alone means a clean one, apart from "complete, with warnings". */
function verdictChoice(f: HistoryFilterState): string {
  return f.verdict === 'complete' && f.withWarnings ? WITH_WARNINGS : (f.verdict ?? '');
}

function verdictFilter(choice: string): Pick<HistoryFilterState, 'verdict' | 'withWarnings'> {
  if (choice === WITH_WARNINGS) return { verdict: 'complete', withWarnings: true };
  if (choice === 'complete') return { verdict: 'complete', withWarnings: false };
  return { verdict: (choice || undefined) as HistoryFilterState['verdict'], withWarnings: undefined };
}

/** Every finished run, newest first; open one as it was, replay it, or bring its request back to the composer. */
export function HistoryTab() {
  const history = useAppStore((s) => s.history);
  const filter = useAppStore((s) => s.historyFilter);
  const historyRequested = useAppStore((s) => s.historyRequested);
  const historyRunRequested = useAppStore((s) => s.historyRunRequested);
  const historyRunDeleted = useAppStore((s) => s.historyRunDeleted);
  const recordedRunRequested = useAppStore((s) => s.recordedRunRequested);
  const runUpdatesReceived = useAppStore((s) => s.runUpdatesReceived);
  const runDiscarded = useAppStore((s) => s.runDiscarded);
  const runReopened = useAppStore((s) => s.composerRunReopened);
  const profiles = useAppStore((s) => s.profiles);
  const profileSelected = useAppStore((s) => s.profileSelected);
  const tabSelected = useAppStore((s) => s.tabSelected);
  const [selected, setSelected] = useState<string>();
  const [shown, setShown] = useState<string>();
  const [error, setError] = useState<string>();
  const replay = useRef<ReplayHandle | undefined>(undefined);
  const [stepping, setStepping] = useState(false);
  /** Bumped by every selection change: a fetch that finishes after another was made is stale and dropped. */
  const request = useRef(0);
  /** The run the replay in `replay` shows, as state: what the panel renders must not read the ref. */
  const [replayRunId, setReplayRunId] = useState<string>();
  const [code, setCode] = useState<{ protocol: ProtocolId; recorded: RecordedRequest }>();

  useEffect(() => {
    void historyRequested();
  }, [historyRequested]);
  /** Stops the replay, if any, and drops its view: a 20k-event replay is not kept once nothing shows it. */
  const endReplay = useCallback((): boolean => {
    const h = replay.current;
    if (!h) return false;
    replay.current = undefined;
    setReplayRunId(undefined);
    h.discard();
    runDiscarded(h.runId);
    return true;
  }, [runDiscarded]);
  useEffect(() => () => void endReplay(), [endReplay]);
  const shownStatus = useAppStore((s) => (shown ? s.runs[shown]?.status : undefined));
  const replaying =
    replayRunId !== undefined && replayRunId === shown && shownStatus !== undefined && shownStatus !== 'done';
  /** Stop keeps the replay's view, ended where it was, so what it showed so far stays to read. */
  const stopReplay = () => {
    replay.current?.stop();
    setStepping(false);
  };

  const open = async (runId: string) => {
    if (endReplay()) setShown(undefined);
    setStepping(false);
    setSelected(runId);
    const req = ++request.current;
    const err = await recordedRunRequested(runId);
    if (req !== request.current) return;
    setError(err?.message);
    setShown(err ? undefined : runId);
  };

  const play = async (mode: ReplayMode) => {
    if (!selected) return;
    const req = ++request.current;
    const r = await historyRunRequested(selected);
    if (req !== request.current) return;
    if (!r.ok) return setError(r.error.message);
    endReplay();
    const h = startReplay(r.value, mode, runUpdatesReceived, `replay_${++replayCounter}_${selected}`);
    replay.current = h;
    setReplayRunId(h.runId);
    setShown(h.runId);
    setStepping(mode === 'step');
  };

  /** The request as sent, to the gateway it was sent to: a run from another profile switches back to that profile. */
  const toComposer = async () => {
    if (!selected) return;
    const r = await historyRunRequested(selected);
    if (!r.ok) return setError(r.error.message);
    const { ledger } = r.value;
    let body: unknown;
    try {
      body = JSON.parse(ledger.body);
    } catch {
      return setError('The recorded body is not JSON.');
    }
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return setError('The recorded body is not a JSON object.');
    let note: string | undefined;
    if (profiles && profiles.activeId !== ledger.profileId) {
      const active = profiles.profiles.find((p) => p.id === profiles.activeId);
      if (profiles.profiles.some((p) => p.id === ledger.profileId)) {
        const err = await profileSelected(ledger.profileId);
        if (err)
          return setError(
            `Could not switch to profile “${ledger.profileName}”, where this run was sent: ${err.message}`,
          );
        note = `Switched to profile “${ledger.profileName}”: this run was sent there.`;
      } else {
        note = `This run was sent with profile “${ledger.profileName}”, which no longer exists: Send goes to “${active?.name ?? 'the active profile'}”.`;
      }
    }
    setError(undefined);
    runReopened(ledger.protocol, body as Record<string, unknown>, note);
    tabSelected(ledger.protocol);
  };

  /** "Code…": the request exactly as the ledger recorded it (its URL, headers and body), never the composer's. */
  const exportCode = async () => {
    if (!selected) return;
    const r = await historyRunRequested(selected);
    if (!r.ok) return setError(r.error.message);
    const { ledger } = r.value;
    setError(undefined);
    setCode({ protocol: ledger.protocol, recorded: { runId: ledger.runId, profileName: ledger.profileName } });
  };

  const update = (patch: Partial<typeof filter>) => void historyRequested({ ...filter, ...patch });

  return (
    <div className="library" role="tabpanel" aria-label="History">
      <div className="library-list">
        <div className="filters">
          <input
            aria-label="Search history"
            placeholder="search output, model, profile"
            title="Finds every word typed, in any order, anywhere in each run's output, its model or its profile"
            value={filter.text ?? ''}
            onChange={(e) => update({ text: e.target.value || undefined })}
          />
          <select
            aria-label="Filter by protocol"
            value={filter.protocol ?? ''}
            onChange={(e) => update({ protocol: (e.target.value || undefined) as typeof filter.protocol })}
          >
            <option value="">all protocols</option>
            {(['messages', 'chat', 'responses'] as const).map((p) => (
              <option key={p} value={p}>
                {PROTOCOL_INFO[p].label}
              </option>
            ))}
          </select>
          <select
            aria-label="Filter by verdict"
            value={verdictChoice(filter)}
            onChange={(e) => update(verdictFilter(e.target.value))}
          >
            <option value="">all verdicts</option>
            {VERDICTS.map((v) => (
              <Fragment key={v}>
                <option>{v}</option>
                {v === 'complete' && <option>{WITH_WARNINGS}</option>}
              </Fragment>
            ))}
          </select>
          <input
            aria-label="Filter by model"
            placeholder="model (any part)"
            title="Any part of the model id, in any case"
            value={filter.model ?? ''}
            onChange={(e) => update({ model: e.target.value || undefined })}
          />
        </div>
        <p className="muted small">
          {history.total} run{history.total === 1 ? '' : 's'} · {bytes(history.bytes)} on disk
        </p>
        <HistoryList runs={history.runs} selected={selected} onOpen={(runId) => void open(runId)} />
        {history.total === 0 && <p className="muted empty">No runs yet: every finished run lands here.</p>}
      </div>
      <div className="library-detail">
        {selected && (
          <div className="row wrap detail-actions">
            <button type="button" onClick={() => void play('realtime')}>
              Replay 1×
            </button>
            <button type="button" onClick={() => void play('fast')}>
              Replay fast
            </button>
            <button type="button" onClick={() => void play('step')}>
              Step through
            </button>
            {stepping && (
              <button type="button" className="primary" onClick={() => setStepping(!!replay.current?.next())}>
                Next event
              </button>
            )}
            {replaying && (
              <button type="button" onClick={stopReplay}>
                Stop
              </button>
            )}
            <button type="button" onClick={() => void toComposer()}>
              Open in composer
            </button>
            <button type="button" onClick={() => void exportCode()}>
              Code…
            </button>
            <button
              type="button"
              className="danger"
              onClick={() =>
                void (async () => {
                  ++request.current;
                  endReplay();
                  setStepping(false);
                  await historyRunDeleted(selected);
                  setSelected(undefined);
                  setShown(undefined);
                })()
              }
            >
              Delete
            </button>
          </div>
        )}
        {error && <p className="field-error">{error}</p>}
        {code && <CodeDialog protocol={code.protocol} recorded={code.recorded} onClose={() => setCode(undefined)} />}
        {shown ? (
          <StreamViewer runId={shown} />
        ) : (
          <p className="muted empty">Pick a run to see it exactly as it happened.</p>
        )}
      </div>
    </div>
  );
}
