import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';

type Body = Record<string, unknown>;
const start = vi.fn(async (_input: { body: Body }) => ({ ok: true as const, value: { runId: 'r1' } }));
// Only the transport is faked: the store, the picker and the Composer around it are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { Composer } from '../composer/Composer';
import { useAppStore } from '../../store';
import { answers, resetGateway } from '../../test/fake-gateway';

const pristine = useAppStore.getState();

/** The Messages tab on a profile whose /v1/models listed `ids`, with `model` in the body. */
function setup(ids: string[], model = 'old-model') {
  useAppStore.setState(pristine, true);
  useAppStore.setState((s) => ({
    profiles: { activeId: 'p1', profiles: [], keyStorages: [] },
    models: {
      p1: {
        profileId: 'p1',
        models: ids.map((id) => ({ id, family: 'openai' as const })),
        added: [],
        removed: [],
        pages: 1,
        fetchedAt: new Date().toISOString(),
      },
    },
    composers: { ...s.composers, messages: { ...s.composers.messages, body: { ...s.composers.messages.body, model } } },
  }));
  render(<Composer protocol="messages" />);
  const box = screen.getByRole('combobox', { name: 'Model' }) as HTMLInputElement;
  fireEvent.focus(box);
  return box;
}
const model = () => useAppStore.getState().composers.messages.body.model;

beforeEach(() => {
  resetGateway();
  answers['runs:start'] = (input) => start(input);
  start.mockClear();
});
afterEach(cleanup);

describe('model picker: Enter and leaving the box commit what the user means', () => {
  it('Enter on an id that is listed exactly takes that id, not a longer one listed before it', () => {
    const box = setup(['gpt-4o-mini', 'gpt-4o']);
    fireEvent.change(box, { target: { value: 'gpt-4o' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(model()).toBe('gpt-4o');
    expect(box.value).toBe('gpt-4o');
  });

  it('Enter on a fragment that only one listed model matches takes that model, not the fragment', () => {
    const box = setup(['claude-sonnet-4-5-20250929', 'gpt-4o']);
    fireEvent.change(box, { target: { value: 'sonnet' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(model()).toBe('claude-sonnet-4-5-20250929');
    expect(box.value).toBe('claude-sonnet-4-5-20250929');
    expect(screen.queryByRole('status', { name: 'Model not listed' })).toBeNull();
  });

  it('Enter on a fragment several models match keeps it as typed and says it is not listed', () => {
    const box = setup(['gpt-4o', 'gpt-4o-mini']);
    fireEvent.change(box, { target: { value: 'gpt-4' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(model()).toBe('gpt-4');
    expect(screen.getByRole('status', { name: 'Model not listed' }).textContent).toContain('“gpt-4” is not in');
  });

  it('an option highlighted with the arrow keys is the one Enter takes; Up past the first goes back to the typed id', () => {
    const box = setup(['gpt-4o', 'gpt-4o-mini', 'gpt-4.1']);
    fireEvent.change(box, { target: { value: 'gpt-4o' } });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(model()).toBe('gpt-4o-mini');

    fireEvent.change(box, { target: { value: 'gpt-4' } });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(model()).toBe('gpt-4');
  });

  it('leaving the box after typing an id sends that id: the box and Send agree', async () => {
    const box = setup(['gpt-4o']);
    fireEvent.change(box, { target: { value: 'my-custom-model' } });
    fireEvent.blur(box);
    expect(box.value).toBe('my-custom-model');
    // Not silently: the picker says the id matches no listed model before Send asks for it.
    expect(screen.getByRole('status', { name: 'Model not listed' }).textContent).toContain(
      '“my-custom-model” is not in this gateway’s models list',
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    });
    expect(start).toHaveBeenCalledTimes(1);
    expect(start.mock.calls[0][0].body.model).toBe('my-custom-model');
  });

  it('Escape keeps the id as typed, closes the list, and Send goes to it', async () => {
    const box = setup(['gpt-4o'], 'old-model');
    fireEvent.change(box, { target: { value: 'sim-fault-slow' } });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.value).toBe('sim-fault-slow');
    fireEvent.blur(box);
    expect(model()).toBe('sim-fault-slow');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    });
    expect(start.mock.calls[0][0].body.model).toBe('sim-fault-slow');
  });

  it('leaving an emptied box, or Escape on it, keeps the model that was there', () => {
    const box = setup(['gpt-4o'], 'kept-model');
    fireEvent.change(box, { target: { value: '  ' } });
    fireEvent.blur(box);
    expect(model()).toBe('kept-model');
    expect(box.value).toBe('kept-model');
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: '' } });
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(model()).toBe('kept-model');
    expect(box.value).toBe('kept-model');
  });
});

describe('model picker: how old the list is', () => {
  afterEach(() => vi.useRealTimers());

  it('moves on while the picker is shown', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    setup(['gpt-4o']);
    const fetched = () => screen.getByLabelText('Models fetched').textContent;
    expect(fetched()).toBe('1 model · fetched just now');
    act(() => {
      vi.advanceTimersByTime(30_000);
    });
    expect(fetched()).toBe('1 model · fetched 30 s ago');
    act(() => {
      vi.advanceTimersByTime(5 * 60_000);
    });
    expect(fetched()).toBe('1 model · fetched 6 min ago');
  });
});

describe('model picker: a model picked while the user is in the empty box', () => {
  it('does not appear under their cursor; what they type is the id, and leaving it empty keeps the picked one', () => {
    const box = setup(['claude-sim-sonnet', 'sim-fault-slow'], '');
    act(() => {
      useAppStore.setState((s) => ({
        composers: {
          ...s.composers,
          messages: { ...s.composers.messages, body: { ...s.composers.messages.body, model: 'claude-sim-sonnet' } },
        },
      }));
    });
    expect(box.value).toBe('');
    fireEvent.change(box, { target: { value: 'sim-fault-slow' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(model()).toBe('sim-fault-slow');
  });

  it('an emptied box left alone keeps the model picked meanwhile', () => {
    const box = setup(['claude-sim-sonnet'], '');
    act(() => {
      useAppStore.setState((s) => ({
        composers: {
          ...s.composers,
          messages: { ...s.composers.messages, body: { ...s.composers.messages.body, model: 'claude-sim-sonnet' } },
        },
      }));
    });
    fireEvent.blur(box);
    expect(model()).toBe('claude-sim-sonnet');
    expect(box.value).toBe('claude-sim-sonnet');
  });
});

describe('model picker: what the chosen model holds', () => {
  it('shows the context window and output limit the core found, and where from', async () => {
    const asked: string[] = [];
    answers['models:limits'] = async ({ model: id }) => {
      asked.push(id);
      return id === 'claude-x'
        ? { ok: true, value: { model: id, contextWindow: 200_000, maxOutput: 64_000, source: 'gateway' } }
        : { ok: true, value: { model: id } };
    };
    setup(['claude-x', 'other'], 'claude-x');
    const line = await screen.findByLabelText(/context/);
    expect(line.textContent).toBe('context 200K · output 64K (gateway)');
    act(() =>
      useAppStore.setState((s) => ({
        composers: {
          ...s.composers,
          messages: { ...s.composers.messages, body: { ...s.composers.messages.body, model: 'other' } },
        },
      })),
    );
    await vi.waitFor(() => expect(asked).toContain('other'));
    // A model nobody states limits for shows none: no figure from a guess.
    expect(screen.queryByLabelText(/context/)).toBeNull();
  });
});
