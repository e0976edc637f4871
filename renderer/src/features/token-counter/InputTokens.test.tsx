import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';

type Body = Record<string, unknown>;
type Msg = { role: string; content: unknown };
interface CountInput {
  body: Body;
  breakdown?: boolean;
}
/** A stand-in gateway count: one "token" per character of each message, and a per-turn breakdown when asked. */
const tokens = (m: Msg) => JSON.stringify(m.content).length;
type CountAnswer = {
  ok: true;
  value: {
    inputTokens: number;
    source: 'gateway' | 'estimate';
    label: string;
    fallbackReason?: string;
    breakdown?: { label: string; tokens: number }[];
  };
};
const count = vi.fn(async (input: CountInput): Promise<CountAnswer> => {
  const messages = (input.body.messages ?? []) as Msg[];
  return {
    ok: true as const,
    value: {
      inputTokens: messages.reduce((a, m) => a + tokens(m), 0),
      source: 'gateway',
      label: 'gateway count',
      breakdown: input.breakdown
        ? messages.map((m, i) => ({ label: `turn ${i + 1} (${m.role})`, tokens: tokens(m) }))
        : undefined,
    },
  };
});
const start = vi.fn(async (_input: { body: Body }) => ({ ok: true as const, value: { runId: 'r1' } }));
// Only the transport is faked: the store, the Composer and the counter are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { Composer } from '../composer/Composer';
import { useAppStore } from '../../store';
import { answers, resetGateway } from '../../test/fake-gateway';
import { completedRun } from '../../test/runs';

const pristine = useAppStore.getState();
beforeEach(() => {
  resetGateway();
  answers['runs:start'] = (input: { body: Body }) => start(input);
  answers['runs:cancel'] = async () => ({ ok: true, value: { cancelled: true } });
  answers['tokens:count'] = (input: CountInput) => count(input);
  useAppStore.setState(pristine, true);
  useAppStore.setState((s) => ({
    profiles: { activeId: 'p1', profiles: [], keyStorages: [] },
    composers: {
      ...s.composers,
      messages: {
        ...s.composers.messages,
        body: { model: 'claude-sim-sonnet', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] },
      },
    },
  }));
  count.mockClear();
  start.mockClear();
});
afterEach(cleanup);

const status = () => screen.getByRole('status', { name: 'Input tokens' }).textContent ?? '';
const lastCounted = () => count.mock.calls.at(-1)![0].body;

describe('Input tokens counts what Send would send', () => {
  it('includes the text in the "Message" box, and the body counted is the body Send sends', async () => {
    render(<Composer protocol="messages" />);
    await waitFor(() => expect(status()).toBe('Input tokens: 7 · gateway count'));
    const draft = 'what does the next turn cost?';
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: draft } });
    // "hello" (7) plus the quoted draft (31).
    await waitFor(() => expect(status()).toBe('Input tokens: 38 · gateway count'));
    expect((lastCounted().messages as Msg[]).at(-1)).toEqual({ role: 'user', content: draft });

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    });
    expect(start).toHaveBeenCalledTimes(1);
    expect(start.mock.calls[0][0].body).toEqual(lastCounted());
  });
});

describe('the token breakdown follows the body', () => {
  it('after an edit it shows the new turns, never the breakdown of the body before', async () => {
    render(<Composer protocol="messages" />);
    await waitFor(() => expect(status()).toContain('7 · gateway count'));
    fireEvent.click(screen.getByRole('button', { name: 'Breakdown' }));
    const list = () => screen.queryByRole('list', { name: 'Token breakdown' });
    await waitFor(() => expect(list()?.textContent).toBe('turn 1 (user) 7'));

    const b = useAppStore.getState().composers.messages.body;
    act(() =>
      useAppStore.getState().composerBodyEdited('messages', {
        ...b,
        messages: [
          ...(b.messages as Msg[]),
          { role: 'assistant', content: 'x'.repeat(50) },
          { role: 'user', content: 'more' },
        ],
      }),
    );
    // The old breakdown is gone at once, before the new count arrives.
    expect(list()).toBeNull();
    await waitFor(() => expect(list()?.textContent).toBe('turn 1 (user) 7turn 2 (assistant) 52turn 3 (user) 6'));
    expect(status()).toContain('65 · gateway count');

    // Typing the next turn is an edit of what is counted too.
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'and this' } });
    await waitFor(() => expect(list()?.textContent).toContain('turn 4 (user) 10'));
  });
});

