import { z } from 'zod';
import { defineCall } from './define';

export const AUTH_SCHEMES = ['native', 'x-api-key', 'bearer', 'both'] as const;
export type AuthScheme = (typeof AUTH_SCHEMES)[number];

export type KeyStorage = 'keychain' | 'file' | 'session' | 'env' | 'none';

/** What the renderer may know about a key: never the key. */
export interface KeyStatus {
  hasKey: boolean;
  /** Last four characters, e.g. "…abcd". */
  hint?: string;
  storage: KeyStorage;
}

export interface ProfileView {
  id: string;
  name: string;
  baseUrl: string;
  authScheme: AuthScheme;
  extraHeaders: Record<string, string>;
  key: KeyStatus;
  /** Built-in profiles cannot be deleted: the embedded demo gateway, and one from environment variables. */
  builtin?: 'demo' | 'env';
}

export interface ProfilesState {
  profiles: ProfileView[];
  activeId: string;
  /** Where the key can be kept on this host, best first. */
  keyStorages: KeyStorage[];
}

const headerName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'not a valid header name');

/**
 * A value that can be sent in a header. A key pasted from a wrapped terminal carries a line break: fetch
 * then refuses the header on every request with an error that quotes the whole value, key included. Tab is
 * legal inside a header value; a key has no use for it.
 */
export function headerValueProblem(value: string, allowTab: boolean): 'control' | 'non-latin1' | undefined {
  if ((allowTab ? /[\u0000-\u0008\u000a-\u001f\u007f]/ : /[\u0000-\u001f\u007f]/).test(value)) return 'control';
  return /[^\u0000-\u00ff]/.test(value) ? 'non-latin1' : undefined;
}

const sendable = (what: string, allowTab: boolean) =>
  z
    .string()
    .refine((s) => headerValueProblem(s, allowTab) !== 'control', {
      message: `${what} contains a line break or another control character: paste it again as one line`,
    })
    .refine((s) => headerValueProblem(s, allowTab) !== 'non-latin1', {
      message: `${what} contains a character that cannot be sent in an HTTP header (a typographic quote or an invisible space?)`,
    });

export const HttpUrl = z
  .string()
  .trim()
  .min(1, 'a base URL is required')
  .max(2048)
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// URL');

export const ProfileInput = z
  .object({
    id: z.string().min(1).max(100).optional(),
    name: z.string().trim().min(1, 'a name is required').max(100),
    baseUrl: HttpUrl,
    authScheme: z.enum(AUTH_SCHEMES).default('native'),
    extraHeaders: z.record(headerName, sendable('the value', true).max(8192)).default({}),
    /** A new key; omitted = keep the stored one. */
    key: sendable('the key', false).min(1).max(4096).optional(),
    clearKey: z.boolean().optional(),
    /** Where to keep a new key: the host's best persistent store, or this session only. */
    keyStorage: z.enum(['persist', 'session']).default('persist'),
  })
  .strict();
export type ProfileInput = z.input<typeof ProfileInput>;

const Id = z.object({ id: z.string().min(1).max(100) }).strict();
const Empty = z.object({}).strict();

export const profileCalls = {
  'profiles:list': defineCall<ProfilesState>()(Empty),
  'profiles:save': defineCall<ProfilesState>()(ProfileInput),
  'profiles:delete': defineCall<ProfilesState>()(Id),
  'profiles:select': defineCall<ProfilesState>()(Id),
};
