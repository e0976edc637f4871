import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppStore } from '../../store';
import { StreamViewer } from '../stream-viewer/StreamViewer';
import { bytes } from '../stream-viewer/format';
import { CodeDialog, type RecordedRequest } from '../export/CodeDialog';
import type { ProtocolId } from '../../../../shared/protocols/types';
import { startReplay, type ReplayHandle, type ReplayMode } from './replay';
import { HistoryList } from './HistoryList';
import { HistoryFilters } from './HistoryFilters';
import { HistorySelection } from './HistorySelection';
import { RunDiff } from './RunDiff';
import { RunMarks } from './RunMarks';
import './history.css';

let replayCounter = 0;

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
  /** Ticked runs, in the order ticked: what Export and Diff take. */
  const [checked, setChecked] = useState<string[]>([]);
  const [diff, setDiff] = useState<[string, string]>();
  const openSummary = history.runs.find((r) => r?.runId === selected && r?.groupCount === undefined);

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
    setDiff(undefined);
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
        <HistoryFilters filter={filter} update={update} />
        <HistorySelection
          checked={checked}
          open={selected}
          onDiff={(pair) => {
            ++request.current;
            endReplay();
            setStepping(false);
            setDiff(pair);
          }}
          onClear={() => setChecked([])}
          onError={setError}
        />
        <p className="muted small">
          {history.total} run{history.total === 1 ? '' : 's'} · {bytes(history.bytes)} on disk
        </p>
        <HistoryList
          runs={history.runs}
          selected={selected}
          checked={new Set(checked)}
          onOpen={(runId) => void open(runId)}
          onCheck={(runId, on) =>
            setChecked((c) => (on ? [...c.filter((id) => id !== runId), runId] : c.filter((id) => id !== runId)))
          }
        />
        {history.total === 0 && (
          <p className="muted empty">
            {filter.source === 'load' ? (
              <>
                A load run is kept whole in the Load tab, not request by request here.{' '}
                <button type="button" className="small" onClick={() => tabSelected('load')}>
                  Open Load
                </button>
              </>
            ) : filter.source && filter.source !== 'all' ? (
              'No runs from this source: choose another Source, or All.'
            ) : (
              'No runs yet: every finished run lands here.'
            )}
          </p>
        )}
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
            {openSummary && <RunMarks run={openSummary} onError={setError} />}
            <button
              type="button"
              className="danger"
              onClick={() =>
                void (async () => {
                  ++request.current;
                  endReplay();
                  setStepping(false);
                  await historyRunDeleted(selected);
                  setChecked((c) => c.filter((id) => id !== selected));
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
        {diff ? (
          <RunDiff runIds={diff} onClose={() => setDiff(undefined)} />
        ) : shown ? (
          <StreamViewer runId={shown} />
        ) : (
          <p className="muted empty">Pick a run to see it exactly as it happened.</p>
        )}
      </div>
    </div>
  );
}
