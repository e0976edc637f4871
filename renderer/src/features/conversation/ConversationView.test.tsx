import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ProtocolId, Transcript } from '../../../../shared/protocols/types';
import type { CallInput } from '../../../../shared/contract';

type Body = Record<string, unknown>;
let nextRun = 1;
const start = vi.fn(async (_input: CallInput<'runs:start'>) => ({
  ok: true as const,
  value: { runId: `r${++nextRun}` },
}));
// Only the transport is faked: the store, the Composer and the Conversation region are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { Composer } from '../composer/Composer';
import { useAppStore } from '../../store';
import { completedRun } from '../../test/runs';
import { answers, resetGateway } from '../../test/fake-gateway';
import { ROUNDS } from '../../test/conversation-rounds';

const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  nextRun = 1;
  answers['runs:start'] = (input) => start(input);
  start.mockClear();
});
afterEach(cleanup);

const composer = (p: ProtocolId) => useAppStore.getState().composers[p];
const region = () => screen.getByRole('region', { name: 'Conversation' });
const inRegion = () => within(region());
const sentBody = (k = -1) => start.mock.calls.at(k)![0].body as Body;
const text = (t: string): Transcript => ({ blocks: [{ kind: 'text', text: t }], usage: {} });

/** The tab holds `body`, and `runId` answered it with `reply`, as the core reports a finished run. */
function answered(protocol: ProtocolId, body: Body, runId: string, reply: Transcript) {
  const run = completedRun(runId, reply);
  run.ledger = {
    runId,
    protocol,
    profileId: 'p1',
    profileName: 'Demo',
    stream: true,
    method: 'POST',
    url: 'http://x/v1',
    headers: {},
    body: JSON.stringify(body),
    bodyBytes: 1,
    startedAt: '',
    warnings: [],
  };
  useAppStore.setState((s) => ({
    profiles: { activeId: 'p1', profiles: [], keyStorages: [] },
    composers: { ...s.composers, [protocol]: { ...s.composers[protocol], body, activeRunId: runId, runIds: [runId] } },
    runs: { ...s.runs, [runId]: run },
  }));
}

/** A run the store was told of, finished with `reply` (what the core's updates would do). */
function finish(runId: string, protocol: ProtocolId, reply: Transcript) {
  act(() => answered(protocol, sentBody(), runId, reply));
}