describe('why a count is an estimate', () => {
  it('is said for the count shown, and not carried over while the next body is being counted', async () => {
    count.mockImplementationOnce(async () => ({
      ok: true as const,
      value: {
        inputTokens: 5,
        source: 'estimate',
        label: 'estimate',
        fallbackReason: 'count_tokens answered 404: model: (none) does not exist',
      },
    }));
    render(<Composer protocol="messages" />);
    await waitFor(() =>
      expect(screen.getByText('(count_tokens answered 404: model: (none) does not exist)')).toBeTruthy(),
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'next' } });
    expect(status()).toContain('5 · estimate …');
    expect(screen.queryByText(/count_tokens answered 404/)).toBeNull();
    await waitFor(() => expect(status()).toBe('Input tokens: 13 · gateway count'));
    expect(screen.queryByText(/count_tokens answered 404/)).toBeNull();
  });
});

describe('sent vs reported', () => {
  it('compares the usage with the body the run went out with (its ledger), not the body counted before Send', async () => {
    // After "Send tool results" the run's body holds the tool turns; the form was counted before they were added.
    const sentBody = {
      model: 'claude-sim-sonnet',
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: 'calls get_weather' },
        { role: 'user', content: '42' },
      ],
    };
    const reported = (sentBody.messages as Msg[]).reduce((a, m) => a + tokens(m), 0);
    const run = completedRun('r1', { blocks: [{ kind: 'text', text: 'ok' }], usage: {} });
    useAppStore.setState((s) => ({
      composers: { ...s.composers, messages: { ...s.composers.messages, activeRunId: 'r1', runIds: ['r1'] } },
      runs: {
        r1: {
          ...run,
          ledger: {
            runId: 'r1',
            protocol: 'messages',
            profileId: 'p1',
            profileName: 'P',
            stream: true,
            method: 'POST',
            url: 'u',
            headers: {},
            body: JSON.stringify(sentBody),
            bodyBytes: 1,
            startedAt: '',
            warnings: [],
          },
          result: { ...run.result!, metrics: { ...run.result!.metrics, usage: { inputTotal: reported } } },
        },
      },
    }));
    render(<Composer protocol="messages" />);
    await waitFor(() =>
      expect(screen.getByLabelText('Count vs usage').textContent).toBe(
        ` · last run: sent ${reported}, gateway reported ${reported} (+0)`,
      ),
    );
    expect(count.mock.calls.some(([input]) => JSON.stringify(input.body) === JSON.stringify(sentBody))).toBe(true);
  });
});

describe('before a model is chosen', () => {
  it('asks the gateway nothing and says to pick a model', async () => {
    useAppStore.setState((s) => ({
      composers: {
        ...s.composers,
        messages: { ...s.composers.messages, body: { max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] } },
      },
    }));
    render(<Composer protocol="messages" />);
    await act(() => new Promise((r) => setTimeout(r, 500)));
    expect(status()).toBe('Input tokens: pick a model to count');
    expect(count).not.toHaveBeenCalled();
  });
});

describe('Input tokens warns before a request that cannot fit', () => {
  it('says so once input plus max tokens is over the window, and how far to lower max tokens', async () => {
    answers['models:limits'] = async ({ model }) => ({
      ok: true,
      value: { model, contextWindow: 100, maxOutput: 4_096, source: 'catalog' },
    });
    render(<Composer protocol="messages" />);
    await waitFor(() => expect(status()).toContain('7 · gateway count'));
    expect(screen.queryByRole('alert', { name: 'Context warning' })).toBeNull();
    act(() =>
      useAppStore.setState((s) => ({
        composers: {
          ...s.composers,
          messages: { ...s.composers.messages, body: { ...s.composers.messages.body, max_tokens: 99 } },
        },
      })),
    );
    const warning = await screen.findByRole('alert', { name: 'Context warning' }, { timeout: 3_000 });
    expect(warning.textContent).toContain('7 input tokens plus 99 reserved');
    expect(warning.textContent).toContain('Lower max tokens to 93');
  });
});
