/**
 * Drafts against real files in a temp data dir, through the core's calls: what was saved is what a restarted
 * core lists (every open request of a tab, in order, and the one on view), the last of several quick saves is
 * the one kept, a key never reaches the disk, a version 1 file's draft becomes "Request 1", and a drafts.json
 * that cannot be used is moved aside instead of overwritten.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ComposerDrafts, RequestDraft, Result } from '../../shared/contract';
import { createCore, type Receiver } from './service';
import { DraftStore } from './draft-store';
import { LayeredVault } from './vault';
import { tempDirs } from './testing/temp-dirs';

const temp = tempDirs('gp-drafts-');
const receiver: Receiver = { send: () => {} };

async function core(dataDir: string) {
  return createCore({
    dataDir,
    host: 'web',
    version: 'test',
    vault: new LayeredVault('file', path.join(dataDir, 'keys.json')),
  });
}
/** One request of a tab, as the renderer saves it. */
const req = (
  id: string,
  body: Record<string, unknown>,
  draft = '',
  more: Partial<RequestDraft> = {},
): RequestDraft => ({
  id,
  name: `Request ${id}`,
  body,
  draft,
  runIds: [],
  unsent: false,
  ...more,
});
const one = (r: RequestDraft) => ({ requests: [r], activeId: r.id });

function value<T>(r: Result<unknown>): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value as T;
}

describe('drafts', () => {
  it('a restarted core lists the body and message each tab saved, the last of quick saves winning', async () => {
    const dir = temp();
    const first = await core(dir);
    const body = { model: 'm', messages: [{ role: 'user', content: 'kept' }], gateway_hint: { route: 'b' } };
    await Promise.all([
      first.dispatch('drafts:save', { protocol: 'messages', ...one(req('1', { model: 'older' })) }, receiver),
      first.dispatch('drafts:save', { protocol: 'messages', ...one(req('1', body, 'half a thought')) }, receiver),
      first.dispatch('drafts:save', { protocol: 'chat', ...one(req('1', { model: 'c', messages: [] })) }, receiver),
    ]);
    await first.close();

    const second = await core(dir);
    const { drafts } = value<{ drafts: ComposerDrafts }>(await second.dispatch('drafts:list', {}, receiver));
    expect(drafts.messages?.requests).toMatchObject([{ body, draft: 'half a thought' }]);
    expect(drafts.chat?.requests[0].body).toEqual({ model: 'c', messages: [] });
    expect(drafts.responses).toBeUndefined();
    await second.close();
  });

  it('refuses a draft for a protocol that does not exist, and writes no key found in a body', async () => {
    const dir = temp();
    const c = await core(dir);
    const bad = await c.dispatch('drafts:save', { protocol: 'gemini', ...one(req('1', {})) }, receiver);
    expect(bad.ok).toBe(false);
    const noActive = await c.dispatch(
      'drafts:save',
      { protocol: 'chat', requests: [req('1', {})], activeId: '2' },
      receiver,
    );
    expect(noActive.ok).toBe(false);
    await c.close();

    const key = 'sk-very-secret-key-123';
    const store = new DraftStore(dir, () => [key]);
    await store.load();
    await store.save(
      'chat',
      [req('1', { model: 'm', messages: [{ role: 'user', content: `my key is ${key}` }] }, key)],
      '1',
    );
    const text = readFileSync(path.join(dir, 'drafts.json'), 'utf8');
    expect(text).not.toContain(key);
    expect(text).toContain('<API_KEY>');
  });

  it('moves a drafts.json it cannot read aside and reports it; the next save does not overwrite it', async () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'drafts.json'), '{"version":1,"drafts":{"chat":{"body":[]}}}');
    const store = new DraftStore(dir, () => []);
    const problems = await store.load();
    expect(problems[0]?.message).toMatch(/drafts\.json does not match the expected format/);
    expect(store.list()).toEqual({});
    await store.save('chat', [req('1', { model: 'm' })], '1');
    const aside = readdirSync(dir).filter((f) => f.startsWith('drafts.json.corrupt-'));
    expect(readFileSync(path.join(dir, aside[0]), 'utf8')).toContain('"body":[]');
  });

  it('five open requests of a tab come back after a restart, in order, named, with the one on view and their runs', async () => {
    const dir = temp();
    const first = await core(dir);
    const requests = [1, 2, 3, 4, 5].map((n) =>
      req(`r${n}`, { model: 'm', messages: [{ role: 'user', content: `question ${n}` }] }, `words ${n}`, {
        name: n === 3 ? 'Weather check' : `Request ${n}`,
        runIds: n === 2 ? ['run_a', 'run_b'] : [],
        activeRunId: n === 2 ? 'run_b' : undefined,
        continuedRunId: n === 2 ? 'run_a' : undefined,
        unsent: n === 4,
      }),
    );
    expect(
      (await first.dispatch('drafts:save', { protocol: 'responses', requests, activeId: 'r3' }, receiver)).ok,
    ).toBe(true);
    await first.close();

    const second = await core(dir);
    const { drafts } = value<{ drafts: ComposerDrafts }>(await second.dispatch('drafts:list', {}, receiver));
    expect(drafts.responses?.activeId).toBe('r3');
    expect(drafts.responses?.requests.map((r) => r.name)).toEqual([
      'Request 1',
      'Request 2',
      'Weather check',
      'Request 4',
      'Request 5',
    ]);
    expect(drafts.responses?.requests).toEqual(JSON.parse(JSON.stringify(requests)));
    await second.close();
  });

  it('reads the one-draft-per-protocol file of version 1: each draft becomes its tab\'s "Request 1"', async () => {
    const dir = temp();
    const body = { model: 'old', messages: [{ role: 'user', content: 'from before' }] };
    writeFileSync(
      path.join(dir, 'drafts.json'),
      JSON.stringify({ version: 1, drafts: { messages: { body, draft: 'typed long ago', savedAt: '2026-01-01' } } }),
    );
    const store = new DraftStore(dir, () => []);
    expect(await store.load()).toEqual([]);
    const { messages, chat } = store.list();
    expect(chat).toBeUndefined();
    expect(messages?.requests).toEqual([
      { id: messages?.activeId, name: 'Request 1', body, draft: 'typed long ago', runIds: [], unsent: false },
    ]);
    // The next save writes the new format, which a restarted store reads.
    await store.save('chat', [req('1', { model: 'c' })], '1');
    const again = new DraftStore(dir, () => []);
    await again.load();
    expect(again.list().messages?.requests[0].draft).toBe('typed long ago');
    expect(JSON.parse(readFileSync(path.join(dir, 'drafts.json'), 'utf8')).version).toBe(2);
  });
});
