import { z } from 'zod';
import { defineCall } from './define';
import { SECRET_HEADER } from '../request-headers';
import { AUTH_SCHEMES, type AuthScheme } from '../auth-schemes';

export { AUTH_SCHEMES, type AuthScheme };

export type KeyStorage = 'keychain' | 'file' | 'session' | 'env' | 'none';

/** What the renderer may know about a key: never the key. */
export interface KeyStatus {
  hasKey: boolean;
  /** Last four characters, e.g. "…abcd". */
  hint?: string;
  storage: KeyStorage;
}

/**
 * What the renderer may know about the value of an extra header that carries a credential (its name matches
 * SECRET_HEADER): never the value.
 */
export interface SecretHeaderStatus {
  hasValue: boolean;
  /** Last four characters, e.g. "…abcd". */
  hint?: string;
  /**
   * Where the value is kept. 'profiles-file': saved before such values moved to the vault, on a host with no
   * persistent vault, so it stays in plain text in profiles.json rather than be lost at the next start.
   */
  storage: KeyStorage | 'profiles-file';
}

export interface ProfileView {
  id: string;
  name: string;
  baseUrl: string;
  authScheme: AuthScheme;
  /** Every extra header in order; a secret header's value is always '' here (see secretHeaders). */
  extraHeaders: Record<string, string>;
  /** The status of each secret header's value, by its name in extraHeaders. */
  secretHeaders: Record<string, SecretHeaderStatus>;
  key: KeyStatus;
  /** Built-in profiles cannot be deleted: the embedded demo gateway, and one from environment variables. */
  builtin?: 'demo' | 'env';
}

export interface ProfilesState {
  profiles: ProfileView[];
  activeId: string;
  /** Where the key can be kept on this host, best first. */
  keyStorages: KeyStorage[];
  /**
   * Whether this host can ask the user outside the page (the desktop app's own dialog): only then can a stored
   * key follow a profile to another host. Absent or false in the browser host (docs/security.md §3).
   */
  asksOutsidePage?: boolean;
}

const headerName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'not a valid header name');

/**
 * Headers HTTP/1.1 manages itself: the HTTP client refuses a request that carries them (or, for
 * content-length, one whose value does not match the body it sends). `host` is refused apart (HOST_HEADER_PROBLEM).
 */
export const TRANSPORT_HEADERS = [
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
];

/**
 * A value that can be sent in a header. A key pasted from a wrapped terminal carries a line break: the HTTP
 * client then refuses the header on every request (some clients quote the whole value, key included). Tab is
 * legal inside a header value; a key has no use for it.
 */
/**
 * Why `host` cannot be an extra header: the HTTP client names the TLS server after it and checks the
 * certificate against it, so on a shared edge another site would answer, with the key, while the base URL
 * (all the key-follows-host checks look at) still shows the saved host (docs/security.md §3).
 */
const PROXY_AUTH = 'proxy-authorization';

