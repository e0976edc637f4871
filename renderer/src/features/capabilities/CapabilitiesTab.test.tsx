import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { CapabilityResultView, ProbeJobView, ProfilesState, ProfileView } from '../../../../shared/contract';

// Only the transport is faked (see test/fake-gateway.ts): the store and the components are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { App } from '../../App';
import { useAppStore } from '../../store';
import { answers, calls, resetGateway } from '../../test/fake-gateway';

const profile = (id: string, name: string): ProfileView => ({
  id,
  name,
  baseUrl: 'https://gw.example',
  authScheme: 'native',
  extraHeaders: {},
  secretHeaders: {},
  key: { hasKey: false, storage: 'none' },
});
const profiles = (activeId: string): ProfilesState => ({
  profiles: [profile('a', 'Alpha'), profile('b', 'Beta')],
  activeId,
  keyStorages: ['keychain', 'session'],
});
const proven = (model: string): CapabilityResultView => ({
  model,
  protocol: 'messages',
  capability: 'tools',
  outcome: 'proven',
  message: 'tool call validated',
  at: new Date().toISOString(),
  ageMs: 1000,
  attempts: 1,
  durationMs: 120,
  status: 200,
  evidence: { explanation: 'ALPHA EVIDENCE', fields: {}, runIds: ['run-alpha'] },
});
const settle = (ms = 20) => act(() => new Promise((r) => setTimeout(r, ms)));
const probes = () => calls.filter((c) => c.call === 'capabilities:probe').map((c) => c.input);

/** Results and running jobs the core lists, per profile; tests change them between lists. */
let listed: Record<string, { results: CapabilityResultView[]; jobs: ProbeJobView[] }>;

const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  listed = { a: { results: [proven('alpha-model')], jobs: [] }, b: { results: [], jobs: [] } };
  answers['app:info'] = async () => ({ ok: true, value: { version: '1', host: 'web', dataDir: '/d', problems: [] } });
  answers['profiles:list'] = async () => ({ ok: true, value: profiles('a') });
  answers['profiles:select'] = async ({ id }) => ({ ok: true, value: profiles(id) });
  answers['models:list'] = async ({ profileId }) => ({
    ok: true,
    value: {
      profileId,
      models: [{ id: profileId === 'a' ? 'alpha-model' : 'beta-model', family: 'anthropic' }],
      added: [],
      removed: [],
      pages: 1,
      fetchedAt: new Date().toISOString(),
    },
  });
  answers['capabilities:list'] = async ({ profileId }) => ({ ok: true, value: { profileId, ...listed[profileId] } });
  answers['capabilities:probe'] = async () => ({ ok: true, value: { jobId: 'j1', total: 1 } });
  answers['capabilities:cancel'] = async () => ({ ok: true, value: { cancelled: true } });
});
afterEach(cleanup);

async function openCapabilities() {
  render(<App />);
  await settle();
  fireEvent.click(screen.getByRole('tab', { name: /^Capabilities / }));
  await settle();
}
const cell = (model: string) =>
  screen.getByRole('button', { name: `${model} Messages tools: ${model === 'alpha-model' ? 'proven' : 'not probed'}` });
const switchProfile = async (id: string) => {
  fireEvent.change(screen.getByRole('combobox', { name: 'Profile' }), { target: { value: id } });
  await settle();
};

describe('capability matrix across profiles', () => {
  it('a cell selected on one profile is not shown (nor probed) on another: the switch clears the evidence panel', async () => {
    await openCapabilities();
    fireEvent.click(cell('alpha-model'));
    expect(screen.getByLabelText('Cell evidence').textContent).toContain('ALPHA EVIDENCE');

    await switchProfile('b');
    expect(screen.queryByLabelText('Cell evidence')).toBeNull();

    fireEvent.click(cell('beta-model'));
    fireEvent.click(within(screen.getByLabelText('Cell evidence')).getByRole('button', { name: 'Probe this cell' }));
    await settle();
    expect(probes()).toEqual([
      { profileId: 'b', models: ['beta-model'], protocols: ['messages'], capabilities: ['tools'] },
    ]);

    await switchProfile('a');
    expect(screen.queryByLabelText('Cell evidence')).toBeNull();
  });
  it('the switch clears the selection even when both gateways list the same model', async () => {
    const models = answers['models:list']!;
    answers['models:list'] = async ({ profileId }) => {
      const r = await models({ profileId });
      if (r.ok && profileId === 'b') r.value.models.push({ id: 'alpha-model', family: 'unknown' });
      return r;
    };
    await openCapabilities();
    fireEvent.click(cell('alpha-model'));
    expect(screen.getByLabelText('Cell evidence').textContent).toContain('ALPHA EVIDENCE');

    await switchProfile('b');
    expect(screen.queryByLabelText('Cell evidence')).toBeNull();
  });
});

describe('the age of a result', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('is counted from its timestamp and moves on while the tab stays open', async () => {
    const realNow = Date.now();
    // The listed ageMs is stale on purpose: only `at` tells the truth.
    listed.a.results = [{ ...proven('alpha-model'), at: new Date(realNow - 5 * 60_000).toISOString(), ageMs: 1000 }];
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    await openCapabilities();
    fireEvent.click(cell('alpha-model'));
    const age = () =>
      screen.getByRole('complementary', { name: 'Cell evidence' }).textContent!.match(/\(([^)]*) ago\)/)?.[1];
    expect(age()).toBe('5 min');
    expect(cell('alpha-model').title).toContain('(5 min ago)');

    vi.spyOn(Date, 'now').mockReturnValue(realNow + 3 * 3600_000);
    act(() => void vi.advanceTimersByTime(30_000));
    expect(age()).toBe('3 h');
    expect(cell('alpha-model').title).toContain('(3 h ago)');
  });
});

describe('probe jobs the core is still running (a reloaded window)', () => {
  const job: ProbeJobView = {
    jobId: 'j9',
    profileId: 'a',
    state: 'running',
    done: 3,
    total: 40,
    startedAt: new Date().toISOString(),
  };

  it('shows their progress and Cancel, and holds back new probes until they end', async () => {
    listed.a.jobs = [job];
    await openCapabilities();
    const progress = screen.getByRole('progressbar', { name: 'Probe progress' });
    expect(progress.textContent).toContain('3 / 40');
    expect((screen.getByRole('button', { name: /^Probe everything shown/ }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(screen.getByRole('group', { name: 'Probe jobs' })).getByRole('button', { name: 'Cancel' }));
    await settle();
    expect(calls.filter((c) => c.call === 'capabilities:cancel').map((c) => c.input)).toEqual([{ jobId: 'j9' }]);

    // No progress is pushed to this window: the next list no longer reporting the job is how it learns it ended.
    listed.a.jobs = [];
    await settle(2200);
    expect(screen.queryByRole('progressbar', { name: 'Probe progress' })).toBeNull();
    expect((screen.getByRole('button', { name: /^Probe everything shown/ }) as HTMLButtonElement).disabled).toBe(false);
  });
});
