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

  it('says what the agent was measured to do on a status, with the backoff the user waits through', () => {
    const refused = { status: 429, verdict: 'http-error' as const, message: '' };
    expect(nextStep('codex', refused, { retries: 0, seconds: 0 })).toBe(
      'Codex does not retry a 429: it shows the error and stops the turn.',
    );
    expect(nextStep('claude-code', { ...refused, status: 529 }, { retries: 10, seconds: 178 })).toBe(
      'Claude Code sends it again up to 10 times with backoff (about 178 s in all), then shows the error and stops the turn.',
    );
    const signature = { status: 400, verdict: 'http-error' as const, message: 'Invalid signature in thinking block' };
    expect(nextStep('claude-code', signature, { retries: 0, seconds: 0 })).toMatch(/again without its thinking/);
  });
});