const HOST_HEADER_PROBLEM =
  'is taken from the base URL: another Host would send the key to another site. Put that host in the base URL instead';

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
    name: z
      .string()
      .trim()
      .min(1, 'a name is required')
      .max(100)
      // The name is quoted in the desktop app's own dialogs: it must not be able to redraw them (docs/security.md §6).
      .refine(
        (s) => !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(s),
        'the name contains a line break, a tab or an invisible or text-direction character: type it again',
      ),
    baseUrl: HttpUrl,
    authScheme: z.enum(AUTH_SCHEMES).default('native'),
    /** Values of secret headers here are new values: they go to the vault with the key, never to profiles.json. */
    extraHeaders: z.record(headerName, sendable('the value', true).max(8192)).default({}),
    /**
     * Secret headers to send with the value already stored, which the renderer never sees: name in
     * extraHeaders (given as '') → the name it is stored under now, the same one or, to rename it, the old one.
     * A secret header in neither place is removed, and its stored value with it.
     */
    keepSecretHeaders: z.record(headerName, headerName).default({}),
    /**
     * Extra headers the user marked secret although their names do not say so (SECRET_HEADER): their values
     * go to the vault and are redacted like a credential's.
     */
    secretHeaders: z.array(headerName).max(100).default([]),
    /**
     * The origin (`https://gw.example.com`) the user would like the stored key and secret header values to
     * follow to. Only a wish: the core then asks the user through the host, outside the page, and a host that
     * cannot ask refuses the save. Without it a save that moves a profile to another origin clears them: a key
     * never follows a host change unasked (docs/security.md §3). Values typed in the same save are for the new
     * origin and are kept.
     */
    keepSecretsForOrigin: z.string().max(2100).optional(),
    /** A new key; omitted = keep the stored one. */
    key: sendable('the key', false).min(1).max(4096).optional(),
    clearKey: z.boolean().optional(),
    /** Make the saved profile the one in use; without it the profile in use stays as it is. */
    use: z.boolean().optional(),
    /** Where to keep a new key and new secret header values: the host's best persistent store, or this session only. */
    keyStorage: z.enum(['persist', 'session']).default('persist'),
  })
  .strict()
  .superRefine((input, ctx) => {
    const seen = new Set<string>();
    for (const name of Object.keys(input.extraHeaders)) {
      // They are sent lowercased and a secret one is stored by its lowercased name: two spellings would collide.
      if (seen.has(name.toLowerCase()))
        ctx.addIssue({
          code: 'custom',
          path: ['extraHeaders', name],
          message: `${name} is given twice (header names ignore case)`,
        });
      seen.add(name.toLowerCase());
      if (TRANSPORT_HEADERS.includes(name.toLowerCase())) {
        ctx.addIssue({
          code: 'custom',
          path: ['extraHeaders', name],
          message: `${name} is set by HTTP itself and cannot be sent as an extra header`,
        });
      }
      if (name.toLowerCase() === 'host')
        ctx.addIssue({ code: 'custom', path: ['extraHeaders', name], message: `${name} ${HOST_HEADER_PROBLEM}` });
    }
    const marked = new Set(input.secretHeaders.map((name) => name.toLowerCase()));
    for (const [name, from] of Object.entries(input.keepSecretHeaders)) {
      const toProxy = name.toLowerCase() === PROXY_AUTH;
      if (toProxy !== (from.toLowerCase() === PROXY_AUTH))
        // One goes to the proxy (in clear on CONNECT), the other to the gateway: neither may get the other's secret.
        ctx.addIssue({
          code: 'custom',
          path: ['extraHeaders', name],
          message: toProxy
            ? `${name} goes to the proxy, so it cannot take the stored value of ${from}, which is the gateway's: type the value`
            : `${name} goes to the gateway, so it cannot take the stored value of ${from}, which is the proxy's: type the value`,
        });
      if (!(name in input.extraHeaders))
        ctx.addIssue({
          code: 'custom',
          path: ['keepSecretHeaders', name],
          message: `${name} is not among the extra headers`,
        });
      else if (input.extraHeaders[name] !== '')
        ctx.addIssue({
          code: 'custom',
          path: ['extraHeaders', name],
          message: `${name}: either keep the stored value or type a new one, not both`,
        });
      else if (!SECRET_HEADER.test(name) && !marked.has(name.toLowerCase())) {
        // Only secret headers are redacted in ledgers and exports, so a stored value cannot become a plain one.
        ctx.addIssue({
          code: 'custom',
          path: ['extraHeaders', name],
          message: `${name} is not marked secret, so its stored value cannot be kept: type the value`,
        });
      }
    }
  });
export type ProfileInput = z.input<typeof ProfileInput>;

const Id = z.object({ id: z.string().min(1).max(100) }).strict();
const Empty = z.object({}).strict();

/**
 * A saved profile by id, or the Connections form as typed (not saved): then the stored key and secret header
 * values are used only while the form's origin is the saved one (docs/security.md §3).
 */
const TestInput = z.union([Id, z.object({ draft: ProfileInput }).strict()]);

/** One try of GET /v1/models with the key under one header, for `profiles:test`. */
export interface AuthAttempt {
  /** The header the key went in; 'none' when the profile has no key. */
  header: 'x-api-key' | 'authorization' | 'none';
  status?: number;
  ok: boolean;
  latencyMs: number;
  /** Why it failed, scrubbed of every secret: the gateway's message or the network error. */
  message?: string;
}

/** What Test connection found: the models listed with the profile as saved, and which auth header the gateway takes. */
export interface ProfileTestResult {
  ok: boolean;
  /** The first page's status with the profile's own auth scheme, or undefined when nothing answered. */
  status?: number;
  latencyMs: number;
  modelCount: number;
  /** The first model ids listed (at most 20). */
  models: string[];
  attempts: AuthAttempt[];
  /** One sentence: which header worked, or what went wrong. */
  summary: string;
}

export const profileCalls = {
  'profiles:list': defineCall<ProfilesState>()(Empty),
  'profiles:save': defineCall<ProfilesState>()(ProfileInput),
  'profiles:delete': defineCall<ProfilesState>()(Id),
  'profiles:select': defineCall<ProfilesState>()(Id),
  'profiles:test': defineCall<ProfileTestResult>()(TestInput),
};
