/**
 * A question the core asks the user through the host, outside the page: the renderer (or anyone holding the
 * browser host's token) can send any field, so a yes that lets a key reach a new host, or lets a load run
 * spend money, must come from somewhere it cannot forge (docs/security.md §3).
 */
import { RunError } from './errors';

export interface Question {
  /** Short, for the dialog's title bar. */
  title: string;
  /** The question itself, naming what would happen ("Send the saved key of “Work” to api.other.example?"). */
  message: string;
  detail?: string;
}

/**
 * Handed to the core by a host that can ask outside the page (the desktop app's native dialog). A host
 * without one (the browser host) cannot confirm anything: the core then refuses what needs a yes.
 */
export interface Confirmer {
  /** True only when the user chose Yes; a closed or dismissed dialog is No. */
  confirm(question: Question): Promise<boolean>;
}

/**
 * A URL's origin for a question (`https://api.example.com`, with the port when it is not the default): the
 * scheme too, so a move from https to http shows. Never a user name or a path.
 */
export function originShown(url: string): string {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return 'another address';
  }
}

/** Whether requests to `url` would cross a network unencrypted: http: to anywhere but this machine. */
export function unencrypted(url: string): boolean {
  try {
    const u = new URL(url.trim());
    const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return u.protocol === 'http:' && !(host === 'localhost' || host === '::1' || /^127\./.test(host));
  } catch {
    return false;
  }
}

const NAME_SHOWN_MAX = 40;

/**
 * A profile name as a question quotes it: anyone with the window's powers chose it, so it must not be able to
 * redraw the question (line breaks pushing the real host out of sight, a right-to-left override, a closing
 * quote and a host of its own). Invisible and control characters go, whitespace runs become one space, quotes
 * become plain ones, and a long name is cut.
 */
export function nameShown(name: string): string {
  const clean = name
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/[“”„‟"«»]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...clean];
  return chars.length > NAME_SHOWN_MAX ? `${chars.slice(0, NAME_SHOWN_MAX - 1).join('')}…` : clean;
}

/** What a profile that moves to another origin holds that the new host would receive if it were kept. */
export interface MovingSecrets {
  profileName: string;
  fromUrl: string;
  toUrl: string;
  key: boolean;
  headers: boolean;
}

/**
 * Whether a profile moving to another origin keeps its stored key and secret header values. `wish` is the
 * origin the caller asked to keep them for: only a wish, never the decision. With nothing stored there is
 * nothing to ask. With a wish for this very origin the host asks the user outside the page; a host that cannot
 * ask, or a No, saves nothing (a key silently dropped after the user asked to keep it would be a surprise too).
 */
export async function keepOnMove(
  confirmer: Confirmer | undefined,
  moving: MovingSecrets,
  wish: string | undefined,
): Promise<boolean> {
  if (!moving.key && !moving.headers) return false;
  let target: string | undefined;
  try {
    target = new URL(moving.toUrl.trim()).origin;
  } catch {
    target = undefined;
  }
  if (wish === undefined || wish !== target) return false;
  const what =
    moving.key && moving.headers
      ? 'saved key and secret header values'
      : moving.key
        ? 'saved key'
        : 'saved secret header values';
  // The origin first and whole: the name cannot push it out of sight, and a move to plain http shows.
  const plain = unencrypted(moving.toUrl);
  const to = originShown(moving.toUrl);
  const name = nameShown(moving.profileName);
  if (!confirmer) {
    throw new RunError(
      'not_confirmed',
      `Nothing was saved: this window cannot confirm sending the ${what} of “${name}” to ${to}, ` +
        'so they never follow a change of host here. Save without keeping them, then type the key again for the new host.',
    );
  }
  const yes = await confirmer.confirm({
    title: 'Send the saved key to another host?',
    message: `Send the ${what} for ${originShown(moving.fromUrl)} to ${to}${plain ? ', unencrypted (http)' : ''}? (profile “${name}”)`,
    detail:
      (plain ? 'Over http anyone on the network between here and that host can read it. ' : '') +
      `With Yes, every request of this profile sends its ${what} to ${to} from now on. ` +
      'Choose No unless you trust that host with them.',
  });
  if (!yes) {
    throw new RunError(
      'not_confirmed',
      `Nothing was saved: you did not confirm sending the ${what} of “${name}” to ${to}.`,
    );
  }
  return true;
}
