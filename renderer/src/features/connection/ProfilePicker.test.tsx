import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ProfilesState, ProfileView } from '../../../../shared/contract';

// Only the transport is faked (see test/fake-gateway.ts): the store and the components are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { App } from '../../App';
import { useAppStore } from '../../store';
import { answers, calls, resetGateway } from '../../test/fake-gateway';

const profile = (id: string, name: string, extra: Partial<ProfileView> = {}): ProfileView => ({
  id,
  name,
  baseUrl: 'https://gw.example',
  authScheme: 'native',
  extraHeaders: {},
  secretHeaders: {},
  key: { hasKey: false, storage: 'none' },
  ...extra,
});
const state = (activeId: string, ...profiles: ProfileView[]): ProfilesState => ({
  profiles,
  activeId,
  keyStorages: ['keychain', 'session'],
});
/** An answer with this value, typed by the call it answers. */
const ok =
  <T,>(value: T) =>
  async () => ({ ok: true as const, value });
const fail = (message: string) => async () => ({ ok: false as const, error: { code: 'io_error', message } });
const settle = () => act(() => new Promise((r) => setTimeout(r, 20)));

const demo = profile('demo', 'Demo', { builtin: 'demo' });
const work = profile('p1', 'Work');

const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  answers['app:info'] = ok({ version: '1', host: 'web', dataDir: '/d', problems: [] });
  answers['models:list'] = async ({ profileId }) => ({
    ok: true,
    value: {
      profileId,
      models: [{ id: `${profileId}-model`, family: 'anthropic' }],
      added: [],
      removed: [],
      pages: 1,
      fetchedAt: new Date().toISOString(),
    },
  });
});
afterEach(cleanup);

describe('header profile picker', () => {
  it('when the profiles cannot be loaded at start-up, the header says why and Retry loads them', async () => {
    answers['profiles:list'] = fail('profiles.json unreadable: EACCES');
    render(<App />);
    await settle();
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('alert').textContent).toContain('profiles.json unreadable: EACCES');
    expect(header.textContent).not.toContain('Connecting…');

    answers['profiles:list'] = ok(state('p1', demo, work));
    fireEvent.click(within(header).getByRole('button', { name: 'Retry' }));
    await settle();
    expect((screen.getByRole('combobox', { name: 'Profile' }) as HTMLSelectElement).value).toBe('p1');
    expect(within(header).queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText('Models fetched').textContent).toContain('1 model ·');
  });

  it('a profile switch the core refuses says why, next to the picker', async () => {
    answers['profiles:list'] = ok(state('demo', demo, work));
    answers['profiles:select'] = fail('could not write profiles.json (disk full)');
    render(<App />);
    await settle();
    const picker = screen.getByRole('combobox', { name: 'Profile' }) as HTMLSelectElement;
    fireEvent.change(picker, { target: { value: 'p1' } });
    await settle();
    expect(picker.value).toBe('demo');
    expect(within(screen.getByRole('banner')).getByRole('alert').textContent).toContain(
      'could not write profiles.json (disk full)',
    );
  });

  it('deleting the active profile loads the models of the profile the core makes active', async () => {
    answers['profiles:list'] = ok(state('p1', demo, work));
    answers['profiles:delete'] = ok(state('demo', demo));
    render(<App />);
    await settle();
    expect(screen.getByLabelText('Models fetched').textContent).toContain('1 model ·');

    fireEvent.click(screen.getByRole('button', { name: 'Connections…' }));
    const dialog = screen.getByRole('dialog', { name: 'Connections' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const confirm = within(dialog).getByRole('alertdialog', { name: 'Delete profile' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete “Work”' }));
    await settle();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));

    expect((screen.getByRole('combobox', { name: 'Profile' }) as HTMLSelectElement).value).toBe('demo');
    expect(calls.filter((c) => c.call === 'models:list').map((c) => c.input.profileId)).toEqual(['p1', 'demo']);
    expect(screen.getByLabelText('Models fetched').textContent).toContain('1 model ·');
  });
});
