import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ProfilesState, ProfileView } from '../../../../shared/contract';

// Only the transport is faked (see test/fake-gateway.ts): the store and the components are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { App } from '../../App';
import { useAppStore } from '../../store';
import { answers, calls, resetGateway } from '../../test/fake-gateway';

const work: ProfileView = {
  id: 'p1',
  name: 'Work',
  baseUrl: 'https://gw.example',
  authScheme: 'native',
  extraHeaders: { 'x-team': 'blue', 'helicone-auth': '' },
  secretHeaders: { 'helicone-auth': { hasValue: true, hint: '…abcd', storage: 'keychain' } },
  key: { hasKey: false, storage: 'none' },
};
const state: ProfilesState = { profiles: [work], activeId: 'p1', keyStorages: ['keychain', 'session'] };
/** An answer with this value, typed by the call it answers. */
const ok =
  <T,>(value: T) =>
  async () => ({ ok: true as const, value });
const settle = () => act(() => new Promise((r) => setTimeout(r, 20)));

const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  answers['app:info'] = ok({ version: '1', host: 'web', dataDir: '/d', problems: [] });
  answers['profiles:list'] = ok(state);
  answers['profiles:save'] = ok(state);
  answers['models:list'] = ok({ profileId: 'p1', models: [], added: [], removed: [], pages: 1, fetchedAt: new Date().toISOString() });
});
afterEach(cleanup);

async function openDialog() {
  render(<App />);
  await settle();
  fireEvent.click(screen.getByRole('button', { name: 'Connections…' }));
  return screen.getByRole('dialog', { name: 'Connections' });
}

const lastSave = () => calls.filter((c) => c.call === 'profiles:save').at(-1)?.input;

describe('connections dialog: secret extra headers', () => {
  it('shows a stored secret header empty with its hint, and keeps it on save unless a new value is typed or the row removed', async () => {
    const dialog = await openDialog();
    const value = within(dialog).getByLabelText('Header 2 value') as HTMLInputElement;
    expect(value.value).toBe('');
    expect(value.type).toBe('password');
    expect(value.placeholder).toBe('stored (…abcd) — type to replace');
    expect((within(dialog).getByLabelText('Header 1 value') as HTMLInputElement).value).toBe('blue');

    const save = within(dialog).getByRole('button', { name: 'Save profile' });
    fireEvent.click(save);
    await settle();
    expect(lastSave()).toMatchObject({ extraHeaders: { 'x-team': 'blue', 'helicone-auth': '' }, keepSecretHeaders: { 'helicone-auth': 'helicone-auth' } });

    fireEvent.change(value, { target: { value: 'Bearer sk-new-value-9999' } });
    fireEvent.click(save);
    await settle();
    expect(lastSave()).toMatchObject({ extraHeaders: { 'helicone-auth': 'Bearer sk-new-value-9999' }, keepSecretHeaders: {} });
    // Handed to the core: the form does not keep it.
    expect((within(dialog).getByLabelText('Header 2 value') as HTMLInputElement).value).toBe('');
    expect(dialog.innerHTML).not.toContain('sk-new-value');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove header 2' }));
    fireEvent.click(save);
    await settle();
    expect(lastSave()).toMatchObject({ extraHeaders: { 'x-team': 'blue' }, keepSecretHeaders: {} });
    expect(Object.keys(lastSave().extraHeaders)).toEqual(['x-team']);
  });
});
