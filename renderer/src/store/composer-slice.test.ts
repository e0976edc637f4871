import { describe, expect, it, vi } from 'vitest';

vi.mock('../bridge', () => ({ gateway: {} }));

import { useAppStore } from './index';

describe('composer slice: JSON editor ↔ body', () => {
  it('takes a typed body that parses, unknown fields included, and keeps the last valid body while it does not', () => {
    const s = useAppStore.getState();
    s.composerJsonTyped('chat', '{"model":"x","messages":[],"gateway_hint":{"route":"b"}}');
    expect(useAppStore.getState().composers.chat.body).toEqual({ model: 'x', messages: [], gateway_hint: { route: 'b' } });
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
    expect(JSON.parse(useAppStore.getState().composers.responses.jsonText)).toEqual({ model: 'm', input: 'hi', extra: true });
    expect(useAppStore.getState().composers.messages.body.messages).toBeDefined();
  });
});
