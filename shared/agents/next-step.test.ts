import { describe, expect, it } from 'vitest';
import { nextStep } from './next-step';

describe('what a connected agent does after a failed turn', () => {
  it('says nothing for a turn that completed or that the user stopped', () => {
    expect(nextStep('claude-code', { status: 200, verdict: 'complete', message: '' })).toBeUndefined();
    expect(nextStep('codex', { verdict: 'cancelled', message: '' })).toBeUndefined();
  });

  it('Claude Code retries a thinking-signature refusal without thinking, and stops on another 400', () => {
    const signature = { status: 400, verdict: 'http-error' as const, message: 'Invalid signature in thinking block' };
    expect(nextStep('claude-code', signature)).toMatch(/again without its thinking/);
    const role = { status: 400, verdict: 'http-error' as const, message: "messages.1.role: Input should be 'user'" };
    expect(nextStep('claude-code', role)).toMatch(/does not retry a 400/);
  });

  it('Codex retries a 404 up to five times and a 400 never; both retry a 429 or 5xx with backoff', () => {
    expect(nextStep('codex', { status: 404, verdict: 'http-error', message: '' })).toMatch(/404 up to five times/);
    expect(nextStep('codex', { status: 400, verdict: 'http-error', message: '' })).toMatch(/does not retry a 400/);
    for (const status of [429, 500, 503])
      for (const agent of ['codex', 'claude-code'] as const)
        expect(nextStep(agent, { status, verdict: 'http-error', message: '' })).toMatch(/retries with backoff/);
  });
});
