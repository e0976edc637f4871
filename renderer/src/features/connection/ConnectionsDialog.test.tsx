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
  answers['models:list'] = ok({
    profileId: 'p1',
    models: [],
    added: [],
    removed: [],
    pages: 1,
    fetchedAt: new Date().toISOString(),
  });
});
afterEach(cleanup);

async function openDialog() {
  render(<App />);
  await settle();
  fireEvent.click(screen.getByRole('button', { name: 'Connections…' }));
  return screen.getByRole('dialog', { name: 'Connections' });
}

const lastSave = () => {
  const last = calls.filter((c) => c.call === 'profiles:save').at(-1);
  if (!last) throw new Error('profiles:save was not called');
  return last.input;
};

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
    expect(lastSave()).toMatchObject({
      extraHeaders: { 'x-team': 'blue', 'helicone-auth': '' },
      keepSecretHeaders: { 'helicone-auth': 'helicone-auth' },
    });

    fireEvent.change(value, { target: { value: 'Bearer sk-new-value-9999' } });
    fireEvent.click(save);
    await settle();
    expect(lastSave()).toMatchObject({
      extraHeaders: { 'helicone-auth': 'Bearer sk-new-value-9999' },
      keepSecretHeaders: {},
    });
    // Handed to the core: the form does not keep it.
    expect((within(dialog).getByLabelText('Header 2 value') as HTMLInputElement).value).toBe('');
    expect(dialog.innerHTML).not.toContain('sk-new-value');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove header 2' }));
    fireEvent.click(save);
    await settle();
    expect(lastSave()).toMatchObject({ extraHeaders: { 'x-team': 'blue' }, keepSecretHeaders: {} });
    expect(Object.keys(lastSave().extraHeaders ?? {})).toEqual(['x-team']);
  });
});

