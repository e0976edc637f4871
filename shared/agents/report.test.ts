import { describe, expect, it } from 'vitest';
import { reportHtml, reportMarkdown, type ReportInput } from './report';
import { verdictOf } from './verdict';
import type { AgentStep } from './types';

const step = (id: string, outcome: AgentStep['outcome'], extra: Partial<AgentStep> = {}): AgentStep => ({
  id,
  title: id,
  outcome,
  evidence: `${id} seen.`,
  runIds: [],
  ...extra,
});

describe('the verdict', () => {
  it('names the first failing step with its status, evidence and what the agent would show', () => {
    const v = verdictOf([
      step('turn-1', 'pass'),
      step('cache', 'warn'),
      step('turn-2', 'fail', { status: 400, consequence: 'Codex would fail on its second turn.' }),
    ]);
    expect(v).toEqual({
      level: 'not-ready',
      verdict: 'not ready — turn-2 (HTTP 400): turn-2 seen. Codex would fail on its second turn.',
    });
  });

  it('is degraded on warnings only, ready when every step that ran passed', () => {
    expect(verdictOf([step('a', 'pass'), step('cache', 'warn', { consequence: 'Full price.' })]).verdict).toBe(
      'degraded — cache: cache seen. Full price.',
    );
    expect(verdictOf([step('a', 'pass'), step('b', 'skip'), step('c', 'pass')]).verdict).toBe(
      'ready — all 2 steps passed on evidence.',
    );
  });
});

describe('the report', () => {
  const hostile = '<img src=x onerror=alert(1)>|model';
  const input: ReportInput = {
    profileName: 'Relay <b>',
    baseUrl: 'https://relay.example',
    generatedAt: '2026-11-26T10:00:00.000Z',
    capabilities: [],
    agents: [
      {
        agent: 'codex',
        model: hostile,
        level: 'not-ready',
        verdict: 'not ready — x',
        steps: [step('turn-1', 'fail', { evidence: '<script>alert(1)</script>' })],
        at: '2026-11-26T09:59:00.000Z',
        durationMs: 10,
      },
    ],
  };

  it('escapes what a gateway or model id could inject into the HTML page, which loads nothing', () => {
    const html = reportHtml(input);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain("default-src 'none'");
  });

  it('keeps a model id with a pipe inside its Markdown table cell', () => {
    const md = reportMarkdown(input);
    expect(md).toContain('| <img src=x onerror=alert(1)>\\|model | not ready (2026-11-26 09:59 UTC) | — | — |');
    expect(md).toContain('_Nothing measured yet._');
  });
});
