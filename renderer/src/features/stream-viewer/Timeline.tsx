import { useEffect, useMemo, useRef } from 'react';
import type { RawEvent } from '../../../../shared/protocols/types';
import type { ArrivalReading } from './arrival';
import { ms, timeTicks } from './format';
import { useAppStore } from '../../store';
import { selectEffectiveTheme } from '../../store/settings-slice';

/** Room around the plot: marker labels above, time labels below, and the last dot kept off the edge. */
const M = { left: 8, right: 12, top: 28, bottom: 18 };
/** A wait for the first event longer than this share of the run is drawn as a band. */
const SILENCE_SHARE = 0.05;

/**
 * Event arrival: x = time since the request started, y = gap since the previous event. A slow model shows an
 * even band; a relay that buffers shows a long silence after the headers and then a burst at the end.
 */
export function Timeline({
  events,
  ttfbMs,
  ttftMs,
  totalMs,
  reading,
}: {
  events: RawEvent[];
  ttfbMs?: number;
  ttftMs?: number;
  totalMs?: number;
  reading?: ArrivalReading;
}) {
  const theme = useAppStore(selectEffectiveTheme);
  const canvas = useRef<HTMLCanvasElement>(null);
  const end = Math.max(totalMs ?? 0, events.at(-1)?.t ?? 0, 1);
  // The wait between the headers and the first event counts (as in the reading below the chart): a relay that
  // buffers shows as that one tall gap.
  const firstGap = events.length ? events[0].t - (ttfbMs ?? 0) : 0;
  const maxGap = useMemo(() => {
    let most = Math.max(1, firstGap);
    for (let i = 1; i < events.length; i++) most = Math.max(most, events[i].t - events[i - 1].t);
    return most;
  }, [events, firstGap]);
  useEffect(() => {
    const raf = requestAnimationFrame(() => {
      const c = canvas.current;
      if (!c) return;
      const dpr = window.devicePixelRatio || 1;
      const w = c.clientWidth;
      const h = c.clientHeight;
      c.width = w * dpr;
      c.height = h * dpr;
      const g = c.getContext('2d');
      if (!g) return;
      g.scale(dpr, dpr);
      // The theme's colours (styles.css tokens), read when drawing: the canvas follows a theme switch.
      const css = getComputedStyle(c);
      const token = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
      const border = token('--border', '#2a313c');
      const muted = token('--muted', '#8d96a7');
      const accent = token('--accent', '#5b9cff');
      const warn = token('--warn', '#e0a53a');
      const ok = token('--ok', '#3fb97f');
      g.clearRect(0, 0, w, h);
      const bottom = h - M.bottom;
      const x = (t: number) => M.left + (t / end) * (w - M.left - M.right);
      const y = (gap: number) => bottom - (Math.sqrt(Math.max(0, gap)) / Math.sqrt(maxGap)) * (bottom - M.top);
      g.font = '10px system-ui';
      g.textBaseline = 'alphabetic';
      for (const t of timeTicks(end)) {
        g.strokeStyle = border;
        g.globalAlpha = t === 0 ? 1 : 0.5;
        g.beginPath();
        g.moveTo(x(t), M.top);
        g.lineTo(x(t), bottom);
        g.stroke();
        g.globalAlpha = 1;
        g.fillStyle = muted;
        const label = t === 0 ? '0' : ms(t);
        const width = g.measureText(label).width;
        g.fillText(label, Math.min(Math.max(x(t) - width / 2, 0), w - width), h - 4);
      }
      g.strokeStyle = border;
      g.beginPath();
      g.moveTo(M.left, bottom);
      g.lineTo(w - M.right, bottom);
      g.stroke();
      if (events.length && ttfbMs !== undefined && firstGap > SILENCE_SHARE * end) {
        g.fillStyle = 'rgba(224, 165, 58, 0.12)';
        g.fillRect(x(ttfbMs), M.top, x(events[0].t) - x(ttfbMs), bottom - M.top);
        const label = `no events for ${ms(firstGap)}`;
        const width = g.measureText(label).width;
        if (x(events[0].t) - x(ttfbMs) > width + 8) {
          g.fillStyle = warn;
          g.fillText(label, (x(ttfbMs) + x(events[0].t) - width) / 2, (M.top + bottom) / 2);
        }
      }
      // Downsample: at most one dot per pixel column, keeping that column's largest gap.
      const cols = new Map<number, number>();
      for (let i = 0; i < events.length; i++) {
        const gap = i ? events[i].t - events[i - 1].t : firstGap;
        const col = Math.round(x(events[i].t));
        if ((cols.get(col) ?? -1) < gap) cols.set(col, gap);
      }
      g.fillStyle = accent;
      for (const [col, gap] of cols) g.fillRect(col - 1.5, y(gap) - 1.5, 3, 3);
      let lastLabelEnd = -Infinity;
      let row = 0;
      const mark = (t: number | undefined, colour: string, label: string) => {
        if (t === undefined) return;
        g.strokeStyle = colour;
        g.beginPath();
        g.moveTo(x(t), M.top - 2);
        g.lineTo(x(t), bottom);
        g.stroke();
        g.fillStyle = colour;
        const width = g.measureText(label).width;
        const left = x(t) + 3 + width > w ? x(t) - 3 - width : x(t) + 3;
        // TTFB and TTFT are often a millisecond apart: the second label drops a line instead of overprinting.
        row = left < lastLabelEnd + 4 ? row + 1 : 0;
        lastLabelEnd = left + width;
        g.fillText(label, left, 11 + row * 11);
      };
      mark(ttfbMs, warn, 'TTFB');
      mark(ttftMs, ok, 'TTFT');
    });
    return () => cancelAnimationFrame(raf);
  }, [events, ttfbMs, ttftMs, end, firstGap, maxGap, theme]);
  return (
    <div className="timeline-pane">
      <p className="timeline-legend muted small">
        Each dot is an event: across, the time since the request started; up, the gap since the event before it
        (square-root scale, top {ms(maxGap)}).
      </p>
      <canvas
        ref={canvas}
        className="timeline"
        role="img"
        aria-label={`Event arrival timeline over ${ms(end)}: time since the request started against the gap since the previous event`}
      />
      <p className={`arrival small ${reading?.kind === 'buffered' ? 'warn' : 'muted'}`} aria-label="Arrival reading">
        {reading ? reading.text : 'Reading the arrival pattern when the run ends…'}
      </p>
    </div>
  );
}
