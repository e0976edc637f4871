/**
 * The Locust calls through `dispatch`, as both hosts drive them: the exported file carries neither the key nor
 * a secret header's value, and an import the parser refuses saves nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { LoadRecordSummary, ProfilesState, Result } from '../../../shared/contract';
import type { Core } from '../service';
import { Capture, newCore, value } from '../testing/core-harness';

const KEY = 'sk-relay-key-LOCUST-0123456789';
const SECRET = 'vk-SECRET-9876543210';

describe('core: Locust export and import', () => {
  let core: Core;
  let dataDir: string;
  let profileId: string;
  const r = new Capture();

  beforeAll(async () => {
    ({ core, dataDir } = await newCore());
    const saved = value<ProfilesState>(
      await core.dispatch(
        'profiles:save',
        {
          name: 'Relay',
          baseUrl: 'https://relay.example.com',
          key: KEY,
          extraHeaders: { 'x-portkey-virtual-key': SECRET, 'x-tenant': 'blue' },
        },
        r,
      ),
    );
    profileId = saved.profiles.find((p) => p.name === 'Relay')!.id;
  });
  afterAll(() => core.close());

  it('exports the load with the key and secret header values as environment variables only', async () => {
    const body = { model: 'claude-sim-sonnet', max_tokens: 32, stream: true, messages: [] };
    const { text } = value<{ text: string }>(
      await core.dispatch(
        'locust:export',
        { profileId, protocol: 'messages', body, requests: 10, concurrency: 2, source: 'Messages composer' },
        r,
      ),
    );
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(SECRET);
    expect(text).toContain('X_PORTKEY_VIRTUAL_KEY');
    expect(text).toContain('relay.example.com');
    expect(text).toContain('x-tenant');
  });

  it('refuses a CSV that is not Locust’s stats and keeps the saved runs as they were', async () => {
    const before = value<{ runs: LoadRecordSummary[] }>(await core.dispatch('load:list', {}, r)).runs;
    const refused = (await core.dispatch('locust:import', { stats: 'a,b\n1,2\n' }, r)) as Result<unknown>;
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(value<{ runs: LoadRecordSummary[] }>(await core.dispatch('load:list', {}, r)).runs).toEqual(before);
    expect(readdirSync(path.join(dataDir, 'load-runs')).filter((f) => f !== 'index.json')).toHaveLength(before.length);
  });
});