describe('connections dialog: secret switch, host change, one URL error', () => {
  it('a credential-named header is always secret; any other can be marked secret, and the save says so', async () => {
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: '+ Add header' }));
    const name = within(dialog).getByLabelText('Header 3 name');
    const secret = within(dialog).getByRole('checkbox', { name: 'Header 3 secret' }) as HTMLInputElement;
    fireEvent.change(name, { target: { value: 'x-llm-key' } });
    expect(secret.checked).toBe(true);
    expect(secret.disabled).toBe(true);
    fireEvent.change(name, { target: { value: 'x-tenant' } });
    expect(secret.checked).toBe(false);
    expect(secret.disabled).toBe(false);
    const value = within(dialog).getByLabelText('Header 3 value') as HTMLInputElement;
    expect(value.type).toBe('text');
    fireEvent.click(secret);
    expect(value.type).toBe('password');
    fireEvent.change(value, { target: { value: 'tnt-42' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save profile' }));
    await settle();
    expect(lastSave()).toMatchObject({ extraHeaders: { 'x-tenant': 'tnt-42' }, secretHeaders: ['x-tenant'] });
  });

  it('in the desktop app, moving a profile with stored secrets to another host offers to keep them, which the app then asks about', async () => {
    answers['profiles:list'] = ok({ ...state, asksOutsidePage: true });
    answers['profiles:save'] = ok({ ...state, asksOutsidePage: true });
    const dialog = await openDialog();
    const url = within(dialog).getByLabelText('Base URL');
    fireEvent.change(url, { target: { value: 'https://gw.example/v1' } });
    expect(within(dialog).queryByRole('group', { name: 'Host change' })).toBeNull();
    fireEvent.change(url, { target: { value: 'https://other.example:8443' } });
    const keep = within(dialog).getByRole('checkbox', {
      name: 'Keep the key for other.example:8443?',
    }) as HTMLInputElement;
    expect(keep.checked).toBe(false);
    expect(within(dialog).getByRole('group', { name: 'Host change' }).textContent).toContain(
      'other.example:8443 never receives them',
    );
    const save = within(dialog).getByRole('button', { name: 'Save profile' });
    fireEvent.click(save);
    await settle();
    expect(lastSave().keepSecretsForOrigin).toBeUndefined();
    expect(within(dialog).getByRole('status').textContent).toBe(
      'Saved. “Work” is the profile in use. The stored secret header values were not kept for other.example:8443.',
    );

    fireEvent.change(within(dialog).getByLabelText('Base URL'), { target: { value: 'https://other.example:8443' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Keep the key for other.example:8443?' }));
    expect(within(dialog).getByRole('group', { name: 'Host change' }).textContent).toContain(
      'the app asks you in its own dialog',
    );
    fireEvent.click(save);
    await settle();
    expect(lastSave().keepSecretsForOrigin).toBe('https://other.example:8443');
  });

  it('in the browser host, a new port says before Save that the key stays behind, and offers no keep it cannot honour', async () => {
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Base URL'), { target: { value: 'https://gw.example:8443' } });
    const group = within(dialog).getByRole('group', { name: 'Host change' });
    expect(group.textContent).toContain(
      'The stored key and secret header values will not follow to the new address gw.example:8443',
    );
    expect(group.textContent).toContain('type the key again');
    expect(within(dialog).queryByRole('checkbox', { name: /Keep the key/ })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save profile' }));
    await settle();
    expect(lastSave().keepSecretsForOrigin).toBeUndefined();
  });

  it('the "Keep the key" choices say what this host does: no two that mean the same', async () => {
    answers['profiles:list'] = ok({ ...state, keyStorages: ['session'] });
    const dialog = await openDialog();
    // The browser host without --persist-keys keeps keys in memory only: one place, so no choice.
    expect(within(dialog).queryByRole('combobox', { name: 'Keep the key' })).toBeNull();
    expect(dialog.textContent).toContain('Keep the key for this session only: this host keeps no key on disk');
    cleanup();
    // Another window: its own store, which asks the host again.
    useAppStore.setState(pristine, true);
    answers['profiles:list'] = ok({ ...state, keyStorages: ['file', 'session'] });
    const withFile = await openDialog();
    const select = within(withFile).getByRole('combobox', { name: 'Keep the key' });
    const options = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual([
      'in a 0600 file in the data folder',
      'for this session only (forgotten when the app stops)',
    ]);
  });

  it('a base URL that already ends in an endpoint path gets a "did you mean" with a one-click fix', async () => {
    const dialog = await openDialog();
    const url = within(dialog).getByLabelText('Base URL') as HTMLInputElement;
    fireEvent.change(url, { target: { value: 'https://gw.example/v1/chat/completions' } });
    const hint = within(dialog).getByRole('alert');
    expect(hint.textContent).toContain('Did you mean https://gw.example/v1?');
    fireEvent.click(within(hint).getByRole('button', { name: 'Use https://gw.example/v1' }));
    expect(url.value).toBe('https://gw.example/v1');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(within(dialog).getByLabelText('Endpoint URLs').textContent).toContain(
      'https://gw.example/v1/chat/completions',
    );
    fireEvent.change(url, { target: { value: 'https://gw.example/v1/v1' } });
    expect(within(dialog).getByRole('alert').textContent).toContain('Did you mean https://gw.example/v1?');
  });

  it('Delete asks first, then says what was deleted; no "Saved." is left behind', async () => {
    answers['profiles:delete'] = ok({ ...state, profiles: [], activeId: 'demo' });
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save profile' }));
    await settle();
    expect(within(dialog).getByRole('status').textContent).toContain('Saved.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(calls.some((c) => c.call === 'profiles:delete')).toBe(false);
    const confirm = within(dialog).getByRole('alertdialog', { name: 'Delete profile' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.call === 'profiles:delete')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete “Work”' }));
    await settle();
    expect(calls.filter((c) => c.call === 'profiles:delete').map((c) => c.input)).toEqual([{ id: 'p1' }]);
    expect(within(dialog).getByRole('status').textContent).toBe('Deleted “Work”.');
  });

  it('a new profile is added without taking over, unless the user picks Add and use; the form says which is in use', async () => {
    answers['profiles:list'] = ok({ ...state, activeId: 'demo' });
    answers['profiles:save'] = ok({ ...state, activeId: 'demo' });
    const dialog = await openDialog();
    expect(dialog.textContent).toContain('In use: ');
    fireEvent.click(within(dialog).getByRole('button', { name: '+ New profile' }));
    fireEvent.change(within(dialog).getByLabelText('Name', { selector: 'input' }), { target: { value: 'Work' } });
    fireEvent.change(within(dialog).getByLabelText('Base URL'), { target: { value: 'https://gw.example' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add profile' }));
    await settle();
    expect(lastSave().use).toBeUndefined();
    expect(within(dialog).getByRole('status').textContent).toContain('The profile in use is still');
    answers['profiles:save'] = ok(state);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save and use' }));
    await settle();
    expect(lastSave().use).toBe(true);
    expect(within(dialog).getByRole('status').textContent).toContain('“Work” is the profile in use.');
    expect(within(dialog).queryByRole('button', { name: 'Save and use' })).toBeNull();
  });

  it('shows a bad base URL error once, and says short secrets are matched exactly', async () => {
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Base URL'), { target: { value: 'ftp://files.example' } });
    answers['profiles:save'] = async () => ({
      ok: false as const,
      error: { code: 'invalid_input', message: 'x', fields: { baseUrl: 'must be an http:// or https:// URL' } },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save profile' }));
    await settle();
    expect(within(dialog).getAllByText('must be an http:// or https:// URL')).toHaveLength(1);
    expect(dialog.textContent).toContain('A secret under 8 characters is only matched exactly');
  });

  it('Test connection tests the unsaved form too, then says what the core found; an edit or an error clears it', async () => {
    answers['profiles:test'] = ok({
      ok: true,
      status: 200,
      latencyMs: 12,
      modelCount: 1,
      models: ['gpt-sim-mini'],
      attempts: [
        { header: 'x-api-key', status: 200, ok: true, latencyMs: 10 },
        { header: 'authorization', status: 401, ok: false, latencyMs: 9, message: 'invalid token' },
      ],
      summary:
        'Connected: HTTP 200 in 12 ms, 1 model listed. The key works as x-api-key; Authorization: Bearer got HTTP 401.',
    });
    const dialog = await openDialog();
    const test = within(dialog).getByRole('button', { name: 'Test connection' }) as HTMLButtonElement;
    fireEvent.click(test);
    await settle();
    const tests = () => calls.filter((c) => c.call === 'profiles:test').map((c) => c.input);
    expect(tests()).toEqual([{ id: 'p1' }]);
    const region = within(dialog).getByRole('region', { name: 'Connection test' });
    expect(region.textContent).toContain('The key works as x-api-key');
    expect(region.textContent).toContain('Authorization: Bearer: refused (HTTP 401, 9 ms) — invalid token');

    // Unsaved: the form as typed goes to the core, which decides what key it may send.
    fireEvent.change(within(dialog).getByLabelText('API key'), { target: { value: 'sk-typed-key-0123456789' } });
    expect(within(dialog).queryByRole('region', { name: 'Connection test' })).toBeNull();
    expect(test.disabled).toBe(false);
    fireEvent.click(test);
    await settle();
    expect(tests()[1]).toMatchObject({
      draft: { id: 'p1', baseUrl: 'https://gw.example', key: 'sk-typed-key-0123456789' },
    });
    expect(within(dialog).getByRole('region', { name: 'Connection test' })).toBeTruthy();

    // An invalid URL clears the result, and the "Saved." of an earlier save.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save profile' }));
    await settle();
    expect(within(dialog).getByRole('status').textContent).toContain('Saved.');
    fireEvent.click(test);
    await settle();
    expect(within(dialog).getByRole('region', { name: 'Connection test' })).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Base URL'), { target: { value: 'ftp://nope' } });
    expect(within(dialog).queryByRole('status')).toBeNull();
    expect(within(dialog).queryByRole('region', { name: 'Connection test' })).toBeNull();
  });
});
