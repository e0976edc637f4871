/**
 * Test connection on the form as typed, before it is saved: what it sends is built here from the draft. The
 * stored key and secret header values go only to the origin they were saved for, never to one typed in the
 * form (a test is not a save, and no dialog asked): to test a new host, the user types the key for it.
 */
import type { z } from 'zod';
import type { ProfileInput } from '../../shared/contract';
import { SECRET_HEADER } from '../../shared/request-headers';
import { normalizeBaseUrl } from '../../shared/url';
import { FieldError, RunError } from './errors';
import { sameOrigin } from './profile-headers';
import type { ProfileStore } from './profiles';
import type { TestTarget } from './profile-test';
import { requestSecrets } from './secrets';

export function draftTarget(profiles: ProfileStore, draft: z.output<typeof ProfileInput>): TestTarget {
  const base = normalizeBaseUrl(draft.baseUrl);
  if (!base.ok) throw new FieldError({ baseUrl: base.error });
  const saved = draft.id ? profiles.get(draft.id) : undefined;
  if (draft.id && !saved) throw new RunError('not_found', `No profile with id ${draft.id}.`);
  const stored = saved && sameOrigin(saved.baseUrl, draft.baseUrl) ? saved : undefined;
  const storedValue = (name: string) =>
    Object.entries(stored?.extraHeaders ?? {}).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(draft.extraHeaders)) {
    const from = draft.keepSecretHeaders[name];
    const real = from === undefined ? value : storedValue(from);
    if (real !== undefined) headers[name] = real;
  }
  const key = draft.key ?? (stored && !draft.clearKey ? profiles.keyFor(stored.id) : undefined);
  const marked = new Set(draft.secretHeaders.map((n) => n.toLowerCase()));
  const isSecret = (name: string) =>
    SECRET_HEADER.test(name) || marked.has(name.toLowerCase()) || draft.keepSecretHeaders[name] !== undefined;
  const own = requestSecrets(key, headers, isSecret);
  return {
    profile: {
      id: saved?.id ?? 'unsaved',
      name: draft.name,
      baseUrl: draft.baseUrl,
      authScheme: draft.authScheme,
      extraHeaders: headers,
      secretHeaders: Object.keys(headers).filter((n) => isSecret(n) && !SECRET_HEADER.test(n)),
    },
    key,
    secrets: [...new Set([...own, ...(stored ? profiles.secretsFor(stored.id) : [])])],
  };
}
