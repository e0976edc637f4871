import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';

// Only the transport is faked (see test/fake-gateway.ts): the store and the form are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { useAppStore } from '../../store';
import { answers, calls, resetGateway } from '../../test/fake-gateway';
import { LoadForm } from './LoadForm';

const initial = useAppStore.getState();

beforeEach(() => {
  resetGateway();
  useAppStore.setState(initial, true);
  useAppStore.setState({
    profiles: {
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
    },
  });
  answers['load:start'] = async () => ({ ok: true, value: { loadId: 'load_1' } });
});
afterEach(cleanup);

const start = () => screen.getByRole('button', { name: 'Start' });
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const starts = () => calls.flatMap((c) => (c.call === 'load:start' ? [c.input] : []));

describe('the Shape of a load run', () => {
  it('offers N × C, Ramp, Stages and Soak, and keeps N × C as it was', async () => {
    render(<LoadForm />);
    const shape = screen.getByRole('combobox', { name: 'Shape' });
    expect(
      within(shape)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['N × C', 'Ramp', 'Stages', 'Soak']);
    expect(screen.getByLabelText('Concurrency')).toBeTruthy();
    await act(async () => fireEvent.click(start()));
    expect(starts()[0]).toMatchObject({ requests: 50, concurrency: 8, shape: { kind: 'fixed' } });
  });

  it('edits stages as a list, says what is wrong with a field, and starts the stages it shows', async () => {
    render(<LoadForm />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Shape' }), { target: { value: 'stages' } });
    expect(screen.queryByLabelText('Concurrency')).toBeNull();
    const stages = () => within(screen.getByRole('list', { name: 'Stages' })).getAllByRole('listitem');
    expect(stages()).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Add stage' }));
    expect(stages()).toHaveLength(4);
    fireEvent.click(screen.getByRole('button', { name: 'Remove stage 4' }));
    expect(stages()).toHaveLength(3);

    fireEvent.change(screen.getByLabelText('Stage 2 kind'), { target: { value: 'rate' } });
    type('Stage 2 rate (req/s)', '2000');
    type('Stage 3 duration (s)', '0');
    expect(stages()[1].textContent).toContain('a number above 0 and at most 1000');
    expect(stages()[2].textContent).toContain('seconds above 0, at most 3,600');
    expect((start() as HTMLButtonElement).disabled).toBe(true);

    type('Stage 2 rate (req/s)', '20');
    type('Stage 3 duration (s)', '3590');
    expect(screen.getByText('The stages may last 3600 s in all.')).toBeTruthy();
    type('Stage 3 duration (s)', '5');
    fireEvent.change(screen.getByLabelText('Arrivals'), { target: { value: 'poisson' } });
    await act(async () => fireEvent.click(start()));
    expect(starts()[0]).toMatchObject({
      // Open loop is capped at 64 in flight: the record's Concurrency says so.
      concurrency: 64,
      shape: {
        kind: 'stages',
        arrival: 'poisson',
        stages: [
          { durationS: 10, concurrency: 4 },
          { durationS: 10, ratePerSec: 20 },
          { durationS: 5, concurrency: 4 },
        ],
      },
    });
  });

  it('asks a ramp for whole numbers of requests at once, and a soak for a rate', async () => {
    render(<LoadForm />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Shape' }), { target: { value: 'ramp' } });
    type('From (at once)', '0');
    expect(screen.getByText('a whole number from 1 to 64')).toBeTruthy();
    type('From (at once)', '2');
    type('To (at once)', '12');
    type('Over (s)', '4');
    await act(async () => fireEvent.click(start()));
    expect(starts()[0]).toMatchObject({ concurrency: 12, shape: { kind: 'ramp', from: 2, to: 12, durationS: 4 } });

    fireEvent.change(screen.getByRole('combobox', { name: 'Shape' }), { target: { value: 'soak' } });
    type('Rate (req/s)', '');
    expect(screen.getByText('a number above 0 and at most 1000')).toBeTruthy();
    expect((start() as HTMLButtonElement).disabled).toBe(true);
  });
});
