import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentCheckInput, AgentResult } from '../../../shared/contract';

/**
 * The transport's agents:check: each call waits until the test answers it, as a slow gateway would;
 * agents:cancel answers every check still waiting with `cancelled`, as the core does.
 */
type Answer = { ok: true; value: AgentResult } | { ok: false; error: { code: string; message: string } };
const pending: { input: AgentCheckInput; answer(level: AgentResult['level']): void; done: boolean }[] = [];
const cancels: unknown[] = [];
vi.mock('../bridge', () => ({
  gateway: {
    agents: {
      check: (input: AgentCheckInput) =>
        new Promise<Answer>((resolve) => {
          const entry = {
            input,
            done: false,
            answer: (level: AgentResult['level']) => {
              entry.done = true;
              resolve({
                ok: true,
                value: { ...input, level, verdict: level, steps: [], at: new Date().toISOString(), durationMs: 1 },
              });
            },
            cancel: () => {
              entry.done = true;
              resolve({
                ok: false,
                error: { code: 'cancelled', message: 'The check was stopped before it finished.' },
              });
            },
          };
          pending.push(entry);
        }),
      cancel: (input: unknown) => {
        cancels.push(input);
        const open = pending.filter((p) => !p.done) as unknown as { cancel(): void }[];
        open.forEach((p) => p.cancel());
        return Promise.resolve({ ok: true, value: { cancelled: open.length } });
      },
    },
  },
  onHostConnection: () => () => {},
}));

import { useAppStore } from './index';

const pristine = useAppStore.getState();
beforeEach(() => {
  pending.length = 0;
  cancels.length = 0;
  useAppStore.setState(pristine, true);
});
const s = () => useAppStore.getState();
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('agents slice', () => {
  const started = () => pending.map((p) => `${p.input.agent}|${p.input.model}`);
  const waiting = () => pending.filter((p) => !p.done).map((p) => `${p.input.agent}|${p.input.model}`);
  const answer = async (cell: string, level: AgentResult['level']) => {
    pending.find((p) => !p.done && `${p.input.agent}|${p.input.model}` === cell)!.answer(level);
    await settle();
  };

  it("Check all checks three models at once, a model's agents in turn, each result shown as it lands", async () => {
    const sweep = s().agentCheckAllRequested('p1', ['m1', 'm2', 'm3', 'm4']);
    await settle();
    expect(s().agentSweep).toMatchObject({ done: 0, total: 12 });
    expect(waiting()).toEqual(['codex|m1', 'codex|m2', 'codex|m3']);

    await answer('codex|m2', 'degraded');
    expect(s().agentResults.p1?.results.map((r) => `${r.agent}|${r.model}|${r.level}`)).toEqual(['codex|m2|degraded']);
    expect(s().agentSweep).toMatchObject({ done: 1 });
    expect(waiting()).toEqual(['codex|m1', 'codex|m3', 'claude-code|m2']);

    // A lane whose model is done takes the next model.
    await answer('claude-code|m2', 'ready');
    await answer('chat-agent|m2', 'ready');
    expect(waiting()).toEqual(['codex|m1', 'codex|m3', 'codex|m4']);
    while (waiting().length) await answer(waiting()[0], 'ready');
    expect(await sweep).toBeUndefined();
    expect(started()).toHaveLength(12);
    expect(new Set(started()).size).toBe(12);
    expect(s().agentResults.p1?.results).toHaveLength(12);
    expect(s().agentSweep).toBeUndefined();
    expect(cancels).toEqual([]);
  });

  it("Check all runs Claude Code's small-model step as Check does: a small model the key lists, or the main one", async () => {
    const sweep = s().agentCheckAllRequested('p1', ['big-model', 'claude-sim-haiku']);
    await settle();
    while (waiting().length) await answer(waiting()[0], 'ready');
    await sweep;
    const small = (model: string) =>
      pending.find((p) => p.input.agent === 'claude-code' && p.input.model === model)?.input.smallModel;
    expect(small('big-model')).toBe('claude-sim-haiku');
    expect(small('claude-sim-haiku')).toBe('claude-sim-haiku');
    expect(pending.find((p) => p.input.agent === 'codex')?.input).not.toHaveProperty('smallModel');

    pending.length = 0;
    const only = s().agentCheckAllRequested('p1', ['big-model']);
    await settle();
    while (waiting().length) await answer(waiting()[0], 'ready');
    await only;
    expect(small('big-model')).toBe('big-model');
  });

  it('Stop cancels every check in flight and starts no more; what was measured is kept', async () => {
    const sweep = s().agentCheckAllRequested('p1', ['m1', 'm2', 'm3', 'm4']);
    await settle();
    await answer('codex|m1', 'ready');
    expect(waiting()).toEqual(['codex|m2', 'codex|m3', 'claude-code|m1']);
    s().agentCheckAllStopped();
    expect(s().agentSweep).toMatchObject({ stopping: true });
    s().agentCheckAllStopped();
    expect(cancels).toEqual([{ profileId: 'p1' }]);
    // Stopping is not a failure: nothing to show as an error.
    expect(await sweep).toBeUndefined();
    expect(started()).toEqual(['codex|m1', 'codex|m2', 'codex|m3', 'claude-code|m1']);
    expect(s().agentResults.p1?.results.map((r) => `${r.agent}|${r.model}|${r.level}`)).toEqual(['codex|m1|ready']);
    expect(s().agentSweep).toBeUndefined();
    expect(s().agentChecksRunning).toEqual({});
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
