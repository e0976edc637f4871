import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { Preset } from '../../../../shared/contract';

// Only the transport is faked (see test/fake-gateway.ts): the store and the components are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { PresetsTab } from './PresetsTab';
import { useAppStore } from '../../store';
import { answers, resetGateway } from '../../test/fake-gateway';

const preset: Preset = { id: 'p1', name: 'My long prompt', tags: [], protocol: 'messages', model: 'm', body: { model: 'm', messages: [] }, stream: true, createdAt: '', updatedAt: '' };
const diskFull = async () => ({ ok: false as const, error: { code: 'io_error', message: 'could not write presets.json (disk full)' } });
const settle = () => act(() => new Promise((r) => setTimeout(r, 20)));

/** The presets the core holds: delete and restore change it as the core would when they succeed. */
let stored: Preset[];

const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  stored = [preset];
  answers['presets:list'] = async () => ({ ok: true, value: { presets: stored } });
  answers['presets:delete'] = async () => {
    stored = [];
    return { ok: true, value: { deleted: preset } };
  };
  answers['presets:restore'] = async ({ preset: p }) => {
    stored = [p];
    return { ok: true, value: p };
  };
});
afterEach(cleanup);

describe('presets: delete and undo', () => {
  it('a delete the core refuses says why', async () => {
    answers['presets:delete'] = diskFull;
    render(<PresetsTab />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Delete My long prompt' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('could not write presets.json (disk full)');
    expect(screen.getByText('My long prompt')).toBeTruthy();
  });

  it('an Undo that fails says why and stays offered, and a retried Undo brings the preset back', async () => {
    render(<PresetsTab />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Delete My long prompt' }));
    await settle();
    expect(screen.queryByText('My long prompt')).toBeNull();

    answers['presets:restore'] = diskFull;
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('could not write presets.json (disk full)');

    answers['presets:restore'] = async ({ preset: p }) => {
      stored = [p];
      return { ok: true, value: p };
    };
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await settle();
    expect(screen.getByText('My long prompt')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });
});
