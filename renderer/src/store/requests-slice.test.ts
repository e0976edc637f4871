/**
 * The requests of a protocol tab through the store, as the composer uses it: the dot for unsent changes follows
 * edits of the request on view and a send; Bring and Branch open new tabs; every change is saved with the others.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../bridge', () => import('../test/fake-gateway'));

import { useAppStore } from './index';
import { DRAFT_SAVE_MS } from './draft-save';
import { answers, calls, resetGateway } from '../test/fake-gateway';

const pristine = useAppStore.getState();
afterEach(() => {
  vi.useRealTimers();
  useAppStore.setState(pristine, true);
  resetGateway();
});
const s = () => useAppStore.getState();
const tabs = () => s().requests.chat.tabs;

describe('requests slice', () => {
  it('an edit sets the dot on the request on view only; a run started clears it; a model filled in is no edit', () => {
    s().composerModelDefaulted('chat', 'gpt-sim-4o');
    expect(tabs()[0].unsent).toBe(false);
    s().requestOpened('chat');
    s().composerDraftTyped('chat', 'hello');
    expect(tabs().map((t) => t.unsent)).toEqual([false, true]);
    const before = s().requests;
    s().composerDraftTyped('chat', 'hello again');
    // Already marked: the list is not rebuilt on every keystroke.
    expect(s().requests).toBe(before);
    s().composerRunStarted('chat', 'run-1');
    expect(tabs().map((t) => t.unsent)).toEqual([false, false]);
  });

  it('Regenerate and tool results put in the body what was just sent: no dot after them', () => {
    s().composerBodyEdited('chat', { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    s().composerRunStarted('chat', 'run-1');
    s().composerRunStarted('chat', 'run-2');
    s().conversationRegenerated(
      'chat',
      { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      { at: 1, items: [{ runId: 'run-1' }, { runId: 'run-2' }] },
    );
    expect(tabs()[0].unsent).toBe(false);
    s().composerRunStarted('chat', 'run-3');
    s().composerToolResultsSent('chat', 'run-2', { model: 'm', messages: [{ role: 'tool', content: 'x' }] });
    expect(tabs()[0].unsent).toBe(false);
    s().composerDraftTyped('chat', 'and then');
    expect(tabs()[0].unsent).toBe(true);
  });

  it('a new request takes the model on view; each request keeps its own body, message and runs', () => {
    s().composerBodyEdited('chat', { model: 'gpt-sim-4o', messages: [{ role: 'user', content: 'first' }] });
    s().composerRunStarted('chat', 'run-1');
    s().requestOpened('chat');
    expect(s().composers.chat.body.model).toBe('gpt-sim-4o');
    expect(s().composers.chat.runIds).toEqual([]);
    expect(tabs().map((t) => t.name)).toEqual(['Request 1', 'Request 2']);
    s().requestSelected('chat', tabs()[0].id);
    expect(s().composers.chat.activeRunId).toBe('run-1');
    expect(s().composers.chat.body.messages).toEqual([{ role: 'user', content: 'first' }]);
  });

  it('Branch opens "<name> branch" with the body given, and leaves the request it came from as it was', () => {
    s().composerDraftTyped('messages', 'keep');
    s().requestRenamed('messages', s().requests.messages.activeId, 'Weather');
    s().conversationBranched('messages', { model: 'm', messages: [{ role: 'user', content: 'up to here' }] });
    expect(s().requests.messages.tabs.map((t) => t.name)).toEqual(['Weather', 'Weather branch']);
    expect(s().composers.messages.draft).toBe('');
    s().requestSelected('messages', s().requests.messages.tabs[0].id);
    expect(s().composers.messages.draft).toBe('keep');
  });

  it('a run that starts after the user switched requests joins the request Send was pressed on', () => {
    s().composerDraftTyped('chat', 'sent from the first');
    const first = s().requests.chat.activeId;
    s().requestOpened('chat');
    s().composerRunStarted('chat', 'run-late', first);
    expect(s().composers.chat.runIds).toEqual([]);
    expect(tabs()[0].unsent).toBe(false);
    s().requestSelected('chat', first);
    expect(s().composers.chat.activeRunId).toBe('run-late');
  });

  it('closing a request saves the requests left, once the kept ones were read', async () => {
    vi.useFakeTimers();
    answers['drafts:list'] = async () => ({ ok: true, value: { drafts: {} } });
    answers['drafts:save'] = async () => ({ ok: true, value: { savedAt: 'now' } });
    await s().draftsRequested();
    s().requestOpened('responses');
    s().requestClosed('responses', s().requests.responses.tabs[0].id);
    vi.advanceTimersByTime(DRAFT_SAVE_MS);
    const saves = calls.filter((c) => c.call === 'drafts:save').map((c) => c.input);
    expect(saves).toHaveLength(1);
    expect(saves[0]).toMatchObject({ protocol: 'responses', requests: [{ name: 'Request 2' }] });
  });
});
