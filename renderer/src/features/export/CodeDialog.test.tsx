import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { HistorySummary, RecordedRun } from '../../../../shared/contract';
import type { ProtocolId } from '../../../../shared/protocols/types';

type Body = Record<string, unknown>;
interface ExportInput {
  profileId: string;
  protocol: ProtocolId;
  body: Body;
  language: 'curl' | 'python' | 'typescript' | 'http';
}

/** A run the core recorded earlier, on the Chat Completions route of profile p-old. */
const SENT_BODY = {
  model: 'gpt-sim-4o',
  stream: true,
  messages: [{ role: 'user', content: 'the question as it was sent' }],
  vendor_flag: 'kept',
};
const RECORDED: RecordedRun = {
  ledger: {
    runId: 'run_1',
    protocol: 'chat',
    profileId: 'p-old',
    profileName: 'Old gateway',
    model: 'gpt-sim-4o',
    stream: true,
    method: 'POST',
    url: 'https://old.example.com/v1/chat/completions',
    headers: { authorization: '[redacted …abcd]' },
    body: JSON.stringify(SENT_BODY),
    bodyBytes: 0,
    startedAt: '2026-01-01T00:00:00Z',
    warnings: [],
  },
  events: [],
  origin: 'composer',
  result: {
    verdict: 'complete',
    reason: 'ok',
    metrics: { status: 200, totalMs: 5, events: 0, bytes: 0, usage: {} },
    transcript: { blocks: [{ kind: 'text', text: 'an answer' }], usage: {} },
    warnings: [],
    endedAt: '2026-01-01T00:00:01Z',
  },
};
const PROFILES: Record<string, { baseUrl: string }> = {
  p1: { baseUrl: 'https://gw.example.com' },
  'p-old': { baseUrl: 'https://moved.example.com' },
};
const exportCalls: ExportInput[] = [];

// Only the transport is faked; "export:code" and "history:code" answer as the core does, with the real generator.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { Composer } from '../composer/Composer';
import { HistoryTab } from '../library/HistoryTab';
import { useAppStore } from '../../store';
import { answers, resetGateway } from '../../test/fake-gateway';
import { exportCode, exportInputFromLedger } from '../../../../shared/code-export';

const summary: HistorySummary = {
  runId: 'run_1',
  startedAt: RECORDED.ledger.startedAt,
  protocol: 'chat',
  model: 'gpt-sim-4o',
  profileName: 'Old gateway',
  origin: 'composer',
  verdict: 'complete',
  status: 200,
  totalMs: 5,
  events: 0,
  bytes: 10,
  preview: 'an answer',
};

const pristine = useAppStore.getState();
beforeEach(() => {
  resetGateway();
  answers['runs:start'] = async () => ({ ok: true, value: { runId: 'r1' } });
  answers['runs:cancel'] = async () => ({ ok: true, value: { cancelled: true } });
  answers['history:list'] = async () => ({ ok: true, value: { runs: [summary], total: 1, bytes: 10 } });
  answers['history:get'] = async () => ({ ok: true, value: RECORDED });
  answers['history:delete'] = async () => ({ ok: true, value: { deleted: true } });
  // As the core answers "history:code": from the ledger, whatever the profile's base URL is now.
  answers['history:code'] = async ({ language }: { runId: string; language: ExportInput['language'] }) => ({
    ok: true,
    value: {
      language,
      code: exportCode(language, exportInputFromLedger(RECORDED.ledger, JSON.parse(RECORDED.ledger.body))!),
    },
  });
  answers['export:code'] = async (input: ExportInput) => {
    exportCalls.push(input);
    const profile = PROFILES[input.profileId];
    if (!profile) return { ok: false, error: { code: 'not_found', message: `No profile with id ${input.profileId}.` } };
    return {
      ok: true,
      value: {
        language: input.language,
        code: exportCode(input.language, {
          ...profile,
          authScheme: 'native',
          extraHeaders: {},
          protocol: input.protocol,
          body: input.body,
        }),
      },
    };
  };
  useAppStore.setState(pristine, true);
  useAppStore.setState((s) => ({
    profiles: { activeId: 'p1', profiles: [], keyStorages: [] },
    composers: {
      ...s.composers,
      chat: {
        ...s.composers.chat,
        body: { model: 'composer-model', messages: [{ role: 'user', content: 'first turn' }] },
      },
    },
  }));
  exportCalls.length = 0;
});
afterEach(cleanup);

const exported = () => screen.getByLabelText('Exported code').textContent ?? '';

describe('export as code from the composer', () => {
  it('exports what Send would send: the text in the "Message" box is the last user turn', async () => {
    render(<Composer protocol="chat" />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'the turn being written' } });
    fireEvent.click(screen.getByRole('button', { name: 'Code…' }));
    await waitFor(() => expect(exported()).toContain('the turn being written'));
    expect(exportCalls.at(-1)!.body.messages).toEqual([
      { role: 'user', content: 'first turn' },
      { role: 'user', content: 'the turn being written' },
    ]);
    expect(exported()).toContain("curl 'https://gw.example.com/v1/chat/completions'");
  });
});

describe('export as code from History', () => {
  it('"Code…" on a recorded run exports its request exactly as sent, not the composer\'s, with the key as <API_KEY>', async () => {
    render(<HistoryTab />);
    // (The search box says what it looks through: the prompts, the whole output, the model and a run's name.)
    const search = screen.getByRole('textbox', { name: 'Search history' }) as HTMLInputElement;
    expect(search.placeholder).toBe('search prompts, output, model, name');
    const run = await screen.findByRole('button', { name: /gpt-sim-4o/ });
    await act(async () => {
      fireEvent.click(run);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Code…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Code' });
    await waitFor(() => expect(exported()).toContain('the question as it was sent'));
    // The profile's base URL has moved since: the export still names the URL the run went to.
    expect(exportCalls).toEqual([]);
    const curl = exported();
    expect(curl).toContain("curl -N 'https://old.example.com/v1/chat/completions'");
    expect(curl).toContain('Bearer <API_KEY>');
    expect(curl).toContain('"vendor_flag": "kept"');
    expect(curl).not.toContain('composer-model');
    expect(dialog.textContent).toContain('Run run_1 as it was sent (its URL and headers, profile Old gateway)');

    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'python' } });
    await waitFor(() =>
      expect(exported()).toContain('client.chat.completions.create(**request, extra_body=extra_body)'),
    );
    expect(exported()).toContain('"content": "the question as it was sent"');
  });
});
