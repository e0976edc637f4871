import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import type { CompareColumn, ModelInfo, ProfileView } from '../../../../shared/contract';
import type { RunView } from '../../store/runs-slice';

// Only the transport is faked: the store, the CompareTab and its children (CodeMirror included) are the real ones.
let nextRun = 0;
const start = vi.fn(async (_input: unknown) => ({ ok: true as const, value: { runId: `started-${++nextRun}` } }));
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { CompareTab } from './CompareTab';
import { useAppStore } from '../../store';
import { completedRun } from '../../test/runs';
import { answers, resetGateway } from '../../test/fake-gateway';

const pristine = useAppStore.getState();
beforeEach(() => {
  useAppStore.setState(pristine, true);
  resetGateway();
  answers['runs:start'] = (input) => start(input);
  answers['runs:cancel'] = async () => ({ ok: true, value: { cancelled: true } });
  answers['capabilities:guard'] = async () => ({
    ok: true,
    value: { model: 'm', protocol: 'chat', items: [], unknown: [], warnings: [] },
  });
  answers['presets:list'] = async () => ({ ok: true, value: { presets: [] } });
  start.mockClear();
});
afterEach(cleanup);

// --- The shared prompt's JSON editor ---

const editor = () => EditorView.findFromDOM(document.querySelector<HTMLElement>('.json-editor .cm-editor')!)!;
const editorText = () => editor().state.doc.toString();

/**
 * A user's pause between keys: the editor holds back outside value changes while typing and applies them once
 * the typing stops (about 200 ms), so only after a pause does the editor show what the app sent back.
 */
const pause = () => act(() => new Promise<void>((r) => setTimeout(r, 300)));

/** Types one key at a time at `at(text)`, pausing after each, each key landing on what the editor then shows. */
async function typeAt(keys: string, at: (text: string) => number) {
  for (const key of keys) {
    const pos = at(editorText());
    act(() => editor().dispatch({ changes: { from: pos, insert: key } }));
    await pause();
  }
}

