import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { Ledger, RecordedRun, RunResult } from '../../../../shared/contract';
import { createFold } from '../../../../shared/protocols';
import { createSseReader, parseEvent } from '../../../../shared/protocols/sse';
import type { ProtocolId, RawEvent } from '../../../../shared/protocols/types';

const bridge = { recorded: undefined as RecordedRun | undefined, gets: 0 };
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { useAppStore } from '../../store';
import { applyUpdates, recordedRunUpdates, type ViewUpdate } from '../../store/runs-slice';
import { RESULT_BODY_CAP } from '../../../../shared/contract';
import { StreamViewer } from './StreamViewer';
import { answers, resetGateway } from '../../test/fake-gateway';
import { matchEvents } from './EventsList';

const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  answers['history:get'] = async () => {
    bridge.gets++;
    // History is read from disk: slow enough for a second click to land while the first is pending.
    await new Promise((r) => setTimeout(r, 20));
    return bridge.recorded
      ? { ok: true, value: bridge.recorded }
      : { ok: false, error: { code: 'not_found', message: 'no run' } };
  };
  bridge.gets = 0;
});
afterEach(cleanup);

const ledger = (runId: string, protocol: ProtocolId): Ledger => ({
  runId,
  protocol,
  profileId: 'demo',
  profileName: 'Demo',
  stream: true,
  method: 'POST',
  url: 'u',
  headers: {},
  body: '{}',
  bodyBytes: 2,
  startedAt: '',
  warnings: [],
});

/** SSE text as the core records it: each piece read at its time, through the real SSE reader. */
function record(pieces: [t: number, text: string][]): RawEvent[] {
  const events: RawEvent[] = [];
  let t = 0;
  const reader = createSseReader({
    onMessage: (m) => {
      const e: RawEvent = {
        seq: events.length,
        t,
        type: parseEvent(m).type,
        data: m.data,
        size: new TextEncoder().encode(m.data).length + 8,
      };
      if (m.event !== undefined) e.event = m.event;
      events.push(e);
    },
    onComment: (c) => events.push({ seq: events.length, t, type: 'comment', data: c, size: c.length + 3 }),
  });
  for (const [at, text] of pieces) {
    t = at;
    reader.feed(text);
  }
  reader.end();
  return events;
}

/** A finished run as the core would hand it over, its transcript folded by the real fold. */
function finished(
  runId: string,
  protocol: ProtocolId,
  events: RawEvent[],
  ttfbMs: number,
  metrics: Partial<RunResult['metrics']>,
): RecordedRun {
  const fold = createFold(protocol);
  for (const e of events) if (e.type !== 'comment') fold.push({ event: e.event, data: e.data });
  const transcript = fold.transcript();
  const outcome = fold.end();
  const totalMs = events.at(-1)!.t + 5;
  return {
    ledger: ledger(runId, protocol),
    response: { status: 200, statusText: 'OK', headers: {}, contentType: 'text/event-stream', ttfbMs },
    events,
    origin: 'composer',
    result: {
      verdict: outcome.verdict,
      reason: outcome.reason,
      transcript,
      metrics: {
        status: 200,
        ttfbMs,
        totalMs,
        events: events.length,
        bytes: events.reduce((n, e) => n + e.size, 0),
        usage: transcript.usage,
        ...metrics,
      },
      warnings: outcome.warnings,
      endedAt: '',
    },
  };
}

