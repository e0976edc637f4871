/**
 * The app's keyboard map, as data: what each key does and whether it works while typing. App.tsx listens once
 * on the window and asks `shortcutFor`; the shortcuts dialog lists SHORTCUTS, so the two never disagree.
 */
import { TAB_IDS } from '../../../../shared/tabs';
import type { TabId } from '../../store/composer-slice';

/** The tabs in the order of the tab list: Ctrl/Cmd+1…9 pick them. */
export const TAB_ORDER: readonly TabId[] = TAB_IDS;

export type ShortcutAction =
  | { kind: 'tab'; tab: TabId }
  | { kind: 'stop' }
  | { kind: 'run-all' }
  | { kind: 'focus-model' }
  | { kind: 'help' }
  | { kind: 'request'; verb: 'new' | 'close' | 'reopen' };

export const SHORTCUTS: { keys: string; what: string }[] = [
  { keys: 'Ctrl/Cmd+Enter', what: 'Send the request (in a protocol tab)' },
  { keys: 'Esc', what: 'Stop the run in view (from a text field too)' },
  {
    keys: 'Ctrl/Cmd+1 … 9',
    what: 'Messages, Chat Completions, Responses, Compare, History, Presets, Capabilities, Load, Agents',
  },
  { keys: '← → Home End', what: 'Move along the tab list (when a tab has the focus)' },
  { keys: 'Ctrl/Cmd+Shift+Enter', what: 'Run all columns (in Compare)' },
  { keys: 'Ctrl/Cmd+K', what: 'Focus the model picker' },
  { keys: 'Ctrl/Cmd+T', what: 'New request (in a protocol tab)' },
  { keys: 'Ctrl/Cmd+W', what: 'Close the request on view (undoable)' },
  { keys: 'Ctrl/Cmd+Shift+T', what: 'Reopen the last closed request' },
  { keys: '?', what: 'Show these shortcuts' },
];

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** Whether keys typed here are text: a plain key (Esc, ?) then belongs to the field, not to the app. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('.cm-editor')) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement)
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color'].includes(target.type);
  return target instanceof HTMLElement && target.isContentEditable === true;
}

/**
 * The action a key press asks for, or undefined. Modifier shortcuts work anywhere, and so does Esc: after
 * Ctrl/Cmd+Enter the focus is still in the message, and a field has nothing to do with Esc that stopping
 * outranks (a list, autocomplete or dialog that closes on it takes the key first; see use-shell.ts). Other
 * plain keys are text while typing.
 */
export function shortcutFor(e: KeyLike, typing: boolean): ShortcutAction | undefined {
  const mod = (e.ctrlKey || e.metaKey) && !e.altKey;
  if (mod && !e.shiftKey && /^[1-9]$/.test(e.key) && Number(e.key) <= TAB_ORDER.length)
    return { kind: 'tab', tab: TAB_ORDER[Number(e.key) - 1] };
  if (mod && e.shiftKey && e.key === 'Enter') return { kind: 'run-all' };
  if (mod && !e.shiftKey && e.key.toLowerCase() === 'k') return { kind: 'focus-model' };
  if (mod && e.key.toLowerCase() === 't') return { kind: 'request', verb: e.shiftKey ? 'reopen' : 'new' };
  if (mod && !e.shiftKey && e.key.toLowerCase() === 'w') return { kind: 'request', verb: 'close' };
  if (e.ctrlKey || e.metaKey || e.altKey) return undefined;
  if (e.key === 'Escape' && !e.shiftKey) return { kind: 'stop' };
  if (typing) return undefined;
  if (e.key === '?') return { kind: 'help' };
  return undefined;
}

/** Roving focus along a tab list (WAI-ARIA tabs): the index the key moves to, or undefined for other keys. */
export function tabKeyTarget(key: string, at: number, count: number): number | undefined {
  if (key === 'ArrowRight') return (at + 1) % count;
  if (key === 'ArrowLeft') return (at - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return undefined;
}
