/**
 * Drafts against real files in a temp data dir, through the core's calls: what was saved is what a restarted
 * core lists, the last of several quick saves is the one kept, a key never reaches the disk, and a drafts.json
 * that cannot be used is moved aside instead of overwritten.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ComposerDrafts, Result } from '../../shared/contract';
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
      first.dispatch('drafts:save', { protocol: 'messages', body: { model: 'older' }, draft: '' }, receiver),
      first.dispatch('drafts:save', { protocol: 'messages', body, draft: 'half a thought' }, receiver),
      first.dispatch('drafts:save', { protocol: 'chat', body: { model: 'c', messages: [] }, draft: '' }, receiver),
    ]);
    await first.close();

    const second = await core(dir);
    const { drafts } = value<{ drafts: ComposerDrafts }>(await second.dispatch('drafts:list', {}, receiver));
    expect(drafts.messages).toMatchObject({ body, draft: 'half a thought' });
    expect(drafts.chat?.body).toEqual({ model: 'c', messages: [] });
    expect(drafts.responses).toBeUndefined();
    await second.close();
  });

  it('refuses a draft for a protocol that does not exist, and writes no key found in a body', async () => {
    const dir = temp();
    const c = await core(dir);
    const bad = await c.dispatch('drafts:save', { protocol: 'gemini', body: {}, draft: '' }, receiver);
    expect(bad.ok).toBe(false);
    await c.close();

    const key = 'sk-very-secret-key-123';
    const store = new DraftStore(dir, () => [key]);
    await store.load();
    await store.save('chat', { model: 'm', messages: [{ role: 'user', content: `my key is ${key}` }] }, key);
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
    await store.save('chat', { model: 'm' }, '');
    const aside = readdirSync(dir).filter((f) => f.startsWith('drafts.json.corrupt-'));
    expect(readFileSync(path.join(dir, aside[0]), 'utf8')).toContain('"body":[]');
  });
});