const chunk = (delta: unknown, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const named = (o: Record<string, unknown> & { type: string }) => `event: ${o.type}\ndata: ${JSON.stringify(o)}\n\n`;
const show = (updates: ViewUpdate[]) => act(() => useAppStore.setState({ runs: applyUpdates({}, updates) }));
const metric = (name: string) =>
  [...screen.getByLabelText('Metrics').querySelectorAll('div')]
    .find((d) => d.querySelector('dt')?.textContent === name)
    ?.querySelector('dd')?.textContent;
const usage = (name: string) =>
  [...screen.getByLabelText('Usage').querySelectorAll('div')]
    .find((d) => d.querySelector('dt')?.textContent === name)
    ?.querySelector('dd')?.textContent;

describe('StreamViewer: how the answer arrived', () => {
  it('reads a relay that sends keep-alive comments while it holds the answer back as buffered, not streamed', () => {
    // `: OPENROUTER PROCESSING` every 700 ms, then the whole answer in one network read.
    let burst = chunk({ role: 'assistant', content: '' });
    for (let i = 1; i <= 30; i++) burst += chunk({ content: `${i}\n` });
    burst += chunk({}, 'stop') + 'data: [DONE]\n\n';
    const events = record([
      [5, ': OPENROUTER PROCESSING\n\n'],
      [705, ': OPENROUTER PROCESSING\n\n'],
      [1405, ': OPENROUTER PROCESSING\n\n'],
      [2105, burst],
    ]);
    show(
      recordedRunUpdates('run_buf', finished('run_buf', 'chat', events, 5, { ttftMs: 2105, outputTokensPerSec: 6000 })),
    );
    render(<StreamViewer runId="run_buf" />);
    fireEvent.click(screen.getByRole('tab', { name: 'Timeline' }));
    const reading = screen.getByLabelText('Arrival reading').textContent;
    expect(reading).toContain('Buffered: all 30 content events arrived within 0 ms, after 2,100 ms of silence');
    expect(metric('tok/s')).toBe('— (one burst)');
    // The chart's scales in words: its span (the run's total), and its tallest gap (between two keep-alives).
    expect(screen.getByRole('img', { name: /^Event arrival timeline over 2.11 s:/ })).toBeTruthy();
    expect(screen.getByText(/square-root scale, top 700 ms/)).toBeTruthy();
  });
});

describe('StreamViewer: a recorded run opened from History', () => {
  it('opened twice while the first load is pending, it loads once and shows its events once', async () => {
    const events = record([
      [3, chunk({ role: 'assistant', content: 'Hi' })],
      [4, chunk({}, 'stop')],
      [4, 'data: [DONE]\n\n'],
    ]);
    bridge.recorded = finished('run_h', 'chat', events, 2, { ttftMs: 3 });
    const s = useAppStore.getState();
    await act(() => Promise.all([s.recordedRunRequested('run_h'), s.recordedRunRequested('run_h')]));
    expect(bridge.gets).toBe(1);
    render(<StreamViewer runId="run_h" />);
    expect(screen.getByRole('tab', { name: /^Events/ }).textContent).toBe('Events (3)');
    expect(metric('events')).toBe('3');
    expect(useAppStore.getState().runs.run_h.events.map((e) => e.seq)).toEqual([0, 1, 2]);
  });
});

describe('StreamViewer: Messages while streaming', () => {
  const start = named({
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude',
      content: [],
      usage: { input_tokens: 20, output_tokens: 1 },
    },
  });
  const text = (t: string) => named({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } });
  const live = (events: RawEvent[]): ViewUpdate[] => [
    { kind: 'started', runId: 'run_m', ledger: ledger('run_m', 'messages') },
    {
      kind: 'response',
      runId: 'run_m',
      response: { status: 200, statusText: 'OK', headers: {}, contentType: 'text/event-stream', ttfbMs: 2 },
    },
    { kind: 'events', runId: 'run_m', events },
  ];

  it("shows output as not reported until message_delta counts it, not message_start's placeholder 1", () => {
    show(
      live(
        record([
          [3, start + named({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })],
          [10, text('token ')],
          [20, text('token ')],
        ]),
      ),
    );
    render(<StreamViewer runId="run_m" />);
    expect(usage('input')).toBe('20');
    expect(usage('output')).toBe('not reported');
  });

  it('shows a refusal from message_delta stop_details as a refusal in the output', () => {
    const events = record([
      [3, start + named({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })],
      [10, text('Sure, step one') + named({ type: 'content_block_stop', index: 0 })],
      [
        20,
        named({
          type: 'message_delta',
          delta: {
            stop_reason: 'refusal',
            stop_sequence: null,
            stop_details: {
              type: 'refusal',
              category: 'bio',
              explanation: 'This request could enable biological harm.',
            },
          },
          usage: { output_tokens: 5 },
        }),
      ],
    ]);
    show(live(events));
    render(<StreamViewer runId="run_m" />);
    const refusal = screen.getByRole('region', { name: 'Output' }).querySelector('.refusal');
    expect(refusal?.textContent).toBe('refusal This request could enable biological harm. (category: bio)');
    expect(usage('output')).toBe('5');
  });
});

