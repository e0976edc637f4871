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

  it('moving a profile with stored secrets to another host asks before they follow, and forgets them unless ticked', async () => {
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
      'Saved. The stored secret header values were not kept for other.example:8443.',
    );

    fireEvent.change(within(dialog).getByLabelText('Base URL'), { target: { value: 'https://other.example:8443' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Keep the key for other.example:8443?' }));
    fireEvent.click(save);
    await settle();
    expect(lastSave().keepSecretsForOrigin).toBe('https://other.example:8443');
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

  it('Test connection waits for unsaved changes, then says what the core found', async () => {
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
    fireEvent.change(within(dialog).getByLabelText('Name', { selector: 'input' }), { target: { value: 'Work 2' } });
    expect(test.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Name', { selector: 'input' }), { target: { value: 'Work' } });
    expect(test.disabled).toBe(false);
    fireEvent.click(test);
    await settle();
    expect(calls.filter((c) => c.call === 'profiles:test').map((c) => c.input)).toEqual([{ id: 'p1' }]);
    const region = within(dialog).getByRole('region', { name: 'Connection test' });
    expect(region.textContent).toContain('The key works as x-api-key');
    expect(region.textContent).toContain('Authorization: Bearer: refused (HTTP 401, 9 ms) — invalid token');

    // After another save, a second test shows its own answer.
    answers['profiles:test'] = ok({
      ok: false,
      status: 401,
      latencyMs: 5,
      modelCount: 0,
      models: [],
      attempts: [],
      summary: 'Not connected: second answer.',
    });
    fireEvent.change(within(dialog).getByLabelText('Auth scheme'), { target: { value: 'x-api-key' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save profile' }));
    await settle();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Test connection' }));
    await settle();
    expect(within(dialog).getByRole('region', { name: 'Connection test' }).textContent).toContain(
      'Not connected: second answer.',
    );
  });
});