describe('the Conversation region', () => {
  for (const protocol of ['messages', 'chat', 'responses'] as const) {
    it(`${protocol}: shows every turn as a message, with the call's arguments, the result and the image`, () => {
      answered(protocol, structuredClone(ROUNDS[protocol]) as unknown as Body, 'r1', text('Anything else?'));
      render(<Composer protocol={protocol} />);
      const articles = inRegion().getAllByRole('article');
      expect(articles.map((a) => a.getAttribute('aria-label'))).toEqual([
        'Message 1, user',
        'Message 2, assistant',
        'Message 3, tool results',
        'Message 4, assistant',
        'Message 5, assistant',
      ]);
      expect(within(articles[0]).getByRole('img', { name: 'Message 1 image 1' })).toBeTruthy();
      expect(articles[1].textContent).toContain('get_weather');
      expect(articles[1].textContent).toContain('Paris');
      expect(articles[2].textContent).toContain('18°C');
      // The reply of the run, after the turns it answered.
      expect(articles[4].textContent).toContain('Anything else?');
    });
  }

  it('Send with new words carries the reply shown, then the words: what is sent is what the region shows', async () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 10 };
    answered('messages', body, 'r1', text('Hello! How can I help?'));
    render(<Composer protocol="messages" />);
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Tell me a joke' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(sentBody().messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello! How can I help?' }] },
      { role: 'user', content: 'Tell me a joke' },
    ]);
    expect(composer('messages').body).toEqual(sentBody());
  });

  it('Edit changes the message in place, sets the later turns aside, and Send goes on from it', async () => {
    answered('chat', structuredClone(ROUNDS.chat) as unknown as Body, 'r1', text('Anything else?'));
    render(<Composer protocol="chat" />);
    fireEvent.click(inRegion().getByRole('button', { name: 'Edit message 1' }));
    fireEvent.change(inRegion().getByRole('textbox', { name: 'Message 1 text' }), {
      target: { value: 'Only the picture.' },
    });
    fireEvent.click(inRegion().getByRole('button', { name: 'Save' }));
    expect(inRegion().getAllByRole('article')).toHaveLength(1);
    expect(screen.getByRole('status', { name: 'Last change' }).textContent).toContain('4 later messages set aside');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    const sent = sentBody().messages as Body[];
    expect(sent).toHaveLength(2);
    expect(sent[1].content).toEqual([
      { type: 'text', text: 'Only the picture.' },
      expect.objectContaining({ type: 'image_url' }),
    ]);
  });

  it('Undo after Edit brings the later turns back', () => {
    answered('messages', structuredClone(ROUNDS.messages) as unknown as Body, 'r1', text('ok'));
    render(<Composer protocol="messages" />);
    fireEvent.click(inRegion().getByRole('button', { name: 'Edit message 4' }));
    fireEvent.change(inRegion().getByRole('textbox', { name: 'Message 4 text' }), { target: { value: 'Warm.' } });
    fireEvent.click(inRegion().getByRole('button', { name: 'Save' }));
    expect(inRegion().getAllByRole('article')).toHaveLength(4);
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(composer('messages').body).toEqual(ROUNDS.messages);
    expect(inRegion().getAllByRole('article')).toHaveLength(5);
  });

  it('Regenerate sends the same request again and keeps both replies: "2 of 2", Previous shows the first', async () => {
    const body = { model: 'm', input: [{ role: 'user', content: 'Name a colour' }] };
    answered('responses', body, 'r1', text('Blue'));
    render(<Composer protocol="responses" />);
    await act(async () => fireEvent.click(inRegion().getByRole('button', { name: 'Regenerate message 2' })));
    expect(sentBody()).toEqual(body);
    finish('r2', 'responses', text('Green'));
    expect(inRegion().getByRole('group', { name: 'Replies' }).textContent).toContain('2 of 2');
    expect(region().textContent).toContain('Green');
    fireEvent.click(inRegion().getByRole('button', { name: 'Previous reply' }));
    expect(inRegion().getByRole('group', { name: 'Replies' }).textContent).toContain('1 of 2');
    expect(region().textContent).toContain('Blue');
    expect(region().textContent).not.toContain('Green');
    // The reply shown is the one the conversation goes on with.
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Why?' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(sentBody().input).toEqual([
      { role: 'user', content: 'Name a colour' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Blue' }] },
      { role: 'user', content: 'Why?' },
    ]);
  });

  it('Regenerate on a reply already in the body takes it out, sends the turns before it, and keeps it as "1 of 2"', async () => {
    answered('messages', structuredClone(ROUNDS.messages) as unknown as Body, 'r1', text('unused'));
    useAppStore.setState((s) => ({
      composers: { ...s.composers, messages: { ...s.composers.messages, continuedRunId: 'r1' } },
    }));
    render(<Composer protocol="messages" />);
    await act(async () => fireEvent.click(inRegion().getByRole('button', { name: 'Regenerate message 4' })));
    expect(sentBody().messages).toEqual(ROUNDS.messages.messages.slice(0, 3));
    finish('r2', 'messages', text('Still 18°C.'));
    expect(inRegion().getByRole('group', { name: 'Replies' }).textContent).toContain('2 of 2');
    fireEvent.click(inRegion().getByRole('button', { name: 'Previous reply' }));
    expect(composer('messages').body).toEqual(ROUNDS.messages);
    fireEvent.click(inRegion().getByRole('button', { name: 'Next reply' }));
    expect(region().textContent).toContain('Still 18°C.');
  });

  it('Branch opens a new request tab with the conversation up to the message; the old request stays as it was', () => {
    answered('chat', structuredClone(ROUNDS.chat) as unknown as Body, 'r1', text('Anything else?'));
    render(<Composer protocol="chat" />);
    fireEvent.click(inRegion().getByRole('button', { name: 'Branch from message 2' }));
    expect(inRegion().getAllByRole('article')).toHaveLength(2);
    expect((composer('chat').body.messages as Body[])[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(composer('chat').activeRunId).toBeUndefined();
    const { tabs } = useAppStore.getState().requests.chat;
    expect(tabs.map((t) => t.name)).toEqual(['Request 1', 'Request 1 branch']);
    act(() => useAppStore.getState().requestSelected('chat', tabs[0].id));
    expect(composer('chat').body).toEqual(ROUNDS.chat);
    expect(composer('chat').activeRunId).toBe('r1');
  });

  it('Branch after the reply (a turn added since) keeps the reply at its place in the new draft', () => {
    const rounds = structuredClone(ROUNDS.messages) as unknown as Body;
    answered('messages', rounds, 'r1', text('Anything else?'));
    const added = { role: 'user', content: 'One more.' };
    useAppStore
      .getState()
      .composerBodyEdited('messages', { ...rounds, messages: [...(rounds.messages as Body[]), added] });
    render(<Composer protocol="messages" />);
    fireEvent.click(inRegion().getByRole('button', { name: 'Branch from message 6' }));
    expect((composer('messages').body.messages as Body[]).slice(-2)).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'Anything else?' }] },
      added,
    ]);
  });

  it('Copy puts the message on the clipboard', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    answered('chat', structuredClone(ROUNDS.chat) as unknown as Body, 'r1', text('Anything else?'));
    render(<Composer protocol="chat" />);
    await act(async () => fireEvent.click(inRegion().getByRole('button', { name: 'Copy message 2' })));
    expect(writeText).toHaveBeenLastCalledWith('A cat. Checking the weather.\n\nget_weather({"city":"Paris"})');
    await act(async () => fireEvent.click(inRegion().getByRole('button', { name: 'Copy message 5' })));
    expect(writeText).toHaveBeenLastCalledWith('Anything else?');
  });

  it('the form, the JSON and the region agree: a turn typed in the form shows in the region at once', () => {
    render(<Composer protocol="messages" />);
    fireEvent.change(screen.getByLabelText('Turn 1 text'), { target: { value: 'Changed in the form' } });
    expect(inRegion().getByRole('article', { name: 'Message 1, user' }).textContent).toContain('Changed in the form');
  });
});
