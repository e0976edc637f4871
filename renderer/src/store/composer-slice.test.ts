import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../bridge', () => import('../test/fake-gateway'));

import { useAppStore } from './index';
import { DRAFT_SAVE_MS, withToolResults } from './composer-slice';
import { answers, calls, resetGateway } from '../test/fake-gateway';

describe('composer slice: JSON editor ↔ body', () => {
  it('takes a typed body that parses, unknown fields included, and keeps the last valid body while it does not', () => {
    const s = useAppStore.getState();
    s.composerJsonTyped('chat', '{"model":"x","messages":[],"gateway_hint":{"route":"b"}}');
    expect(useAppStore.getState().composers.chat.body).toEqual({
      model: 'x',
      messages: [],
      gateway_hint: { route: 'b' },
    });
    s.composerJsonTyped('chat', '{"model":"x",');
    const c = useAppStore.getState().composers.chat;
    expect(c.jsonError).toBeTruthy();
    expect(c.body).toEqual({ model: 'x', messages: [], gateway_hint: { route: 'b' } });
    expect(c.jsonText).toBe('{"model":"x",');
    s.composerJsonTyped('chat', '[1,2]');
    expect(useAppStore.getState().composers.chat.jsonError).toMatch(/object/);
  });

  it('rewrites the JSON text when the form edits the body, and each tab keeps its own request', () => {
    const s = useAppStore.getState();
    s.composerBodyEdited('responses', { model: 'm', input: 'hi', extra: true });
    expect(JSON.parse(useAppStore.getState().composers.responses.jsonText)).toEqual({
      model: 'm',
      input: 'hi',
      extra: true,
    });
    expect(useAppStore.getState().composers.messages.body.messages).toBeDefined();
  });
});

