import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { Preset } from '../../../../shared/contract';
import type { Transcript } from '../../../../shared/protocols/types';

// Only the transport is faked (see test/fake-gateway.ts): the store and the components are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { PresetsTab } from './PresetsTab';
import { Composer } from '../composer/Composer';
import { useAppStore } from '../../store';
import { answers, calls, resetGateway, storedPreset } from '../../test/fake-gateway';
import { completedRun } from '../../test/runs';

const preset: Preset = {
  id: 'p1',
  name: 'My long prompt',
  tags: [],
  protocol: 'messages',
  model: 'm',
  body: { model: 'm', messages: [] },
  stream: true,
  createdAt: '',
  updatedAt: '',
};
const diskFull = async () => ({
  ok: false as const,
  error: { code: 'io_error', message: 'could not write presets.json (disk full)' },
});
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
    stored = [storedPreset(p)];
    return { ok: true, value: storedPreset(p) };
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
      stored = [storedPreset(p)];
      return { ok: true, value: storedPreset(p) };
    };
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await settle();
    expect(screen.getByText('My long prompt')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });
});

describe('presets: undo after several deletions', () => {
  it('deleting a second preset keeps the first one undoable: each Undo brings back the latest still deleted', async () => {
    const other: Preset = { ...preset, id: 'p2', name: 'Short prompt' };
    stored = [preset, other];
    answers['presets:delete'] = async ({ id }) => {
      const gone = stored.find((p) => p.id === id)!;
      stored = stored.filter((p) => p.id !== id);
      return { ok: true, value: { deleted: gone } };
    };
    answers['presets:restore'] = async ({ preset: p }) => {
      stored = [...stored, storedPreset(p)];
      return { ok: true, value: storedPreset(p) };
    };
    render(<PresetsTab />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Delete My long prompt' }));
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Delete Short prompt' }));
    await settle();
    expect(screen.getByText(/Deleted “Short prompt” \(and 1 before it\)/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await settle();
    expect(screen.getByRole('button', { name: 'Load Short prompt' })).toBeTruthy();
    expect(screen.getByText(/Deleted “My long prompt”\./)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await settle();
    expect(screen.getByRole('button', { name: 'Load My long prompt' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it('a deletion stays undoable after leaving the Presets tab and coming back', async () => {
    const first = render(<PresetsTab />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Delete My long prompt' }));
    await settle();
    first.unmount();

    render(<PresetsTab />);
    await settle();
    expect(screen.queryByText('My long prompt')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await settle();
    expect(screen.getByRole('button', { name: 'Load My long prompt' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });
});

describe('presets: rename', () => {
  it('a name another preset has is shown next to the field, which keeps what was typed; a free name then goes through', async () => {
    const clash = 'A preset named "Short prompt" already exists.';
    answers['presets:rename'] = async ({ id, name }) =>
      name.trim().toLowerCase() === 'short prompt'
        ? { ok: false, error: { code: 'name_taken', message: clash, fields: { name: clash } } }
        : { ok: true, value: { ...preset, id, name } };
    render(<PresetsTab />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    const field = screen.getByRole('textbox', { name: 'New name' }) as HTMLInputElement;
    fireEvent.change(field, { target: { value: 'short PROMPT ' } });
    fireEvent.submit(field);
    await settle();
    const shown = screen.getByRole('textbox', { name: 'New name' }) as HTMLInputElement;
    expect(shown.value).toBe('short PROMPT ');
    expect(shown.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(shown.getAttribute('aria-describedby')!)?.textContent).toBe(clash);

    fireEvent.change(shown, { target: { value: 'Long prompt' } });
    fireEvent.submit(shown);
    await settle();
    expect(screen.queryByRole('textbox', { name: 'New name' })).toBeNull();
    expect(calls.filter((c) => c.call === 'presets:rename').map((c) => c.input.name)).toEqual([
      'short PROMPT ',
      'Long prompt',
    ]);
  });
});

describe('presets: export', () => {
  it('an export the core refuses (too large for import) says why instead of doing nothing', async () => {
    answers['presets:export'] = async () => ({
      ok: false,
      error: { code: 'too_large', message: 'These 9 presets make a 36.0 MB file … export them in smaller groups.' },
    });
    render(<PresetsTab />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Export all' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('Could not export: These 9 presets make a 36.0 MB file');
  });
});

describe('presets: Load', () => {
  it('detaches the composer from its last run: no tool results for that run, and no warnings accepted before go out with the preset', async () => {
    const toolCall: Transcript = {
      blocks: [{ kind: 'tool_call', id: 'toolu_old', name: 'get_weather', argsText: '{}', args: {}, complete: true }],
      usage: {},
    };
    useAppStore.setState((s) => ({
      profiles: { activeId: 'demo', profiles: [], keyStorages: [] },
      composers: {
        ...s.composers,
        messages: {
          ...s.composers.messages,
          body: { ...s.composers.messages.body, model: 'm' },
          activeRunId: 'r1',
          runIds: ['r1'],
          warnings: ['Not proven for m: tool calls.'],
        },
      },
      runs: { r1: completedRun('r1', toolCall) },
    }));
    answers['runs:start'] = async () => ({ ok: true, value: { runId: 'r2' } });
    const question = { role: 'user', content: 'hi' };
    stored = [{ ...preset, body: { model: 'm', messages: [question] } }];
    render(<PresetsTab />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Load My long prompt' }));
    cleanup();
    render(<Composer protocol="messages" />);
    expect(screen.queryByRole('button', { name: 'Send tool results' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    const sent = calls.find((c) => c.call === 'runs:start')!.input;
    expect(sent.body).toEqual({ model: 'm', messages: [question], stream: true });
    expect(sent.warnings).toEqual([]);
  });
});

describe('presets: a deleted preset that comes back', () => {
  it('imported again, it is no longer offered for Undo: no duplicate "(2)" can be made', async () => {
    answers['presets:import'] = async () => {
      stored = [preset];
      return { ok: true, value: { imported: 1, replaced: 0, conflicts: [] } };
    };
    render(<PresetsTab />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Delete My long prompt' }));
    await settle();
    expect(screen.getByRole('button', { name: 'Undo' })).toBeTruthy();
    const file = new File([JSON.stringify({ presets: [preset] })], 'p.json', { type: 'application/json' });
    const input = screen.getByLabelText('Import presets file');
    await act(async () => fireEvent.change(input, { target: { files: [file] } }));
    await settle();
    expect(screen.getByRole('button', { name: 'Load My long prompt' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
    expect(calls.filter((c) => c.call === 'presets:restore')).toEqual([]);
  });
});

describe('presets: import', () => {
  const importFile = async (text: string) => {
    const input = screen.getByLabelText('Import presets file');
    await act(async () => fireEvent.change(input, { target: { files: [new File([text], 'p.json')] } }));
    await settle();
  };

  it('the "already exist… Keep both / Replace" question goes when another file is imported', async () => {
    let next: 'conflict' | 'foreign' | 'clean' = 'conflict';
    answers['presets:import'] = async () =>
      next === 'conflict'
        ? { ok: true, value: { imported: 0, replaced: 0, conflicts: ['My long prompt'] } }
        : next === 'foreign'
          ? { ok: false, error: { code: 'invalid_input', message: 'This looks like a Postman collection (v2.1.0).' } }
          : { ok: true, value: { imported: 1, replaced: 0, conflicts: [] } };
    render(<PresetsTab />);
    await settle();
    await importFile('{"first":1}');
    const bar = screen.getByRole('alertdialog', { name: 'Import conflicts' });
    expect(bar.textContent).toContain('A preset named My long prompt already exists.');
    next = 'foreign';
    await importFile('{"second":1}');
    expect(screen.queryByRole('alertdialog', { name: 'Import conflicts' })).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('This looks like a Postman collection (v2.1.0).');
    next = 'conflict';
    await importFile('{"third":1}');
    next = 'clean';
    await importFile('{"fourth":1}');
    expect(screen.queryByRole('alertdialog', { name: 'Import conflicts' })).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Imported 1 preset.');
  });
});