describe('Compare: shared prompt JSON editor', () => {
  it('typing 0.05 key by key shows 0.05 and sets temperature 0.05', async () => {
    await act(async () => render(<CompareTab />));
    // Start a temperature field, then type its value after `"temperature": `.
    const start = editorText().replace(/\n}$/, ',\n  "temperature": \n}');
    act(() => editor().dispatch({ changes: { from: 0, to: editorText().length, insert: start } }));
    await typeAt('0.05', (t) => {
      const m = /"temperature": ([0-9.]*)/.exec(t)!;
      return m.index + m[0].length;
    });

    expect(editorText()).toContain('"temperature": 0.05\n}');
    expect(useAppStore.getState().compareBody.temperature).toBe(0.05);
  });

  it('keeps the blank lines and layout the user typed, while the body follows', async () => {
    await act(async () => render(<CompareTab />));
    const typed = '{\n  "model": "m",\n\n  "max_tokens": 64,   "messages": [{"role": "user", "content": "hi"}]\n}';
    act(() => editor().dispatch({ changes: { from: 0, to: editorText().length, insert: typed } }));
    await pause();

    expect(editorText()).toBe(typed);
    expect(useAppStore.getState().compareBody).toEqual({
      model: 'm',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect((screen.getByLabelText('Shared user turn') as HTMLTextAreaElement).value).toBe('hi');
  });

  it('an edit in the form fields still shows in the JSON editor', async () => {
    await act(async () => render(<CompareTab />));
    fireEvent.change(screen.getByLabelText('Shared user turn'), { target: { value: 'new question' } });
    await pause();
    expect(editorText()).toContain('"content": "new question"');
  });
});

// --- Removing a column ---

const answer = (runId: string, text: string): RunView =>
  completedRun(runId, { blocks: [{ kind: 'text', text }], usage: {} });

/** Three columns that have run: A (with an override), B and C, each with its own answer. */
async function threeColumnsRun() {
  const columns: CompareColumn[] = [
    { profileId: 'demo', protocol: 'messages', model: 'A', overrides: { temperature: 0.2 } },
    { profileId: 'demo', protocol: 'chat', model: 'B' },
    { profileId: 'demo', protocol: 'responses', model: 'C' },
  ];
  act(() => useAppStore.getState().compareColumnsChanged(columns));
  await act(async () => render(<CompareTab />));
  // "Run all" through the real button, then each run finishes with its column's answer.
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Run all' })));
  const ids = useAppStore.getState().compareRunIds as string[];
  act(() =>
    useAppStore.setState((s) => ({
      runs: {
        ...s.runs,
        [ids[0]]: answer(ids[0], 'answer from A'),
        [ids[1]]: answer(ids[1], 'answer from B'),
        [ids[2]]: answer(ids[2], 'answer from C'),
      },
    })),
  );
  return ids;
}

const columnText = (n: number) => screen.getByLabelText(`Column ${n}`).querySelector('.column-run')?.textContent ?? '';
const overridesField = (n: number) => screen.getByLabelText(`Column ${n} overrides`) as HTMLInputElement;

describe('Compare: removing a column', () => {
  it('the columns left keep their own answers, and the summary follows them', async () => {
    const [, runB, runC] = await threeColumnsRun();
    expect(columnText(1)).toContain('answer from A');

    await act(async () => fireEvent.click(screen.getByLabelText('Remove column 1')));

    expect((screen.getByLabelText('Column 1 model') as HTMLInputElement).value).toBe('B');
    expect(columnText(1)).toContain('answer from B');
    expect(columnText(2)).toContain('answer from C');
    expect(useAppStore.getState().compareRunIds).toEqual([runB, runC]);
    const head = screen.getByLabelText('Comparison summary').querySelector('thead')!.textContent!;
    expect(head).toMatch(/1\. Chat Completions · B/);
    expect(head).toMatch(/2\. Responses · C/);
  });

  it("the removed column's overrides are not carried into its neighbour", async () => {
    await threeColumnsRun();
    expect(overridesField(1).value).toBe('{"temperature":0.2}');

    await act(async () => fireEvent.click(screen.getByLabelText('Remove column 1')));

    expect(overridesField(1).value).toBe('');
    fireEvent.blur(overridesField(1));
    expect(useAppStore.getState().compareColumns[0]).toEqual({
      profileId: 'demo',
      protocol: 'chat',
      model: 'B',
      overrides: undefined,
    });
    // And the next run of column 1 is sent without the removed column's temperature.
    start.mockClear();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Run all' })));
    const sent = start.mock.calls.map(([input]) => input as { body: Record<string, unknown> });
    expect(sent[0].body.model).toBe('B');
    expect(sent[0].body.temperature).toBeUndefined();
  });

  it('removing a middle column leaves the first and last where they were', async () => {
    const [runA, , runC] = await threeColumnsRun();
    await act(async () => fireEvent.click(screen.getByLabelText('Remove column 2')));

    expect(columnText(1)).toContain('answer from A');
    expect(columnText(2)).toContain('answer from C');
    expect(overridesField(1).value).toBe('{"temperature":0.2}');
    expect(overridesField(2).value).toBe('');
    expect(useAppStore.getState().compareRunIds).toEqual([runA, runC]);
  });
});

// --- Editing a column after it has run ---

const summaryHead = () => screen.getByLabelText('Comparison summary').querySelector('thead')!.textContent!;
const summaryRow = (k: number) => [...screen.getByLabelText('Comparison summary').querySelectorAll('tbody tr')][k];
const runAllButton = () => screen.getByRole('button', { name: 'Run all' }) as HTMLButtonElement;

describe('Compare: editing a column after it has run', () => {
  it('a new model or protocol drops the old run instead of showing it under the new label', async () => {
    await threeColumnsRun();
    await act(async () => fireEvent.change(screen.getByLabelText('Column 2 model'), { target: { value: 'Z' } }));
    await act(async () => fireEvent.change(screen.getByLabelText('Column 3 protocol'), { target: { value: 'chat' } }));

    expect(summaryHead()).toMatch(/2\. Chat Completions · Z/);
    expect(columnText(1)).toContain('answer from A');
    expect(screen.getByLabelText('Column 2').textContent).toContain('Not run yet.');
    expect(screen.getByLabelText('Column 2').textContent).not.toContain('answer from B');
    expect(screen.getByLabelText('Column 3').textContent).not.toContain('answer from C');
    const verdicts = [...summaryRow(0).querySelectorAll('td')].map((td) => td.textContent);
    expect(verdicts[0]).toMatch(/complete/);
    expect(verdicts.slice(1)).toEqual(['—', '—']);
    expect(screen.queryByLabelText('Output diff')).toBeNull();
  });

  it('new overrides drop the old run; blurring the field unchanged keeps it', async () => {
    await threeColumnsRun();
    fireEvent.blur(overridesField(1));
    expect(columnText(1)).toContain('answer from A');

    fireEvent.change(overridesField(1), { target: { value: '{"temperature": 0.9}' } });
    await act(async () => fireEvent.blur(overridesField(1)));
    expect(screen.getByLabelText('Column 1').textContent).toContain('Not run yet.');
    expect(columnText(2)).toContain('answer from B');
  });

  it('a run still starting when its column is edited is not shown under the new settings', async () => {
    const columns: CompareColumn[] = [
      { profileId: 'demo', protocol: 'messages', model: 'A' },
      { profileId: 'demo', protocol: 'chat', model: 'B' },
    ];
    act(() => useAppStore.getState().compareColumnsChanged(columns));
    await act(async () => render(<CompareTab />));
    // Both starts wait until the test lets them answer, so the edit lands while "Run all" is under way.
    const pending: (() => void)[] = [];
    const slowStart = () =>
      new Promise<{ ok: true; value: { runId: string } }>((resolve) =>
        pending.push(() => resolve({ ok: true, value: { runId: `started-${++nextRun}` } })),
      );
    start.mockImplementationOnce(slowStart).mockImplementationOnce(slowStart);
    await act(async () => fireEvent.click(runAllButton()));
    await act(async () => fireEvent.change(screen.getByLabelText('Column 2 model'), { target: { value: 'Z' } }));
    await act(async () => pending.forEach((go) => go()));

    const [runA, runZ] = useAppStore.getState().compareRunIds;
    expect(runA).toBeDefined();
    expect(runZ).toBeUndefined();
  });
});

// --- Quick layouts ---

const profile = (id: string, name: string): ProfileView => ({
  id,
  name,
  baseUrl: `http://${id}.test`,
  authScheme: 'bearer',
  extraHeaders: {},
  secretHeaders: {},
  key: { hasKey: true, storage: 'session' },
});
/** The active profile is `id`, and its /v1/models listed `models` (or failed with `error`). */
const loadModels = (ids: string[] | ModelInfo[], id = 'demo', error?: string) =>
  act(() =>
    useAppStore.setState((s) => ({
      profiles: {
        profiles: [profile('demo', 'Demo gateway'), profile('env', 'Environment')],
        activeId: id,
        keyStorages: [],
      },
      models: {
        ...s.models,
        [id]: {
          profileId: id,
          models: ids.map((m) => (typeof m === 'string' ? { id: m, family: 'openai' as const } : m)),
          fetchedAt: new Date().toISOString(),
          added: [],
          removed: [],
          pages: 1,
          ...(error ? { error: { type: 'http_error', message: error, status: 401 } } : {}),
        },
      },
    })),
  );
const col = (model: string): CompareColumn => ({ profileId: 'demo', protocol: 'chat', model });
const sameProtocolButton = () => screen.getByRole('button', { name: 'Same protocol, N models' });

describe('Compare: "Same protocol, N models"', () => {
  it('without a models list keeps the columns and says why', async () => {
    act(() => useAppStore.getState().compareColumnsChanged([col('A'), col('B')]));
    await act(async () => render(<CompareTab />));
    const before = useAppStore.getState().compareColumns;
    await act(async () => fireEvent.click(sameProtocolButton()));

    expect(useAppStore.getState().compareColumns).toBe(before);
    expect(runAllButton().disabled).toBe(false);
    expect(screen.getByRole('status', { name: 'Layout note' }).textContent).toMatch(
      /not loaded yet.*Columns left as they were/,
    );
  });

  it('with a single model keeps the columns and says why', async () => {
    await act(async () => render(<CompareTab />));
    loadModels([
      { id: 'only-model', family: 'anthropic' },
      { id: 'sim-fault-reset', family: 'unknown', fault: true },
    ]);
    const before = useAppStore.getState().compareColumns;
    await act(async () => fireEvent.click(sameProtocolButton()));

    expect(useAppStore.getState().compareColumns).toBe(before);
    expect(runAllButton().disabled).toBe(false);
    expect(screen.getByRole('status', { name: 'Layout note' }).textContent).toMatch(/at least 2 models.*only 1/);
  });

  it('with enough models lays them out and clears the note', async () => {
    await act(async () => render(<CompareTab />));
    await act(async () => fireEvent.click(sameProtocolButton()));
    loadModels(['m1', 'm2', 'm3', 'm4']);
    await act(async () => fireEvent.click(sameProtocolButton()));

    expect(useAppStore.getState().compareColumns.map((c) => c.model)).toEqual(['m1', 'm2', 'm3']);
    expect(screen.queryByRole('status', { name: 'Layout note' })).toBeNull();
  });
});

// --- A column's overrides field ---

describe('Compare: a column’s overrides field', () => {
  async function twoColumns() {
    act(() =>
      useAppStore.getState().compareColumnsChanged([
        { profileId: 'demo', protocol: 'chat', model: 'A' },
        { profileId: 'demo', protocol: 'chat', model: 'B' },
      ]),
    );
    await act(async () => render(<CompareTab />));
  }
  const typeOverrides = async (text: string) => {
    fireEvent.change(overridesField(1), { target: { value: text } });
    await act(async () => fireEvent.blur(overridesField(1)));
  };

  it('invalid JSON shows its error, blocks Run all, and a fix clears it and is the one sent', async () => {
    await twoColumns();
    await typeOverrides('{"temperature": 0.2}');
    await typeOverrides('{"temperature": 0.9');

    expect(overridesField(1).validity.valid).toBe(false);
    expect(screen.getByLabelText('Column 1').textContent).toMatch(/Overrides not applied: not valid JSON/);
    expect(runAllButton().disabled).toBe(true);
    expect(screen.getByRole('status', { name: 'Run all blocked' }).textContent).toMatch(/column 1/);

    await typeOverrides('{"temperature": 0.5}');
    expect(overridesField(1).validity.valid).toBe(true);
    expect(screen.getByLabelText('Column 1').textContent).not.toMatch(/not applied/);
    expect(screen.queryByRole('status', { name: 'Run all blocked' })).toBeNull();
    expect(runAllButton().disabled).toBe(false);
    await act(async () => fireEvent.click(runAllButton()));
    expect((start.mock.calls[0][0] as { body: Record<string, unknown> }).body.temperature).toBe(0.5);
  });

  it('JSON that is not an object is an error, not a silent reset of the overrides', async () => {
    await twoColumns();
    await typeOverrides('{"temperature": 0.2}');
    await typeOverrides('[0.9]');

    expect(screen.getByLabelText('Column 1').textContent).toMatch(/must be a JSON object/);
    expect(useAppStore.getState().compareColumns[0].overrides).toEqual({ temperature: 0.2 });
    expect(runAllButton().disabled).toBe(true);

    await typeOverrides('');
    expect(useAppStore.getState().compareColumns[0].overrides).toBeUndefined();
    expect(runAllButton().disabled).toBe(false);
  });
});

// --- Columns start from the active profile ---

const columnModels = () => useAppStore.getState().compareColumns.map((c) => `${c.profileId}/${c.protocol}/${c.model}`);

describe('Compare: columns start from the active profile', () => {
  it("uses a model the profile lists, not another gateway's; follows the profile until the user picks", async () => {
    await act(async () => render(<CompareTab />));
    loadModels(['relay-sonnet', 'relay-gpt'], 'env');
    expect(columnModels()).toEqual(['env/messages/relay-sonnet', 'env/chat/relay-sonnet']);
    expect((screen.getByLabelText('Column 1 model') as HTMLInputElement).value).toBe('relay-sonnet');

    loadModels(['claude-sim-sonnet'], 'demo');
    expect(columnModels()).toEqual(['demo/messages/claude-sim-sonnet', 'demo/chat/claude-sim-sonnet']);

    await act(async () => fireEvent.change(screen.getByLabelText('Column 2 model'), { target: { value: 'mine' } }));
    loadModels(['relay-sonnet'], 'env');
    expect(columnModels()).toEqual(['demo/messages/claude-sim-sonnet', 'demo/chat/mine']);
  });

  it('"Same model, three protocols" keeps to listed models that serve all three, or says none does', async () => {
    await act(async () => render(<CompareTab />));
    const onlyChat: ModelInfo = { id: 'chat-model', family: 'openai', extra: { supported_endpoint_types: ['openai'] } };
    const allThree: ModelInfo = {
      id: 'all-three',
      family: 'unknown',
      extra: { supported_endpoint_types: ['openai', 'anthropic', 'openai-response'] },
    };
    loadModels([onlyChat, allThree], 'env');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Same model, three protocols' })));
    expect(columnModels()).toEqual(['env/messages/all-three', 'env/chat/all-three', 'env/responses/all-three']);
    expect(screen.queryByRole('status', { name: 'Layout note' })).toBeNull();

    const onlyMessages: ModelInfo = {
      id: 'msg-model',
      family: 'anthropic',
      extra: { supported_endpoint_types: ['anthropic'] },
    };
    loadModels([onlyChat, onlyMessages], 'env');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Same model, three protocols' })));
    expect(screen.getByRole('status', { name: 'Layout note' }).textContent).toMatch(
      /No model this profile lists serves all of the three protocols/,
    );
    expect(columnModels().slice(0, 2)).toEqual(['env/messages/msg-model', 'env/chat/chat-model']);
  });

  it('a profile whose model list failed says so instead of laying out models it does not have', async () => {
    await act(async () => render(<CompareTab />));
    loadModels([], 'env', 'invalid x-api-key');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Same model, three protocols' })));
    expect(screen.getByRole('status', { name: 'Layout note' }).textContent).toMatch(
      /could not be fetched \(invalid x-api-key\)/,
    );
    expect(useAppStore.getState().compareColumns.every((c) => c.profileId === 'env')).toBe(true);
  });
});

// --- Keyboard ---

describe('Compare: Ctrl/Cmd+Shift+Enter', () => {
  it('runs every column, from anywhere in the window; not while Run all is off', async () => {
    act(() =>
      useAppStore.getState().compareColumnsChanged([
        { profileId: 'demo', protocol: 'chat', model: 'A' },
        { profileId: 'demo', protocol: 'messages', model: 'B' },
      ]),
    );
    await act(async () => render(<CompareTab />));
    await act(async () => fireEvent.keyDown(document.body, { key: 'Enter', ctrlKey: true, shiftKey: true }));
    expect(start.mock.calls.map(([input]) => (input as { body: { model: string } }).body.model)).toEqual(['A', 'B']);
    expect(useAppStore.getState().compareRunIds).toHaveLength(2);

    start.mockClear();
    await act(async () => fireEvent.keyDown(document.body, { key: 'Enter', ctrlKey: true }));
    fireEvent.change(overridesField(1), { target: { value: '{oops' } });
    await act(async () => fireEvent.blur(overridesField(1)));
    await act(async () =>
      fireEvent.keyDown(screen.getByLabelText('Shared user turn'), { key: 'Enter', metaKey: true, shiftKey: true }),
    );
    expect(start).not.toHaveBeenCalled();
  });
});

// --- What a translation did ---

describe('Compare: a column’s request', () => {
  it('calls a field the target needed and got "added", apart from what was lost', async () => {
    act(() =>
      useAppStore
        .getState()
        .compareBodyEdited({ model: 'm', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    );
    act(() =>
      useAppStore.getState().compareColumnsChanged([
        { profileId: 'demo', protocol: 'messages', model: 'A' },
        { profileId: 'demo', protocol: 'chat', model: 'B' },
      ]),
    );
    await act(async () => render(<CompareTab />));
    const column = screen.getByLabelText('Column 2');
    const item = [...screen.getByLabelText('Column 2 loss list').querySelectorAll('li')].find((li) =>
      li.textContent!.includes('include_usage'),
    )!;
    expect(item.querySelector('.badge')!.textContent).toBe('added');
    expect(column.querySelector('summary')!.textContent).toMatch(/1 added/);
    expect(column.querySelector('summary')!.textContent).not.toMatch(/loss/);
  });
});

describe('Compare: Run all needs a model in every column', () => {
  it('a column without a model holds Run all and says which', async () => {
    act(() => useAppStore.getState().compareColumnsChanged([col('A'), col('')]));
    await act(async () => render(<CompareTab />));
    expect(runAllButton().disabled).toBe(true);
    expect(screen.getByRole('status', { name: 'Run all blocked' }).textContent).toMatch(/column 2 has a model/);
    await act(async () => fireEvent.keyDown(document.body, { key: 'Enter', ctrlKey: true, shiftKey: true }));
    expect(start).not.toHaveBeenCalled();
    await act(async () => fireEvent.change(screen.getByLabelText('Column 2 model'), { target: { value: 'B' } }));
    expect(runAllButton().disabled).toBe(false);
  });
});
