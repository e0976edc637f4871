import { describe, expect, it } from 'vitest';
import type { FinishedRun } from '../runs';
import { resendsUnstreamed } from './agent-reading';
import { afterRetriesWords, retriesFor, retryFacts, throughRetries } from './retries';
import { judgeSessions, type SessionRun } from './steps';

let n = 0;
/** A finished run as the judging reads it: its id, verdict and HTTP status. */
function run(status: number): FinishedRun {
  const ok = status < 400;
  return {
    ledger: { runId: `run_${++n}` },
    response: { status },
    result: {
      verdict: ok ? 'complete' : 'http-error',
      reason: ok ? 'complete' : `HTTP ${status}`,
      response: { status },
      error: ok ? undefined : { type: 'api_error', message: 'pooled key exhausted', status },
      transcript: { blocks: [], usage: {} },
      warnings: [],
    },
  } as unknown as FinishedRun;
}

const O = { id: 'turn-2', title: 'Whole sessions ×4', agent: 'Codex', agentId: 'codex' as const, sent: 'it' };

describe('the agents’ own retries, as measured on the real CLIs', () => {
  it('counts the retries per status: a 5xx as the measured 500, other 4xx final', () => {
    expect(retriesFor('codex', 404)).toBe(5);
    expect(retriesFor('codex', 429)).toBe(0);
    expect(retriesFor('codex', 502)).toBe(29);
    expect(retriesFor('codex', 422)).toBe(0);
    expect(retriesFor('claude-code', 529)).toBe(10);
    expect(retriesFor('claude-code', 429)).toBe(10);
    expect(retriesFor('chat-agent', 404)).toBe(0);
    expect(retriesFor('codex', undefined)).toBe(0);
  });

  it('gets a turn through when a retry lands before the agent gives up', () => {
    expect(throughRetries('codex', [502, 200])).toEqual({ through: true, retries: 1 });
    expect(throughRetries('codex', [429, 200])).toEqual({ through: false, retries: 0 });
    expect(throughRetries('claude-code', [429, 502, 200])).toEqual({ through: true, retries: 2 });
    expect(throughRetries('codex', [404, 404, 404, 404, 404, 404, 200])).toEqual({ through: false, retries: 5 });
    expect(throughRetries('codex', [404, 404, 404, 404, 404, 200])).toEqual({ through: true, retries: 5 });
  });

  it('says what the user sees after those retries', () => {
    expect(afterRetriesWords('codex', 'Codex', 502)).toEqual({
      inline: " even after Codex's own 29 retries",
      final: '',
    });
    expect(afterRetriesWords('codex', 'Codex', 429)).toEqual({
      inline: '',
      final: ' A 429 is final for Codex: it does not retry.',
    });
    expect(afterRetriesWords('chat-agent', 'Qwen Code', 429).inline).toBe(
      " even after Qwen Code's own more than 55 retries",
    );
    expect(retryFacts('codex', 404)).toEqual({ retries: 5, seconds: 11 });
    expect(retryFacts('chat', 500)).toBeUndefined();
  });
});

describe('k of n sessions after the agent’s own retries', () => {
  it('does not count a session a retry rescued, and says the user waits through the backoff', () => {
    const sessions: SessionRun[] = [
      { runs: [run(200), run(200)], retried: [run(502)] },
      { runs: [run(200), run(200)] },
      { runs: [run(200), run(200)], retried: [run(502)] },
      { runs: [run(200), run(200)] },
    ];
    const step = judgeSessions(sessions, O);
    expect(step.outcome).toBe('warn');
    expect(step.evidence).toBe(
      "4 of 4 sessions completed, 2 of them only on Codex's own retries: 2 request(s) sent again after HTTP 502.",
    );
    expect(step.consequence).toMatch(/waits through its backoff on 2 of 4 \(50 %\) sessions/);
    expect(step.runIds).toHaveLength(10);
  });

  it('counts a session the retries did not rescue, saying so', () => {
    const refused = run(429);
    const sessions: SessionRun[] = [
      { runs: [run(200), run(200)] },
      { runs: [run(200), refused], failed: refused },
      { runs: [run(200), run(200)], retried: [run(502)] },
      { runs: [run(200), run(200)] },
    ];
    const step = judgeSessions(sessions, O);
    expect(step.outcome).toBe('fail');
    expect(step.evidence).toMatch(/^1 of 4 \(25 %\) sessions failed — intermittently, first in session 2/);
    expect(step.consequence).toMatch(
      /^Codex would fail 1 of 4 \(25 %\) sessions, on its second turn: Rate limited or overloaded \(HTTP 429\)/,
    );
    expect(step.consequence).toMatch(/exhausted\. A 429 is final for Codex: it does not retry\.$/);
    const five = run(503);
    const after = judgeSessions([{ runs: [run(200), five], failed: five, retried: [run(503)] }], O);
    expect(after.consequence).toMatch(
      /^Codex would fail on its second turn even after Codex's own 29 retries: Rate limited or overloaded \(HTTP 503\)/,
    );
  });
});

describe('a malformed stream line, as Claude Code reads it', () => {
  /** A run as the fold leaves it: its events, and a warning naming the first line that is not JSON. */
  const withEvents = (...types: [string, string][]) => {
    const at = types.findIndex(([, data]) => data === '{"ty');
    return {
      events: types.map(([type, data], seq) => ({ seq, t: seq, type, data, size: data.length })),
      result: { warnings: at < 0 ? [] : [`Event ${at + 1} is not a JSON object and was skipped: {"ty`] },
    } as unknown as FinishedRun;
  };
  const event = (data: string): [string, string] => ['content_block_delta', data];
  const thinking = event('{"type":"content_block_delta","delta":{"type":"thinking_delta"}}');
  const text = event('{"type":"content_block_delta","delta":{"type":"text_delta","text":"Hi"}}');
  const done = event('{"type":"content_block_stop","index":0}');
  const cut = event('{"ty');

  it('is sent again unstreamed before the first content block is finished, and ends the turn after', () => {
    expect(resendsUnstreamed('claude-code', withEvents(thinking, cut, text))).toBe(true);
    expect(resendsUnstreamed('claude-code', withEvents(cut))).toBe(true);
    expect(resendsUnstreamed('claude-code', withEvents(thinking, done, cut))).toBe(false);
    expect(resendsUnstreamed('claude-code', withEvents(thinking, text))).toBe(false);
    expect(resendsUnstreamed('codex', withEvents(cut))).toBe(false);
    expect(resendsUnstreamed('chat-agent', withEvents(cut))).toBe(false);
  });
});
