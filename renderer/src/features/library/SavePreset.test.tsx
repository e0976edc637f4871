import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
// Only the transport is faked (see test/fake-gateway.ts): the store and the form are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));
import { SavePreset } from './SavePreset';
import { answers, calls, resetGateway, storedPreset } from '../../test/fake-gateway';

const settle = () => act(() => new Promise((r) => setTimeout(r, 20)));
const taken = 'A preset named "Daily" already exists.';

beforeEach(() => {
  resetGateway();
  answers['presets:list'] = async () => ({ ok: true, value: { presets: [] } });
  answers['presets:save'] = async (input) =>
    input.replace
      ? { ok: true, value: storedPreset({ ...input, id: 'p1', createdAt: '', updatedAt: '' }) }
      : { ok: false, error: { code: 'name_taken', message: taken, fields: { name: taken } } };
});
afterEach(cleanup);

it('a taken name offers Replace, which saves what the form holds then, and goes away when the name changes', async () => {
  render(<SavePreset protocol="messages" />);
  fireEvent.click(screen.getByRole('button', { name: 'Save preset' }));
  fireEvent.change(screen.getByLabelText('Preset name'), { target: { value: 'Daily' } });
  fireEvent.change(screen.getByLabelText('Preset tags'), { target: { value: 'old' } });
  fireEvent.submit(screen.getByRole('form', { name: 'Save preset' }));
  await settle();
  expect(screen.getByRole('alert').textContent).toBe(taken);

  // Told the name is taken, the user fixes the tags and notes before choosing Replace.
  fireEvent.change(screen.getByLabelText('Preset tags'), { target: { value: 'new' } });
  fireEvent.change(screen.getByLabelText('Preset notes'), { target: { value: 'edited notes' } });
  fireEvent.click(screen.getByRole('button', { name: 'Replace it' }));
  await settle();
  const saves = calls
    .filter((c) => c.call === 'presets:save')
    .map((c) => c.input as { tags: string[]; notes?: string; replace?: boolean });
  expect(saves[1]).toMatchObject({ tags: ['new'], notes: 'edited notes', replace: true });
  expect(screen.getByRole('status').textContent).toBe('Saved “Daily”.');

  fireEvent.click(screen.getByRole('button', { name: 'Save preset' }));
  fireEvent.change(screen.getByLabelText('Preset name'), { target: { value: 'Daily' } });
  fireEvent.submit(screen.getByRole('form', { name: 'Save preset' }));
  await settle();
  fireEvent.change(screen.getByLabelText('Preset name'), { target: { value: 'Weekly' } });
  expect(screen.queryByRole('button', { name: 'Replace it' })).toBeNull();
});

it('a name refused for another reason (too long) is shown without offering Replace, which could only fail again', async () => {
  const tooLong = 'name: Too big: expected string to have <=120 characters';
  answers['presets:save'] = async () => ({
    ok: false,
    error: { code: 'invalid_input', message: tooLong, fields: { name: tooLong } },
  });
  render(<SavePreset protocol="messages" />);
  fireEvent.click(screen.getByRole('button', { name: 'Save preset' }));
  fireEvent.change(screen.getByLabelText('Preset name'), { target: { value: 'x'.repeat(200) } });
  fireEvent.submit(screen.getByRole('form', { name: 'Save preset' }));
  await settle();
  expect(screen.getByRole('alert').textContent).toBe(tooLong);
  expect(screen.queryByRole('button', { name: 'Replace it' })).toBeNull();
});
