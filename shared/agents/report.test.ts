import { describe, expect, it } from 'vitest';
// The parser react-markdown and remark-gfm are built on, with raw HTML allowed as a permissive viewer would.
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
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

  it('keeps a model id with a pipe inside its Markdown table cell, as text', () => {
    const md = reportMarkdown(input);
    expect(md).toContain('| &lt;img src=x onerror=alert(1)&gt;\\|model | not ready (2026-11-26 09:59 UTC) | — | — |');
    expect(md).toContain('_Nothing measured yet._');
  });

  it('shows every gateway string of the Markdown report as text: no HTML, no link, no image', () => {
    const bait = [
      '<img src=x onerror=alert(1)>',
      '[Re-auth here](https://evil.example/login)',
      '![x](https://evil.example/p.png)',
      '<https://evil.example>',
      'https://evil.example/a www.evil.example a@evil.example',
      '`code` *em* ~~gone~~ &lt;b&gt;',
    ].join(' ');
    const hostileInput: ReportInput = {
      ...input,
      capabilities: [],
      agents: [
        {
          ...input.agents[0],
          model: bait,
          smallModel: bait,
          verdict: bait,
          steps: [step(bait, 'fail', { evidence: bait, consequence: bait, status: 401 })],
        },
      ],
    };
    const html = micromark(reportMarkdown(hostileInput), {
      allowDangerousHtml: true,
      extensions: [gfm()],
      htmlExtensions: [gfmHtml()],
    });
    // (`_Nothing measured yet._` is the report's own emphasis.)
    for (const tag of ['<img', '<a ', '<code', '<strong>`', '<del', '<b>']) expect(html).not.toContain(tag);
    expect(html.match(/<em>/g)).toHaveLength(1);
    expect(html).toContain('`code` *em* ~~gone~~');
    // Each string reads as the gateway wrote it, the entity text included.
    expect(html).toContain('[Re-auth here](https://evil.example/login)');
    expect(html).toContain('&amp;lt;b&amp;gt;');
  });
});
