import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CapabilityResult } from '../../shared/capabilities';
import { CapabilityStore } from './capability-store';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'gp-caps-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function result(partial: Partial<CapabilityResult> = {}): CapabilityResult {
  return {
    model: 'claude-sim-sonnet',
    protocol: 'messages',
    capability: 'tools',
    outcome: 'proven',
    message: 'Called get_weather',
    status: 200,
    evidence: { runIds: ['run_1'], fields: { toolCall: { name: 'get_weather' } }, explanation: 'why' },
    at: '2026-01-01T00:00:00.000Z',
    attempts: 1,
    durationMs: 12,
    ...partial,
  };
}

describe('CapabilityStore', () => {
  it('keeps the latest result per cell and profile, and reads it back after a restart', async () => {
    const dir = tempDir();
    const store = new CapabilityStore(dir);
    expect(await store.load()).toEqual([]);
    await store.put('demo', result());
    await store.put('demo', result({ outcome: 'not-supported', at: '2026-01-02T00:00:00.000Z' }));
    await store.put('demo', result({ capability: 'caching', at: '2026-01-03T00:00:00.000Z' }));
    await store.put('other', result());
    const file = JSON.parse(readFileSync(path.join(dir, 'capabilities.json'), 'utf8'));
    expect(file.version).toBe(1);

    const again = new CapabilityStore(dir);
    expect(await again.load()).toEqual([]);
    expect(again.list('demo').map((r) => [r.capability, r.outcome])).toEqual([
      ['caching', 'proven'],
      ['tools', 'not-supported'],
    ]);
    expect(again.forTarget('demo', 'claude-sim-sonnet', 'messages')).toHaveLength(2);
    expect(again.forTarget('demo', 'claude-sim-sonnet', 'chat')).toEqual([]);
    await again.forget('other');
    expect(again.list('other')).toEqual([]);
  });

  it('moves a corrupt file aside and reports it instead of failing', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'capabilities.json'), '{"version":1,"profiles":{"demo":{"results":[{"model":1}]}}}');
    const store = new CapabilityStore(dir);
    const problems = await store.load();
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toMatch(/capabilities\.json does not match the expected format/);
    expect(readdirSync(dir).some((f) => f.startsWith('capabilities.json.corrupt-'))).toBe(true);
    expect(store.list('demo')).toEqual([]);
    await store.put('demo', result());
    expect(store.list('demo')).toHaveLength(1);
  });
});
