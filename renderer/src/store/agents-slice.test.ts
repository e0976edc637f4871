import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentCheckInput, AgentResult } from '../../../shared/contract';

/** The transport's agents:check: each call waits until the test answers it, as a slow gateway would. */
const pending: { input: AgentCheckInput; answer(level: AgentResult['level']): void }[] = [];
vi.mock('../bridge', () => ({
  gateway: {
    agents: {
      check: (input: AgentCheckInput) =>
        new Promise((resolve) =>
          pending.push({
            input,
            answer: (level) =>
              resolve({
                ok: true,
                value: { ...input, level, verdict: level, steps: [], at: new Date().toISOString(), durationMs: 1 },
              }),
          }),
        ),
    },
  },
  onHostConnection: () => () => {},
}));

import { useAppStore } from './index';

const pristine = useAppStore.getState();
beforeEach(() => {
  pending.length = 0;
  useAppStore.setState(pristine, true);
});
const s = () => useAppStore.getState();
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('agents slice', () => {
  it('Check all goes through every agent × model one at a time, and Stop keeps what was measured', async () => {
    const sweep = s().agentCheckAllRequested('p1', ['m1', 'm2']);
    await settle();
    expect(s().agentSweep).toMatchObject({ done: 0, total: 6 });
    expect(pending.map((p) => `${p.input.agent}|${p.input.model}`)).toEqual(['codex|m1']);
    pending[0].answer('ready');
    await settle();
    expect(pending.map((p) => `${p.input.agent}|${p.input.model}`)).toEqual(['codex|m1', 'claude-code|m1']);
    s().agentCheckAllStopped();
    pending[1].answer('not-ready');
    await sweep;
    expect(pending).toHaveLength(2);
    expect(s().agentSweep).toBeUndefined();
    expect(s().agentResults.p1?.results.map((r) => `${r.agent}|${r.model}|${r.level}`)).toEqual([
      'claude-code|m1|not-ready',
      'codex|m1|ready',
    ]);
  });

  it('a check again replaces that cell only, and shows it as running until it answers', async () => {
    const first = s().agentCheckRequested({ profileId: 'p1', agent: 'codex', model: 'm1' });
    await settle();
    expect(s().agentChecksRunning).toEqual({ 'p1|codex|m1': true });
    pending[0].answer('degraded');
    await first;
    const again = s().agentCheckRequested({ profileId: 'p1', agent: 'codex', model: 'm1' });
    await settle();
    pending[1].answer('ready');
    await again;
    expect(s().agentChecksRunning).toEqual({});
    expect(s().agentResults.p1?.results.map((r) => r.level)).toEqual(['ready']);
  });
});
