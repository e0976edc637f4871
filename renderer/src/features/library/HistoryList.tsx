import { useEffect, useRef } from 'react';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import type { HistorySummary } from '../../../../shared/contract';
import { PROTOCOL_INFO } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import { ms, verdictWord } from '../stream-viewer/format';

/** A run's row: two lines of text and a line of figures (styles.css `.history-list button`). */
const ROW_HEIGHT = 64;
const UNLAID = { width: 480, height: 800 };

const when = (r: HistorySummary) => new Date(r.startedAt).toLocaleTimeString();

/** "Capabilities · claude-sim-sonnet · 12 probes": a check's runs as one row, opened to show them under it. */
function GroupRow({ r, open, onToggle }: { r: HistorySummary; open: boolean; onToggle: (id: string) => void }) {
  const n = r.groupCount ?? 0;
  const check = r.check!;
  return (
    <button type="button" className="h-group" aria-expanded={open} onClick={() => onToggle(check.id)}>
      <span className="h-caret" aria-hidden>
        {open ? '▾' : '▸'}
      </span>
      <span className="h-main">
        <span className="small">
          <strong>{check.label}</strong> · {n} {check.unit}
          {n === 1 ? '' : 's'}
        </span>
        <span className="h-preview">{r.preview}</span>
      </span>
      <span className="muted small h-meta">latest {when(r)}</span>
    </button>
  );
}

interface RowProps {
  r?: HistorySummary;
  selected: boolean;
  checked: boolean;
  open: boolean;
  onOpen: (runId: string) => void;
  onCheck: (runId: string, on: boolean) => void;
  onToggle: (checkId: string) => void;
}

function HistoryRow({ r, selected, checked, open, onOpen, onCheck, onToggle }: RowProps) {
  if (!r) return <span className="muted small h-loading">loading…</span>;
  if (r.groupCount !== undefined && r.check) return <GroupRow r={r} open={open} onToggle={onToggle} />;
  const member = r.check && !r.pinned;
  return (
    <div className={`h-row${member ? ' h-member' : ''}`}>
      <input
        type="checkbox"
        aria-label={`Select run ${r.name ?? r.model ?? r.runId} ${when(r)}`}
        checked={checked}
        onChange={(e) => onCheck(r.runId, e.target.checked)}
      />
      <button type="button" className={selected ? 'selected' : ''} onClick={() => onOpen(r.runId)}>
        <span className={`verdict-dot ${r.verdict}${r.warnings ? ' warned' : ''}`} aria-hidden />
        <span className="h-main">
          <span className="mono small">
            {r.pinned && <span className="h-tag">pinned</span>}
            {r.name && <strong className="h-name">{r.name} · </strong>}
            {PROTOCOL_INFO[r.protocol].label} · {r.model ?? '?'} ·{' '}
            <strong>{verdictWord(r.verdict, r.warnings ?? 0)}</strong>
            {r.status ? ` · ${r.status}` : ''}
          </span>
          <span className="h-preview">{r.preview}</span>
        </span>
        <span className="muted small h-meta">
          {when(r)} · {ms(r.totalMs)} · {r.events} ev
          {r.origin !== 'composer' ? ` · ${r.origin}` : ''}
        </span>
      </button>
    </div>
  );
}

/** The list of runs, virtualized: only the rows in view exist, and their pages are fetched as they come into view. */
interface ListProps {
  runs: (HistorySummary | undefined)[];
  selected?: string;
  checked: ReadonlySet<string>;
  onOpen: (runId: string) => void;
  onCheck: (runId: string, on: boolean) => void;
}

export function HistoryList({ runs, selected, checked, onOpen, onCheck }: ListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const rowsShown = useAppStore((s) => s.historyRowsShown);
  const expanded = useAppStore((s) => s.historyExpanded);
  const checkToggled = useAppStore((s) => s.historyCheckToggled);
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
        {items.map((v) => {
          const r = runs[v.index];
          const key = r ? (r.groupCount !== undefined ? `group-${r.check?.id}` : r.runId) : `row-${v.index}`;
          return (
            <li
              key={key}
              aria-setsize={runs.length}
              aria-posinset={v.index + 1}
              style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}
            >
              <HistoryRow
                r={r}
                selected={selected === r?.runId}
                checked={!!r && checked.has(r.runId)}
                open={!!r?.check && expanded.includes(r.check.id)}
                onOpen={onOpen}
                onCheck={onCheck}
                onToggle={(id) => void checkToggled(id)}
              />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
