/**
 * Collections through the core as the hosts drive it (testing/core-harness.ts): folders, order and variables
 * kept in real files across a restart, a folder never deleted with requests in it, export and import keeping
 * folders and variables, and a Postman collection's Messages request imported without its key.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CollectionRunProgress, CollectionsState, ForeignImportResult, Preset } from '../../shared/contract';
import type { Receiver } from './service';
import { Capture, newCore, tempDir, value } from './testing/core-harness';

const r = new Capture();
const body = (text: string) => ({
  model: 'claude-sim-haiku',
  max_tokens: 32,
  messages: [{ role: 'user', content: text }],
});

async function save(core: Awaited<ReturnType<typeof newCore>>['core'], name: string, folder?: string[]) {
  return value<Preset>(
    await core.dispatch('presets:save', { name, protocol: 'messages', body: body(name), folder }, r),
  );
}

describe('collections', () => {
  it('keeps folders, the order the user dragged and folder variables across a restart', async () => {
    const dir = tempDir();
    const { core } = await newCore(dir);
    const a = await save(core, 'Alpha', ['Smoke']);
    const b = await save(core, 'Beta', ['Smoke']);
    const c = await save(core, 'Gamma', ['Smoke', 'Tools']);
    await core.dispatch('collections:move', { id: b.id, folder: ['Smoke'], before: a.id }, r);
    await core.dispatch('collections:save', { path: ['Smoke'], variables: { model: 'claude-sim-sonnet' } }, r);
    await core.dispatch('collections:save', { path: ['Empty'] }, r);
    await core.dispatch('variables:save', { profileId: 'demo', variables: { lang: 'fr' } }, r);
    // Saving over a request from the composer, without a folder, keeps it where it sits.
    await core.dispatch('presets:save', { id: c.id, name: 'Gamma', protocol: 'messages', body: body('again') }, r);
    await core.close();

    const { core: again } = await newCore(dir);
    const list = value<{ presets: Preset[] }>(await again.dispatch('presets:list', {}, r)).presets;
    expect(list.map((p) => [p.name, p.folder])).toEqual([
      ['Beta', ['Smoke']],
      ['Alpha', ['Smoke']],
      ['Gamma', ['Smoke', 'Tools']],
    ]);
    const state = value<CollectionsState>(await again.dispatch('collections:list', {}, r));
    expect(state.folders).toEqual([
      { path: ['Smoke'], variables: { model: 'claude-sim-sonnet' } },
      { path: ['Empty'], variables: {} },
      { path: ['Smoke', 'Tools'], variables: {} },
    ]);
    expect(state.profileVariables).toEqual({ demo: { lang: 'fr' } });
  });

  it('renames a folder with what is inside it, and deletes only an empty one', async () => {
    const { core } = await newCore();
    await save(core, 'One', ['Old', 'Deep']);
    await core.dispatch('collections:save', { path: ['Old'], variables: { x: '1' } }, r);
    value(await core.dispatch('collections:rename', { path: ['Old'], name: 'New' }, r));
    const list = value<{ presets: Preset[] }>(await core.dispatch('presets:list', {}, r)).presets;
    expect(list[0].folder).toEqual(['New', 'Deep']);
    const refused = await core.dispatch('collections:delete', { path: ['New'] }, r);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.message).toMatch(/still holds 1 request: move or delete them first/);
    const state = value<CollectionsState>(await core.dispatch('collections:list', {}, r));
    expect(state.folders.find((f) => f.path.join('/') === 'New')?.variables).toEqual({ x: '1' });
  });

  it('exports and imports a folder with its variables', async () => {
    const { core } = await newCore();
    await save(core, 'Kept', ['Suite']);
    await core.dispatch('collections:save', { path: ['Suite'], variables: { topic: 'tides' } }, r);
    const { text } = value<{ text: string }>(await core.dispatch('presets:export', {}, r));
    const { core: other } = await newCore();
    value(await other.dispatch('presets:import', { text }, r));
    const state = value<CollectionsState>(await other.dispatch('collections:list', {}, r));
    expect(state.folders).toEqual([{ path: ['Suite'], variables: { topic: 'tides' } }]);
    const list = value<{ presets: Preset[] }>(await other.dispatch('presets:list', {}, r)).presets;
    expect(list.map((p) => [p.name, p.folder])).toEqual([['Kept', ['Suite']]]);
  });

  it('imports a Postman collection with a Messages request into its own folder, never its key', async () => {
    const { core, dataDir } = await newCore();
    const postman = {
      info: { name: 'Team/Gateway', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      variable: [{ key: 'model', value: 'claude-sim-haiku' }],
      item: [
        {
          name: 'Hello',
          request: {
            method: 'POST',
            header: [
              { key: 'x-api-key', value: 'sk-postman-secret-123456' },
              { key: 'anthropic-beta', value: 'b1' },
            ],
            url: '{{baseUrl}}/v1/messages',
            body: { mode: 'raw', raw: JSON.stringify(body('{{model}} says hi')) },
          },
        },
      ],
    };
    const out = value<ForeignImportResult>(
      await core.dispatch('collections:import', { text: JSON.stringify(postman) }, r),
    );
    expect(out).toMatchObject({ format: 'Postman', folder: ['Team Gateway'], imported: 1, variables: 1 });
    expect(out.leftOut.map((l) => l.name)).toEqual(['Hello: header x-api-key', 'Hello: header anthropic-beta']);
    const list = value<{ presets: Preset[] }>(await core.dispatch('presets:list', {}, r)).presets;
    expect(list[0]).toMatchObject({ name: 'Hello', protocol: 'messages', folder: ['Team Gateway'] });
    expect(readFileSync(path.join(dataDir, 'presets.json'), 'utf8')).not.toContain('sk-postman-secret');
    const bad = await core.dispatch('collections:import', { text: '{"nope":1}' }, r);
    expect(!bad.ok && bad.error.message).toMatch(/Nothing was imported/);
  });

  it('runs a folder with its variables on a profile and fails an expectation that does not hold', async () => {
    const { core } = await newCore();
    const pushes: CollectionRunProgress[] = [];
    const rx: Receiver = {
      send: (name, p) => void (name === 'collections:progress' && pushes.push(p as CollectionRunProgress)),
    };
    const add = (name: string, text: string, expect?: Record<string, unknown>) =>
      core.dispatch(
        'presets:save',
        { name, protocol: 'messages', body: { ...body(text), model: '{{model}}' }, folder: ['Suite'], expect },
        rx,
      );
    value(await add('Passes', 'Say {{word}}', { verdict: 'complete', usageReported: true }));
    value(await add('Fails', 'Say {{word}}', { textIncludes: 'a phrase the model never says' }));
    value(await add('Unknown', 'Say {{missing}}'));
    await core.dispatch('collections:save', { path: ['Suite'], variables: { word: 'tides' } }, rx);
    await core.dispatch('variables:save', { profileId: 'demo', variables: { model: 'claude-sim-haiku' } }, rx);

    const { collectionRunId } = value<{ collectionRunId: string }>(
      await core.dispatch('collections:run', { profileId: 'demo', folder: ['Suite'], concurrency: 2 }, rx),
    );
    await expect.poll(() => pushes.at(-1)?.state, { timeout: 20_000 }).toBe('finished');
    const final = pushes.at(-1)!;
    expect(final.collectionRunId).toBe(collectionRunId);
    expect(final.rows.map((row) => [row.name, row.state])).toEqual([
      ['Passes', 'passed'],
      ['Fails', 'failed'],
      ['Unknown', 'failed'],
    ]);
    expect(final.rows[0]).toMatchObject({ model: 'claude-sim-haiku', verdict: 'complete', status: 200 });
    expect(final.rows[1].checks[0]).toMatchObject({
      pass: false,
      expected: 'text contains "a phrase the model never says"',
    });
    expect(final.rows[2]).toMatchObject({ reason: 'Not sent: no value for {{missing}} (set it in Variables).' });
    expect(final.rows[2].runId).toBeUndefined();
    // The request went out with its variables resolved: the ledger shows it as sent.
    const run = value<{ ledger: { body: string } }>(
      await core.dispatch('runs:get', { runId: final.rows[0].runId! }, rx),
    );
    expect(JSON.parse(run.ledger.body)).toMatchObject({
      model: 'claude-sim-haiku',
      messages: [{ content: 'Say tides' }],
    });
  });
});