describe("composer slice: the run's reply joins the conversation once", () => {
  const reply = { blocks: [{ kind: 'text' as const, text: 'Hi there' }], usage: {} };
  const toolCall = {
    blocks: [{ kind: 'tool_call' as const, id: 'c1', name: 'f', argsText: '{}', args: {}, complete: true }],
    usage: {},
  };
  const roles = () => (useAppStore.getState().composers.chat.body.messages as { role: string }[]).map((m) => m.role);

  it('Continue appends the assistant turn once per run, however often it is asked', () => {
    useAppStore.getState().composerBodyEdited('chat', { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    useAppStore.getState().composerTurnContinued('chat', 'r1', reply);
    useAppStore.getState().composerTurnContinued('chat', 'r1', reply);
    expect(roles()).toEqual(['user', 'assistant']);
    expect(useAppStore.getState().composers.chat.continuedRunId).toBe('r1');
    expect(JSON.parse(useAppStore.getState().composers.chat.jsonText).messages).toHaveLength(2);
  });

  it('tool results follow the assistant turn, which is not appended again after Continue', () => {
    useAppStore.getState().composerBodyEdited('chat', { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    useAppStore.getState().composerTurnContinued('chat', 'r2', toolCall);
    const sent = withToolResults('chat', useAppStore.getState().composers.chat, 'r2', toolCall, [
      { id: 'c1', name: 'f', output: 'ok' },
    ]);
    expect(roles()).toEqual(['user', 'assistant']);
    useAppStore.getState().composerToolResultsSent('chat', 'r2', sent);
    expect(roles()).toEqual(['user', 'assistant', 'tool']);
    expect(sent).toBe(useAppStore.getState().composers.chat.body);
  });
});

describe('composer slice: a whole body loaded over a run', () => {
  const reply = { blocks: [{ kind: 'text' as const, text: 'Reply to another conversation' }], usage: {} };
  const loadedBody = { model: 'm', messages: [{ role: 'user', content: 'preset question' }] };

  it('a preset or a reopened run detaches the previous run: its reply no longer joins, while form edits stay attached', () => {
    const s = useAppStore.getState();
    s.composerRunStarted('chat', 'r_old');
    s.composerBodyEdited('chat', { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(useAppStore.getState().composers.chat.detachedRunId).toBeUndefined();
    s.composerBodyLoaded('chat', loadedBody);
    expect(useAppStore.getState().composers.chat.detachedRunId).toBe('r_old');
    s.composerTurnContinued('chat', 'r_old', reply);
    expect(useAppStore.getState().composers.chat.body).toEqual(loadedBody);

    s.composerRunStarted('chat', 'r_new');
    expect(useAppStore.getState().composers.chat.detachedRunId).toBeUndefined();
    s.composerRunReopened('chat', loadedBody);
    expect(useAppStore.getState().composers.chat.detachedRunId).toBe('r_new');
    // …and its output is set aside, undoably, as a preset's load does.
    expect(useAppStore.getState().composers.chat.activeRunId).toBeUndefined();
    expect(useAppStore.getState().composers.chat.undo?.label).toBe('Opened a recorded request');
    s.composerTurnContinued('chat', 'r_new', reply);
    expect(useAppStore.getState().composers.chat.body).toEqual(loadedBody);
  });

  it('keeps the warnings accepted with a translated body, and drops them when a preset or a reopened run replaces it', () => {
    const s = useAppStore.getState();
    const accepted = ['Not proven for m on Chat Completions: tool calls.'];
    s.composerBodyLoaded('chat', loadedBody, accepted);
    expect(useAppStore.getState().composers.chat.warnings).toEqual(accepted);
    s.composerBodyEdited('chat', { ...loadedBody, temperature: 0.2 });
    expect(useAppStore.getState().composers.chat.warnings).toEqual(accepted);
    s.composerBodyLoaded('chat', loadedBody);
    expect(useAppStore.getState().composers.chat.warnings).toEqual([]);
    s.composerBodyLoaded('chat', loadedBody, accepted);
    s.composerRunReopened('chat', loadedBody);
    expect(useAppStore.getState().composers.chat.warnings).toEqual([]);
  });
});

describe('composer slice: a request reopened from History', () => {
  it('replaces an unparseable JSON text with the recorded body, and its note lasts until the next send or a dismiss', () => {
    const s = useAppStore.getState();
    s.composerJsonTyped('messages', '{"model":');
    s.composerRunReopened(
      'messages',
      { model: 'claude-sim-haiku', max_tokens: 64, messages: [] },
      'Switched to profile “B”: this run was sent there.',
    );
    let c = useAppStore.getState().composers.messages;
    expect(c.jsonError).toBeUndefined();
    expect(JSON.parse(c.jsonText)).toEqual({ model: 'claude-sim-haiku', max_tokens: 64, messages: [] });
    expect(c.note).toMatch(/profile “B”/);
    s.composerBodyEdited('messages', { ...c.body, temperature: 0.5 });
    expect(useAppStore.getState().composers.messages.note).toMatch(/profile “B”/);
    s.composerRunStarted('messages', 'run_after_reopen');
    expect(useAppStore.getState().composers.messages.note).toBeUndefined();
    s.composerRunReopened('messages', c.body, 'again');
    s.composerNoteDismissed('messages');
    c = useAppStore.getState().composers.messages;
    expect(c.note).toBeUndefined();
  });
});

describe('composer slice: drafts kept by the core', () => {
  const pristine = useAppStore.getState();
  afterEach(() => {
    vi.useRealTimers();
    useAppStore.setState(pristine, true);
    resetGateway();
  });
  const saves = () => calls.filter((c) => c.call === 'drafts:save').map((c) => c.input);
  /** A protocol's one kept request. */
  const kept = (id: string, body: Record<string, unknown>, draft: string) => ({
    requests: [{ id, name: 'Request 1', body, draft, runIds: [], unsent: false }],
    activeId: id,
    savedAt: '',
  });

  it('restores each kept tab the user has not touched yet, and saves nothing before the kept drafts are read', async () => {
    vi.useFakeTimers();
    useAppStore.setState(pristine, true);
    resetGateway();
    let answer!: () => void;
    answers['drafts:list'] = () =>
      new Promise((resolve) => {
        answer = () =>
          resolve({
            ok: true,
            value: {
              drafts: {
                messages: kept('m', { model: 'kept', messages: [] }, 'kept words'),
                chat: kept('c', { model: 'kept-chat', messages: [] }, ''),
              },
            },
          });
      });
    const s = useAppStore.getState();
    const loading = s.draftsRequested();
    s.composerDraftTyped('chat', 'typed before the drafts arrived');
    vi.advanceTimersByTime(DRAFT_SAVE_MS * 2);
    expect(saves()).toEqual([]);
    answer();
    await loading;
    const c = useAppStore.getState().composers;
    expect(c.messages.body).toEqual({ model: 'kept', messages: [] });
    expect(c.messages.draft).toBe('kept words');
    expect(c.messages.jsonText).toContain('"kept"');
    // The chat tab typed in before they arrived stays on view, as a request after the kept one.
    expect(c.chat.draft).toBe('typed before the drafts arrived');
    expect(c.chat.body.model).toBeUndefined();
    expect(useAppStore.getState().requests.chat.tabs.map((t) => t.name)).toEqual(['Request 1', 'Request 2']);
  });

  it('saves a tab once its edits pause, with the body and the Message box as they are then', async () => {
    vi.useFakeTimers();
    useAppStore.setState(pristine, true);
    resetGateway();
    answers['drafts:list'] = async () => ({ ok: true, value: { drafts: {} } });
    answers['drafts:save'] = async () => ({ ok: true, value: { savedAt: 'now' } });
    const s = useAppStore.getState();
    await s.draftsRequested();
    s.composerDraftTyped('responses', 'h');
    vi.advanceTimersByTime(DRAFT_SAVE_MS / 2);
    s.composerDraftTyped('responses', 'hi');
    s.composerJsonTyped('responses', '{"model":"r","input":[]}');
    vi.advanceTimersByTime(DRAFT_SAVE_MS);
    expect(saves()).toEqual([
      {
        protocol: 'responses',
        activeId: useAppStore.getState().requests.responses.activeId,
        requests: [
          expect.objectContaining({ name: 'Request 1', body: { model: 'r', input: [] }, draft: 'hi', unsent: true }),
        ],
      },
    ]);
  });
});
