import { describe, expect, it } from 'vitest';
import { modelIdKnown, replayedName, replaySession } from './replay';

describe('a replay from the captures', () => {
  it('sends what Claude Code sends for that id: enabled thinking for a known id, adaptive for another', () => {
    expect(modelIdKnown('claude-code', 'claude-sonnet-4-5-20250929')).toBe(true);
    expect(modelIdKnown('claude-code', 'my-relay-sonnet')).toBe(false);
    const known = replaySession('claude-code', 'claude-sonnet-4-5-20250929').turn1;
    expect(known.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 31_999 }, max_tokens: 32_000 });
    expect(known.headers['anthropic-beta']).not.toContain('mid-conversation-system');
    const other = replaySession('claude-code', 'my-relay-sonnet').turn1;
    expect(other.body).toMatchObject({ model: 'my-relay-sonnet', thinking: { type: 'adaptive' } });
    expect(other.path).toBe('/v1/messages?beta=true');
    expect(replayedName('claude-code', 'my-relay-sonnet')).toBe('Claude Code 2.1.197 (an id it does not know)');
    expect(replayedName('codex', 'gpt-5.5')).toBe('Codex 0.171.0 (an id it knows)');
  });

  it('puts fresh ids in each session, the same id wherever the CLI repeated it, and no credential', () => {
    const a = replaySession('codex', 'gpt-sim-o3').turn1;
    const b = replaySession('codex', 'gpt-sim-o3').turn1;
    expect(a.headers['session-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['session-id']).not.toBe(b.headers['session-id']);
    expect(a.body.prompt_cache_key).toBe(a.headers['session-id']);
    expect(JSON.stringify(a)).not.toMatch(/<(uuid|hex)-\d+>|<cwd>|<redacted>/);
    expect(a.headers).not.toHaveProperty('authorization');
  });

  it('knows Codex catalogue slugs: a known id gets its custom and tool_search tools', () => {
    const tools = (replaySession('codex', 'gpt-5.5').turn1.body.tools as { type: string }[]).map((t) => t.type);
    expect(tools).toEqual(expect.arrayContaining(['custom', 'tool_search']));
  });
});
