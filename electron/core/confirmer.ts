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

/** The host part of a URL, for a question: what the user recognises, never a user name or path. */
export function hostOf(url: string): string {
  try {
    return new URL(url.trim()).host;
  } catch {
    return 'another address';
  }
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
  const to = hostOf(moving.toUrl);
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
  if (!confirmer) {
    throw new RunError(
      'not_confirmed',
      `Nothing was saved: this window cannot confirm sending the ${what} of “${moving.profileName}” to ${to}, ` +
        'so they never follow a change of host here. Save without keeping them, then type the key again for the new host.',
    );
  }
  const yes = await confirmer.confirm({
    title: 'Send the saved key to another host?',
    message: `Send the ${what} of “${moving.profileName}” to ${to}?`,
    detail:
      `“${moving.profileName}” was saved for ${hostOf(moving.fromUrl)}. ` +
      `With Yes, every request of this profile sends its ${what} to ${to} from now on. ` +
      'Choose No unless you trust that host with them.',
  });
  if (!yes) {
    throw new RunError(
      'not_confirmed',
      `Nothing was saved: you did not confirm sending the ${what} of “${moving.profileName}” to ${to}.`,
    );
  }
  return true;
}
