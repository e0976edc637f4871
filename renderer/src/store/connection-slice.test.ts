import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProfilesState } from '../../../shared/contract';
import { PROTOCOL_IDS } from '../../../shared/protocols/types';

// Only the transport is faked (see test/fake-gateway.ts): the store is the real one.
vi.mock('../bridge', () => import('../test/fake-gateway'));

import { useAppStore } from './index';
import { answers, calls, resetGateway } from '../test/fake-gateway';

const profiles: ProfilesState = {
  profiles: [
    {
      id: 'demo',
      name: 'Demo gateway',
      baseUrl: 'http://127.0.0.1:1',
      authScheme: 'native',
      extraHeaders: {},
      secretHeaders: {},
      key: { hasKey: true, storage: 'session' },
    },
  ],
  activeId: 'demo',
  keyStorages: ['session'],
};
const dropped = {
  ok: false as const,
  error: { code: 'disconnected', message: 'The connection to the app host was lost.' },
};

const pristine = useAppStore.getState();
const s = () => useAppStore.getState();
const asked = (name: string) => calls.filter((c) => c.call === name).length;

/** A start whose models, settings and drafts calls were cut off by a dropped link to the host. */
async function startThroughADrop() {
  answers['app:info'] = async () => ({ ok: true, value: { version: '1', host: 'web', dataDir: '/d', problems: [] } });
  answers['profiles:list'] = async () => ({ ok: true, value: profiles });
  answers['models:list'] = async () => dropped;
  answers['settings:get'] = async () => dropped;
  answers['drafts:list'] = async () => dropped;
  await s().appStarted();
  await s().settingsRequested();
  await s().draftsRequested();
  s().hostConnectionChanged(false);
  answers['models:list'] = async ({ profileId }) => ({
    ok: true,
    value: { profileId, models: [{ id: 'claude-sim-sonnet', family: 'anthropic' }], added: [], removed: [], pages: 1 },
  });
  answers['settings:get'] = async () => ({
    ok: true,
    value: { ...s().settings, theme: 'dark' },
  });
  answers['drafts:list'] = async () => ({ ok: true, value: { drafts: {} } });
}

beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
});

describe('a dropped link to the host', () => {
  it('leaves the Model box empty and saving off until it is back, then asks again without a click', async () => {
    await startThroughADrop();
    expect(s().models.demo?.error?.type).toBe('disconnected');
    expect(s().draftsState).toBe('idle');
    expect(s().draftsError).toMatch(/kept drafts could not be read/);

    s().hostConnectionChanged(true);
    await vi.waitFor(() => expect(s().models.demo?.models.map((m) => m.id)).toEqual(['claude-sim-sonnet']));
    await vi.waitFor(() => expect(s().draftsState).toBe('ready'));
    expect(s().draftsError).toBeUndefined();
    expect(s().settings.theme).toBe('dark');
  });

  it('asks nothing again when nothing was lost', async () => {
    answers['app:info'] = async () => ({ ok: true, value: { version: '1', host: 'web', dataDir: '/d', problems: [] } });
    answers['profiles:list'] = async () => ({ ok: true, value: profiles });
    answers['models:list'] = async ({ profileId }) => ({
      ok: true,
      value: { profileId, models: [], added: [], removed: [], pages: 1 },
    });
    answers['settings:get'] = async () => ({ ok: true, value: s().settings });
    answers['drafts:list'] = async () => ({ ok: true, value: { drafts: {} } });
    await s().appStarted();
    await s().settingsRequested();
    await s().draftsRequested();
    const before = calls.length;
    s().hostConnectionChanged(false);
    s().hostConnectionChanged(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(calls.length).toBe(before);
    expect(asked('models:list')).toBe(1);
  });
});

describe('a window opening', () => {
  it('asks for everything the first screen shows at once, once, and names the default model in every tab', async () => {
    answers['app:info'] = async () => ({ ok: true, value: { version: '1', host: 'web', dataDir: '/d', problems: [] } });
    answers['profiles:list'] = async () => ({
      ok: true,
      value: { ...profiles, profiles: profiles.profiles.map((p) => ({ ...p, builtin: 'demo' as const })) },
    });
    answers['models:list'] = async ({ profileId }) => ({
      ok: true,
      value: {
        profileId,
        models: [{ id: 'claude-sim-sonnet', family: 'anthropic' }],
        suggested: 'claude-sim-sonnet',
        added: [],
        removed: [],
        pages: 1,
      },
    });
    answers['settings:get'] = async () => ({ ok: true, value: { ...s().settings, theme: 'light' } });
    answers['collections:list'] = async () => ({
      ok: true,
      value: { folders: [], profileVariables: { demo: { city: 'Oslo' } } },
    });
    answers['drafts:list'] = async () => ({ ok: true, value: { drafts: {} } });
    await Promise.all([s().windowOpened(), s().windowOpened()]);
    for (const name of [
      'app:info',
      'profiles:list',
      'models:list',
      'settings:get',
      'collections:list',
      'drafts:list',
    ]) {
      expect(asked(name), name).toBe(1);
    }
    expect(s().profiles?.activeId).toBe('demo');
    expect(s().models.demo?.models.map((m) => m.id)).toEqual(['claude-sim-sonnet']);
    expect(s().settings.theme).toBe('light');
    expect(s().collections.profileVariables.demo).toEqual({ city: 'Oslo' });
    expect(s().draftsState).toBe('ready');
    // Every tab names the Demo gateway's model before anything renders, so Send works in the first frame.
    expect(PROTOCOL_IDS.map((p) => s().composers[p].body.model)).toEqual(Array(3).fill('claude-sim-sonnet'));
  });
});
