import { memo, useCallback, useDeferredValue, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';
import type { RawEvent } from '../../../../shared/protocols/types';
import type { TypeCount } from '../../store/runs-slice';
import { bytes, count, eventsToSse, indexOfSeq, prettyJson, toSse } from './format';
import { CopyButton } from '../../lib/CopyButton';

/** A collapsed row's height (styles.css `.event-line`). Only expanded rows are measured: measuring every row
 * mounted during a firehose forced a layout per row and was the largest cost of a busy frame. */
const ROW_HEIGHT = 26;

const Row = memo(function Row({
  e,
  prevT,
  expanded,
  onToggle,
}: {
  e: RawEvent;
  prevT: number;
  expanded: boolean;
  onToggle: (seq: number) => void;
}) {
  return (
    <div className={`event-row ${expanded ? 'expanded' : ''} t-${e.type.replace(/[^a-z]/gi, '')}`}>
      <button type="button" className="event-line" aria-expanded={expanded} onClick={() => onToggle(e.seq)}>
        <span className="seq mono">{e.seq}</span>
        <span className="etype mono">{e.type}</span>
        <span className="mono num">{e.t.toFixed(1)} ms</span>
        <span className="mono num muted">+{(e.t - prevT).toFixed(1)}</span>
        <span className="mono num muted">{bytes(e.size)}</span>
      </button>
      {expanded && (
        <div className="event-payload">
          <CopyButton className="ghost small" text={() => toSse(e)} />
          <pre className="mono">{prettyJson(e.data)}</pre>
        </div>
      )}
    </div>
  );
});

/** The events a type filter and a search kept, and how many of `events` they have looked at. */
interface Matches {
  events: RawEvent[];
  type: string;
  search: string;
  shown: RawEvent[];
}

const matchesEvent = (e: RawEvent, type: string, search: string) =>
  (!type || e.type === type) &&
  (!search || e.data.toLowerCase().includes(search) || !!e.event?.toLowerCase().includes(search));

/**
 * The events of `type` (any, when empty) whose data or event name holds `search` (lower case). While a stream
 * grows, only the events new since the last call are looked at: the store's array keeps its prefix as it grows.
 */
export function matchEvents(prev: Matches | undefined, events: RawEvent[], type: string, search: string): Matches {
  if (!type && !search) return { events, type, search, shown: events };
  const seen = prev?.events.length ?? 0;
  const samePrefix = events.length >= seen && (seen === 0 || events[seen - 1] === prev?.events[seen - 1]);
  const grown = prev && prev.type === type && prev.search === search && samePrefix;
  const from = grown ? seen : 0;
  const found = grown ? prev.shown.slice() : [];
  for (let i = from; i < events.length; i++) if (matchesEvent(events[i], type, search)) found.push(events[i]);
  return { events, type, search, shown: found };
}

/**
 * The time of the event before `shown[i]` in the stream, not in the list: a gap is how long the stream took
 * between two events, and a filter or a search that hides the ones between must not turn it into a stall.
 */
export function streamPrevT(events: readonly RawEvent[], shown: readonly RawEvent[], i: number): number {
  if (shown === events) return i > 0 ? events[i - 1].t : 0;
  const at = indexOfSeq(events, shown[i].seq);
  return at > 0 ? events[at - 1].t : 0;
}

/** `types`: each type and its count, first-seen order (the store counts them as events arrive). */
export function EventsList({ events, live, types }: { events: RawEvent[]; live: boolean; types: TypeCount[] }) {
  const [filter, setFilter] = useState('');
  const [expanded, setExpanded] = useState<Set<number>>(() => new Set());
  // One function for every row, so a render of the list that changes nothing in a row (the virtualizer's own,
  // after each scroll) leaves the memoised row alone.
  const toggle = useCallback(
    (seq: number) =>
      setExpanded((s) => {
        const n = new Set(s);
        if (n.has(seq)) n.delete(seq);
        else n.add(seq);
        return n;
      }),
    [],
  );
  const scroller = useRef<HTMLDivElement>(null);
  /** The event whose row holds the keyboard focus: it stays drawn when scrolled out of view (see rangeExtractor). */
  const focused = useRef<number | undefined>(undefined);
  const follow = useRef(true);
  // The rows drawn depend on following, so a change of it is a render of its own: the scroll event that
  // changed it may be one the virtualizer reads as nothing new (a write to the bottom and a scroll back to the
  // top in one frame), and the list would stay drawn for the tail while showing the top.
  const [, setFollowing] = useState(true);
  const setFollow = (on: boolean) => {
    if (follow.current === on) return;
    follow.current = on;
    setFollowing(on);
  };
  /** Where the last follow write left the list: its scroll event arrives a frame later and says nothing about the user. */
  const written = useRef(-1);
  // While streaming the list keeps the order types first came in, so the options do not move under the pointer.
  const options = useMemo(() => (live ? types : [...types].sort((a, b) => b[1] - a[1])), [types, live]);
  const [query, setQuery] = useState('');
  // Typing stays responsive over 100k events: the list filters at the deferred value.
  const search = useDeferredValue(query.trim().toLowerCase());
  const matches = useRef<Matches | undefined>(undefined);
  const shown = useMemo(
    () => (matches.current = matchEvents(matches.current, events, filter, search)).shown,
    [events, filter, search],
  );
  // The virtualizer places every row again (O(events)) whenever this function changes identity: kept for as
  // long as the list is, a render with no new events (one after a scroll, the one a run ends in) does not.
  const getItemKey = useCallback((i: number) => shown[i].seq, [shown]);
  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here; nothing memoizes its API
  const virtual = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (expanded.has(shown[i].seq) ? 8 * ROW_HEIGHT : ROW_HEIGHT),
    overscan: 12,
    getItemKey,
    rangeExtractor: (range) => {
      if (!follow.current) {
        // A focused row scrolled out of view by keys stays drawn, off screen: unmounted, it would drop the focus
        // to the page, and the next key would no longer scroll the list or reach the row.
        const drawn = defaultRangeExtractor(range);
        const at = focused.current === undefined ? -1 : indexOfSeq(shown, focused.current);
        if (at < 0 || (at >= drawn[0] && at <= drawn[drawn.length - 1])) return drawn;
        return at < drawn[0] ? [at, ...drawn] : [...drawn, at];
      }
      // Only what fits, and a row for each partly shown edge: rows drawn above the view would all be replaced
      // by the next batch before anyone could scroll to them, and scrolling up stops following and draws them.
      const rows = range.endIndex - range.startIndex + 3;
      const tail: number[] = [];
      for (let i = Math.max(0, range.count - rows); i < range.count; i++) tail.push(i);
      return tail;
    },
  });

  // Following the tail is one scrollTop write per commit, and the rows drawn are the last ones: the
  // virtualizer's own scroll-to-end re-measured and re-checked the list over several frames (the largest
  // cost of a busy frame during a firehose), while its scroll offset lags one scroll event behind the write.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!follow.current || !el || !shown.length) return;
    el.scrollTop = virtual.getTotalSize();
    written.current = el.scrollTop;
  }, [shown.length, virtual]);

  // Following a stream, every batch moves the whole drawn window down by hundreds of rows: keyed by event, each
  // batch unmounted and mounted every row (the largest cost of a firehose frame, in React and in layout). Keyed
  // by place in the window, the same elements stay and only their text and offset change. Otherwise keys are
  // events: scrolling by hand moves a few rows at a time, and a focused row must stay the element it is.
  const byPlace = live && follow.current;
  /** The event shown by the row an element sits in (its index into `shown`, as drawn). */
  const seqOfRow = (el: Element) => shown[Number(el.closest('[data-index]')?.getAttribute('data-index'))]?.seq;
  // A change of keys remounts every row, the focused one too: the event it shows now is read off the page
  // before that (so the range keeps it drawn) and its new row gets the focus back after the commit.
  const placeKeyed = useRef(false);
  const refocus = useRef<number | undefined>(undefined);
  if (byPlace !== placeKeyed.current) {
    placeKeyed.current = byPlace;
    const active = document.activeElement;
    const seq = active && scroller.current?.contains(active) ? seqOfRow(active) : undefined;
    if (seq !== undefined) focused.current = refocus.current = seq;
  }
  const items = virtual.getVirtualItems();
  const first = items[0]?.index ?? 0;
  useLayoutEffect(() => {
    const seq = refocus.current;
    if (seq === undefined) return;
    refocus.current = undefined;
    scroller.current
      ?.querySelector<HTMLElement>(`[data-index="${indexOfSeq(shown, seq)}"] .event-line`)
      ?.focus({ preventScroll: true });
  });

  return (
    <div className="events" role="region" aria-label="Events">
      <div className="events-toolbar">
        <select aria-label="Filter events by type" value={filter} onChange={(e) => setFilter(e.target.value)}>
          <option value="">all types ({count(events.length)})</option>
          {options.map(([t, n]) => (
            <option key={t} value={t}>
              {t} ({count(n)})
            </option>
          ))}
        </select>
        <input
          type="search"
          aria-label="Search events"
          placeholder="search event data"
          title="Events whose data or event name holds this text, in any case"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <span className="muted small">{count(shown.length)} shown</span>
        <div className="spacer" />
        <CopyButton className="ghost small" disabled={!shown.length} text={() => eventsToSse(shown)}>
          Copy all as SSE
        </CopyButton>
      </div>
      <div className="events-head mono small muted">
        <span>#</span>
        <span>type</span>
        <span>t</span>
        <span>gap</span>
        <span>size</span>
      </div>
      <div
        className="events-scroll"
        ref={scroller}
        // Following stops on any sign of reading back (wheel or keys up, a grab of the scrollbar), not only on
        // distance from the bottom: a slow scroll up moves less per frame than the list grows, and the next
        // commit would pull it back down. It resumes at the bottom.
        onWheel={(e) => {
          if (e.deltaY < 0) setFollow(false);
        }}
        onKeyDown={(e) => {
          if (['ArrowUp', 'PageUp', 'Home'].includes(e.key)) setFollow(false);
        }}
        onPointerDown={(e) => {
          if (e.target === e.currentTarget) setFollow(false);
        }}
        onFocus={(e) => {
          focused.current = seqOfRow(e.target);
        }}
        onBlur={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget)) focused.current = undefined;
        }}
        onScroll={(e) => {
          const el = e.currentTarget;
          if (el.scrollTop === written.current) return;
          const fromBottom = el.scrollHeight - el.scrollTop - el.clientHeight;
          if (fromBottom < 2) setFollow(true);
          else if (fromBottom > 40) setFollow(false);
        }}
      >
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {items.map((v) => {
            const e = shown[v.index];
            const prevT = streamPrevT(events, shown, v.index);
            const open = expanded.has(e.seq);
            return (
              <div
                key={byPlace ? v.index - first : v.key}
                data-index={v.index}
                ref={open ? virtual.measureElement : undefined}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)` }}
              >
                <Row e={e} prevT={prevT} expanded={open} onToggle={toggle} />
              </div>
            );
          })}
        </div>
        {events.length > 0 && shown.length === 0 && <p className="muted empty">No event matches.</p>}
        {events.length === 0 && (
          <p className="muted empty">
            {live ? 'No events yet.' : 'No events arrived: the response body, if there was one, is in the Ledger.'}
          </p>
        )}
      </div>
    </div>
  );
}
