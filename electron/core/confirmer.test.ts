/**
 * What the desktop app's dialog asks before a stored key follows a profile to another host (docs/security.md
 * §6): the question must show where the key goes, scheme and port included, however the caller named the
 * profile.
 */
import { describe, expect, it } from 'vitest';
import { ProfileInput } from '../../shared/contract';
import { keepOnMove, type Question } from './confirmer';

async function asked(profileName: string, fromUrl: string, toUrl: string): Promise<Question> {
  const questions: Question[] = [];
  await keepOnMove(
    { confirm: async (q) => (questions.push(q), true) },
    { profileName, fromUrl, toUrl, key: true, headers: false },
    new URL(toUrl).origin,
  );
  expect(questions).toHaveLength(1);
  return questions[0];
}

describe('the question before a key follows a host change', () => {
  it('shows both origins, and says a move from https to plain http is unencrypted', async () => {
    const q = await asked('Work', 'https://api.example.com/v1', 'http://api.example.com:8080/v1');
    expect(q.message).toBe(
      'Send the saved key for https://api.example.com to http://api.example.com:8080, unencrypted (http)? (profile “Work”)',
    );
    expect(q.detail).toMatch(/anyone on the network/);
    const local = await asked('Work', 'https://api.example.com', 'http://127.0.0.1:4000');
    expect(local.message).not.toContain('unencrypted');
  });

  it('a forged name cannot redraw the question: the host comes first, the name is one short line', async () => {
    const forged = `Work” to api.openai.com (same host)?${'\n'.repeat(40)}\u202Eevil\u2066`;
    const q = await asked(forged, 'https://api.openai.com', 'https://attacker.example');
    expect(q.message.indexOf('https://attacker.example')).toBeLessThan(q.message.indexOf('Work'));
    expect(q.message).not.toMatch(/[\n\u202E\u2066]/);
    const quoted = /\(profile “(.*)”\)$/.exec(q.message)?.[1];
    expect(quoted).toBeDefined();
    expect([...quoted!].length).toBeLessThanOrEqual(40);
    expect(quoted).not.toMatch(/[“”]/);
  });

  it('a profile name with a line break or a direction override is refused with a sentence', () => {
    for (const name of ['Work\nto api.openai.com', 'Work\u202Ekrow', 'Work\u200B']) {
      const parsed = ProfileInput.safeParse({ name, baseUrl: 'https://api.example.com' });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0].message).toMatch(/invisible or text-direction character: type it again/);
    }
    expect(ProfileInput.safeParse({ name: 'Work (EU)', baseUrl: 'https://api.example.com' }).success).toBe(true);
  });
});