describe('StreamViewer: the response body in the Ledger', () => {
  /** A finished non-streaming run whose gateway answered `raw`, of which `received` bytes arrived. */
  function jsonRun(
    runId: string,
    raw: string,
    received = new TextEncoder().encode(raw).length,
    contentType = 'application/json',
  ): RecordedRun {
    const transcript = { blocks: [{ kind: 'text' as const, text: 'Hello' }], usage: { inputTotal: 3, output: 1 } };
    const response = {
      status: 200,
      statusText: 'OK',
      headers: { 'content-type': contentType },
      contentType,
      ttfbMs: 40,
    };
    return {
      ledger: { ...ledger(runId, 'chat'), stream: false },
      response,
      events: [],
      origin: 'composer',
      result: {
        verdict: 'complete',
        reason: 'ok',
        metrics: { status: 200, totalMs: 50, events: 0, bytes: received, usage: transcript.usage },
        transcript,
        warnings: [],
        response,
        rawBody: raw,
        endedAt: '',
      },
    };
  }
  const openLedger = (runId: string, run: RecordedRun) => {
    show(recordedRunUpdates(runId, run));
    render(<StreamViewer runId={runId} />);
    fireEvent.click(screen.getByRole('tab', { name: 'Ledger' }));
    return screen.getByRole('region', { name: 'Response body' });
  };

  it('shows a non-streaming JSON body re-indented with its tokens as sent, its size, and copies it as received', async () => {
    const raw =
      '{"id":"chatcmpl-1","system_fingerprint":"fp_44709d6fcb","seed":12345678901234567890,"temperature":1.0,"choices":[],"usage":{"total_tokens":4}}';
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const body = openLedger('run_json', jsonRun('run_json', raw));
    expect(body.querySelector('pre')!.textContent).toBe(
      '{\n  "id": "chatcmpl-1",\n  "system_fingerprint": "fp_44709d6fcb",\n  "seed": 12345678901234567890,\n  "temperature": 1.0,\n  "choices": [],\n  "usage": {\n    "total_tokens": 4\n  }\n}',
    );
    expect(body.textContent).toContain(`${raw.length} B`);
    expect(body.querySelector('[role="note"]')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy response body' })));
    expect(writeText).toHaveBeenCalledWith(raw);
  });

  it('a body cut short that yields no output says so in the Output and leads to the body as received', () => {
    const raw = '{"id":"chatcmpl-1","choices":[{"index":0,"message":{"role":"assistant","content":"Hel';
    const run = jsonRun('run_cut', raw);
    run.result = {
      ...run.result,
      verdict: 'truncated',
      reason: 'The body ended mid-JSON.',
      transcript: { blocks: [], usage: {} },
    };
    show(recordedRunUpdates('run_cut', run));
    render(<StreamViewer runId="run_cut" />);
    const output = screen.getByRole('region', { name: 'Output' });
    expect(output.textContent).toContain(`No output could be read from the ${raw.length} B body.`);
    fireEvent.click(screen.getByRole('button', { name: 'Show the body as received' }));
    expect(screen.getByRole('region', { name: 'Response body' }).querySelector('pre')!.textContent).toBe(raw);
  });

  it('shows a body that is not JSON as text, never as HTML', () => {
    const raw = '<html><body><h1>Hi</h1><img src=x onerror="alert(1)"></body></html>';
    const body = openLedger('run_html', jsonRun('run_html', raw, undefined, 'text/html'));
    expect(body.querySelector('pre')!.textContent).toBe(raw);
    expect(body.querySelector('h1, img')).toBeNull();
  });

  it('says a body was capped when less was kept than arrived, and shows a 2 MB body as received', () => {
    const raw = `{"data":"${'x'.repeat(RESULT_BODY_CAP)}`.slice(0, RESULT_BODY_CAP);
    const body = openLedger('run_big', jsonRun('run_big', raw, 3 * 1024 * 1024));
    expect(body.querySelector('[role="note"]')!.textContent).toBe(
      'Capped: showing the first 2.00 MB of 3.00 MB received; the rest was not kept.',
    );
    expect(body.textContent).toContain('shown as received');
    expect(body.querySelector('pre')!.textContent).toBe(raw);
  });

  it('for a streamed run, says the body is the event stream and leads to the Events tab', () => {
    const events = record([
      [3, chunk({ role: 'assistant', content: 'Hi' })],
      [4, chunk({}, 'stop')],
      [4, 'data: [DONE]\n\n'],
    ]);
    const body = openLedger('run_sse', finished('run_sse', 'chat', events, 2, { ttftMs: 3 }));
    expect(body.textContent).toContain('The body was the event stream');
    expect(body.querySelector('pre')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show events' }));
    expect(screen.getByRole('tab', { name: 'Events (3)' }).getAttribute('aria-selected')).toBe('true');
  });
});

describe('StreamViewer: a live run that goes quiet', () => {
  afterEach(() => vi.useRealTimers());
  const messageStart = named({
    type: 'message_start',
    message: {
      id: 'msg_q',
      type: 'message',
      role: 'assistant',
      model: 'claude',
      content: [],
      usage: { input_tokens: 5, output_tokens: 1 },
    },
  });
  const status = () => screen.getByLabelText('Stream status').textContent;

  it('keeps its total time moving and says how long nothing has come, first the headers, then events', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    // Recorded a day earlier, as a replay's ledger is: the clock counts from when this window got the start.
    const started = { ...ledger('run_q', 'messages'), startedAt: new Date(Date.now() - 86_400_000).toISOString() };
    show([{ kind: 'started', runId: 'run_q', ledger: started }]);
    render(<StreamViewer runId="run_q" />);
    expect(status()).not.toMatch(/waiting|no data/);
    act(() => {
      vi.advanceTimersByTime(12_000);
    });
    expect(status()).toContain('waiting 12 s for the response');
    act(() =>
      useAppStore.setState((s) => ({
        runs: applyUpdates(s.runs, [
          {
            kind: 'response',
            runId: 'run_q',
            response: { status: 200, statusText: 'OK', headers: {}, contentType: 'text/event-stream', ttfbMs: 12_010 },
          },
          { kind: 'events', runId: 'run_q', events: record([[12_017, messageStart]]) },
        ]),
      })),
    );
    act(() => {
      vi.advanceTimersByTime(500);
    });
    expect(status()).not.toMatch(/waiting|no data/);
    act(() => {
      vi.advanceTimersByTime(35_000);
    });
    expect(status()).toContain('1 event · no data for 35 s');
    expect(metric('total')).toBe('47.50 s');

    // The run ends: the clock stops (no timer left) and the total is the one measured, not the wall clock.
    const result = finished('run_q', 'messages', record([[12_017, messageStart]]), 12_010, { totalMs: 47_600 }).result;
    act(() => useAppStore.setState((s) => ({ runs: applyUpdates(s.runs, [{ kind: 'end', runId: 'run_q', result }]) })));
    expect(vi.getTimerCount()).toBe(0);
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(metric('total')).toBe('47.60 s');
    expect(status()).not.toMatch(/waiting|no data/);
  });
});

describe('StreamViewer: the response as the gateway named it', () => {
  const reply = (model: string) =>
    record([
      [3, chunk({ role: 'assistant', content: 'Hi' }).replace('"model":"m"', `"model":"${model}"`)],
      [4, chunk({}, 'stop').replace('"model":"m"', `"model":"${model}"`)],
      [4, 'data: [DONE]\n\n'],
    ]);
  const shown = (model: string, asked: string) => {
    const run = finished('run_id', 'chat', reply(model), 2, {});
    run.ledger.body = JSON.stringify({ model: asked, messages: [] });
    show(recordedRunUpdates('run_id', run));
    render(<StreamViewer runId="run_id" />);
    const dl = screen.getByLabelText('Response');
    return Object.fromEntries(
      [...dl.querySelectorAll('div')].map((d) => [
        d.querySelector('dt')!.textContent,
        d.querySelector('dd')!.textContent,
      ]),
    );
  };

  it('shows the id and the model reported, and the model asked for when the gateway answered with another', () => {
    expect(shown('gpt-sim-mini', 'gpt-4o')).toEqual({ id: 'c1', model: 'gpt-sim-mini', 'asked for': 'gpt-4o' });
  });

  it('does not call a dated snapshot of the model asked for another model', () => {
    expect(shown('gpt-4o-2024-08-06', 'gpt-4o')).toEqual({ id: 'c1', model: 'gpt-4o-2024-08-06' });
  });

  it('does call a smaller sibling another model, though its name starts the same', () => {
    expect(shown('gpt-4o-mini', 'gpt-4o')).toEqual({ id: 'c1', model: 'gpt-4o-mini', 'asked for': 'gpt-4o' });
    cleanup();
    expect(shown('claude-sonnet-4-5-20250929', 'claude-sonnet-4-5')).toEqual({
      id: 'c1',
      model: 'claude-sonnet-4-5-20250929',
    });
  });
});

describe('StreamViewer: how a run ended, in its status', () => {
  const hiStop = () =>
    record([
      [3, chunk({ role: 'assistant', content: 'Hi' })],
      [4, chunk({}, 'stop')],
      [4, 'data: [DONE]\n\n'],
    ]);
  const status = () => screen.getByLabelText('Stream status');
  it('a complete run that skipped an event reads "complete, with warnings" in amber, not a clean green', () => {
    const events = hiStop();
    const run = finished('run_w', 'chat', events, 2, { ttftMs: 3 });
    run.result.warnings = ['1 event could not be read as JSON and was skipped: the output may miss text.'];
    show(recordedRunUpdates('run_w', run));
    render(<StreamViewer runId="run_w" />);
    expect(status().querySelector('strong')!.textContent).toBe('complete, with warnings');
    expect(status().className).toContain('warn');
    expect(screen.getByLabelText('Warnings').textContent).toContain('skipped');
  });

  it('a clean complete run stays green', () => {
    const events = hiStop();
    show(recordedRunUpdates('run_c', finished('run_c', 'chat', events, 2, { ttftMs: 3 })));
    render(<StreamViewer runId="run_c" />);
    expect(status().querySelector('strong')!.textContent).toBe('complete');
    expect(status().className).toContain('ok');
  });
});

describe('StreamViewer: tok/s', () => {
  /** A non-streamed reply: no token arrives on its own, so there is no TTFT. */
  const jsonReply = (runId: string, totalMs: number, rate: number): RecordedRun => {
    const transcript = { blocks: [{ kind: 'text' as const, text: 'Hello' }], usage: { inputTotal: 3, output: 15 } };
    const response = { status: 200, statusText: 'OK', headers: {}, contentType: 'application/json', ttfbMs: totalMs };
    const metrics = { status: 200, totalMs, events: 0, bytes: 10, usage: transcript.usage, outputTokensPerSec: rate };
    const result = { verdict: 'complete' as const, reason: 'ok', metrics, transcript, warnings: [], endedAt: '' };
    return { ledger: { ...ledger(runId, 'chat'), stream: false }, response, events: [], origin: 'composer', result };
  };

  it('shows no rate for a non-streamed run that took 2 ms, and says why', () => {
    show(recordedRunUpdates('run_fast', jsonReply('run_fast', 2, 7246.4)));
    render(<StreamViewer runId="run_fast" />);
    expect(metric('tok/s')).toBe('— (too short)');
    expect(metric('TTFT')).toBe('—');
  });

  it('says a non-streamed rate is over the whole request', () => {
    show(recordedRunUpdates('run_slow', jsonReply('run_slow', 3000, 5)));
    render(<StreamViewer runId="run_slow" />);
    expect(metric('tok/s')).toBe('5 over the whole request');
  });
});

describe('StreamViewer: Search events', () => {
  it('keeps the events whose data holds the text, in any case, and says when none does', async () => {
    const events = record([
      [3, chunk({ role: 'assistant', content: '' })],
      [5, chunk({ content: 'The PINEAPPLE' })],
      [6, chunk({ content: ' grows' })],
      [7, chunk({}, 'stop')],
      [8, 'data: [DONE]\n\n'],
    ]);
    show(recordedRunUpdates('run_s', finished('run_s', 'chat', events, 2, { ttftMs: 5 })));
    render(<StreamViewer runId="run_s" />);
    const box = screen.getByRole('searchbox', { name: 'Search events' });
    const region = screen.getByRole('region', { name: 'Events' });
    fireEvent.change(box, { target: { value: 'pineapple' } });
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(region.textContent).toContain('1 shown');
    fireEvent.change(box, { target: { value: 'finish_reason":"stop' } });
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(region.textContent).toContain('1 shown');
    fireEvent.change(box, { target: { value: 'mango' } });
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(region.textContent).toContain('0 shown');
    expect(region.textContent).toContain('No event matches.');
  });
});

describe('StreamViewer: the gap column', () => {
  it("shows each event's gap to the one before it in the stream, whatever a search hides", async () => {
    const events = record([
      [3, chunk({ role: 'assistant', content: '' })],
      [400, chunk({ content: 'The' })],
      [411.7, chunk({ content: ' PINEAPPLE' })],
      [415, chunk({}, 'stop')],
      [416, 'data: [DONE]\n\n'],
    ]);
    show(recordedRunUpdates('run_g', finished('run_g', 'chat', events, 2, { ttftMs: 400 })));
    // jsdom lays nothing out: the list is given a height, or it would draw no row.
    const height = vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(400);
    const width = vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(600);
    onTestFinished(() => {
      height.mockRestore();
      width.mockRestore();
    });
    render(<StreamViewer runId="run_g" />);
    const region = screen.getByRole('region', { name: 'Events' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search events' }), { target: { value: 'pineapple' } });
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(region.textContent).toContain('1 shown');
    const row = region.querySelector('.event-line')!;
    expect(row.textContent).toContain('411.7 ms');
    expect(row.textContent).toContain('+11.7');
    expect(row.textContent).not.toContain('+411.7');
  });
});

describe('matchEvents', () => {
  it('looks only at events new since the last call while a stream grows; starts over for a new search', () => {
    const ev = (seq: number, data: string): RawEvent => ({ seq, t: seq, type: 'chunk', data, size: 1 });
    const first = [ev(0, 'alpha'), ev(1, 'beta')];
    const a = matchEvents(undefined, first, '', 'alp');
    expect(a.shown.map((e) => e.seq)).toEqual([0]);
    const grown = first.concat([ev(2, 'ALPHABET'), ev(3, 'gamma')]);
    const b = matchEvents(a, grown, '', 'alp');
    expect(b.shown.map((e) => e.seq)).toEqual([0, 2]);
    expect(a.shown.map((e) => e.seq)).toEqual([0]);
    expect(matchEvents(b, grown, '', 'gam').shown.map((e) => e.seq)).toEqual([3]);
    expect(matchEvents(b, grown, '', '').shown).toBe(grown);
  });
});
