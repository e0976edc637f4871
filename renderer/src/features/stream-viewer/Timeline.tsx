import { useEffect, useRef } from 'react';
import type { RawEvent } from '../../../../shared/protocols/types';
import type { ArrivalReading } from './arrival';

/**
 * Event arrival: x = time since the request started, y = gap since the previous event. A slow model shows an
 * even band; a relay that buffers shows one tall gap and then a burst at the bottom.
 */
export function Timeline({ events, ttfbMs, ttftMs, totalMs, reading }: { events: RawEvent[]; ttfbMs?: number; ttftMs?: number; totalMs?: number; reading?: ArrivalReading }) {
  const canvas = useRef<HTMLCanvasElement>(null);
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
      g.clearRect(0, 0, w, h);
      const end = Math.max(totalMs ?? 0, events.at(-1)?.t ?? 0, 1);
      // The wait between the headers and the first event counts (as in the reading below the chart): a relay
      // that buffers shows as that one tall gap.
      const firstGap = events.length ? events[0].t - (ttfbMs ?? 0) : 0;
      let maxGap = Math.max(1, firstGap);
      for (let i = 1; i < events.length; i++) maxGap = Math.max(maxGap, events[i].t - events[i - 1].t);
      const pad = 4;
      const x = (t: number) => pad + (t / end) * (w - 2 * pad);
      const y = (gap: number) => h - pad - (Math.sqrt(gap) / Math.sqrt(maxGap)) * (h - 2 * pad);
      g.strokeStyle = '#2a313c';
      g.beginPath();
      g.moveTo(pad, h - pad);
      g.lineTo(w - pad, h - pad);
      g.stroke();
      // Downsample: at most one dot per pixel column, keeping that column's largest gap.
      const cols = new Map<number, number>();
      for (let i = 0; i < events.length; i++) {
        const gap = i ? events[i].t - events[i - 1].t : firstGap;
        const col = Math.round(x(events[i].t));
        if ((cols.get(col) ?? -1) < gap) cols.set(col, gap);
      }
      g.fillStyle = '#5b9cff';
      for (const [col, gap] of cols) g.fillRect(col - 1, y(gap) - 1, 2, 2);
      let lastLabelEnd = -Infinity;
      let row = 0;
      const mark = (t: number | undefined, colour: string, label: string) => {
        if (t === undefined) return;
        g.strokeStyle = colour;
        g.beginPath();
        g.moveTo(x(t), pad);
        g.lineTo(x(t), h - pad);
        g.stroke();
        g.fillStyle = colour;
        g.font = '10px system-ui';
        const width = g.measureText(label).width;
        const left = x(t) + 3 + width > w - pad ? x(t) - 3 - width : x(t) + 3;
        // TTFB and TTFT are often a millisecond apart: the second label drops a line instead of overprinting.
        row = left < lastLabelEnd + 4 ? row + 1 : 0;
        lastLabelEnd = left + width;
        g.fillText(label, left, 12 + row * 12);
      };
      mark(ttfbMs, '#e0a53a', 'TTFB');
      mark(ttftMs, '#3fb97f', 'TTFT');
      g.fillStyle = '#8d96a7';
      g.font = '10px system-ui';
      const caption = `max gap ${maxGap.toFixed(0)} ms`;
      g.fillText(caption, w - pad - 2 - g.measureText(caption).width, h - 8);
    });
    return () => cancelAnimationFrame(raf);
  }, [events, ttfbMs, ttftMs, totalMs]);
  return (
    <div className="timeline-pane">
      <canvas ref={canvas} className="timeline" role="img" aria-label="Event arrival timeline: time since start against gap since the previous event" />
      <p className={`arrival small ${reading?.kind === 'buffered' ? 'warn' : 'muted'}`} aria-label="Arrival reading">
        {reading ? reading.text : 'Reading the arrival pattern when the run ends…'}
      </p>
    </div>
  );
}
