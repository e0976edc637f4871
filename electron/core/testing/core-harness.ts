/**
 * What the core's integration tests share: a receiver that records pushes, a core on a fresh data folder, and
 * two more simulated gateways on loopback behind a second key. The core is driven through `dispatch` exactly
 * as both hosts drive it (raw, untrusted payloads in; Result envelopes and pushes out).
 */
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Result, RunResult, RunUpdate } from '../../../shared/contract';
import { rowsOf } from '../../../shared/protocols/event-columns';
import { createCore, type Receiver } from '../service';
import { LayeredVault } from '../vault';
import { startSimulator, type RunningSimulator } from '../simulator';
import { tempDirs } from './temp-dirs';

export const SECOND_KEY = 'sk-second-gateway-0123456789abcdef';

export class Capture implements Receiver {
  readonly batches: RunUpdate[][] = [];
  readonly raw: string[] = [];
  send(name: string, payload: unknown): void {
    this.raw.push(JSON.stringify(payload));
    if (name === 'runs:update') this.batches.push(payload as RunUpdate[]);
  }
  updates(runId: string): RunUpdate[] {
    return this.batches.flat().filter((u) => u.runId === runId);
  }
  async end(runId: string, timeoutMs = 15_000): Promise<RunResult> {
    const start = Date.now();
    for (;;) {
      const end = this.updates(runId).find((u) => u.kind === 'end');
      if (end && end.kind === 'end') return end.result;
      if (Date.now() - start > timeoutMs) throw new Error(`run ${runId} did not end`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  text(runId: string): string {
    return this.updates(runId)
      .flatMap((u) => (u.kind === 'events' ? rowsOf(u.events) : []))
      .map((e) => e.data)
      .join('\n');
  }
}

export function value<T>(r: Result<unknown>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

/** Fresh data folders, removed after the test file. */
export const tempDir = tempDirs('gp-core-');

export async function newCore(dataDir = tempDir(), extra: Partial<Parameters<typeof createCore>[0]> = {}) {
  const core = await createCore({
    dataDir,
    host: 'web',
    version: 'test',
    vault: new LayeredVault('file', path.join(dataDir, 'keys.json')),
    ...extra,
  });
  return { core, dataDir };
}

/**
 * Two more gateways for the test file: `second` serves `secondKeys` (read on every request, so a test may
 * change what it serves), `third` other models behind the same key.
 */
export interface SecondGateways {
  second: RunningSimulator;
  third: RunningSimulator;
  secondKeys: Record<string, string[]>;
}

export function useSecondGateways(): SecondGateways {
  const g = {
    secondKeys: { [SECOND_KEY]: ['gpt-sim-mini', 'sim-chat-only'] },
  } as Partial<SecondGateways> as SecondGateways;
  beforeAll(async () => {
    g.second = await startSimulator({ port: 0, keys: g.secondKeys });
    g.third = await startSimulator({ port: 0, keys: { [SECOND_KEY]: ['gpt-sim-mini', 'claude-sim-haiku'] } });
  });
  afterAll(async () => {
    await g.second.close();
    await g.third.close();
  });
  return g;
}
