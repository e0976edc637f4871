/**
 * The shell's window-wide effects: the keyboard map (see shortcuts.ts) and the theme on the document.
 */
import { useEffect } from 'react';
import { useAppStore } from '../../store';
import { selectEffectiveTheme } from '../../store/settings-slice';
import { isProtocolTab } from './tabs';
import { isTyping, shortcutFor, type ShortcutAction } from './shortcuts';

/** One keydown listener on the window for the whole app; `onAction` gets what shortcutFor found. */
export function useGlobalShortcuts(onAction: (action: ShortcutAction) => boolean | void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A control that handled the key (an open list, the editor's autocomplete) prevented it or kept it.
      if (e.defaultPrevented || e.isComposing) return;
      // A modal dialog (Connections, the shortcuts list) owns the keyboard while it is open.
      if (document.querySelector('dialog[open]')) return;
      const action = shortcutFor(e, isTyping(e.target));
      if (!action) return;
      if (onAction(action) === false) return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onAction]);
}

/** The visible tab panel: shortcuts act on what the user sees, not on hidden tabs. */
const panel = () => document.querySelector<HTMLElement>('[role="tabpanel"]:not([aria-label="Run details"])');

/** Clicks the enabled button named `name` in the visible panel; false when there is none. */
function pressButton(name: string): boolean {
  const buttons = [...(panel()?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
  const button = buttons.find((b) => b.textContent?.trim() === name && !b.disabled);
  button?.click();
  return !!button;
}

/**
 * The actions that reach into another feature: Esc stops the run in view (a protocol tab's, every live
 * Compare column's, or History's replay). Returns false when there was nothing to do, so the key keeps its default.
 */
export function runShortcut(action: ShortcutAction): boolean {
  const s = useAppStore.getState();
  if (action.kind === 'stop') {
    // History: the replay in view, by its own Stop (a replay lives in the tab, not in the store).
    if (s.activeTab === 'history') return pressButton('Stop');
    const live = (id: string | undefined): id is string => !!id && !!s.runs[id] && s.runs[id].status !== 'done';
    const ids = isProtocolTab(s.activeTab)
      ? [s.composers[s.activeTab].activeRunId]
      : s.activeTab === 'compare'
        ? s.compareRunIds
        : [];
    const stopping = ids.filter(live);
    for (const id of stopping) void s.runCancelRequested(id);
    return stopping.length > 0;
  }
  if (action.kind === 'request') {
    // Only in a protocol tab: elsewhere the keys keep whatever the host does with them.
    if (!isProtocolTab(s.activeTab)) return false;
    const protocol = s.activeTab;
    if (action.verb === 'new') s.requestOpened(protocol);
    else if (action.verb === 'reopen') {
      if (s.requests[protocol].closed.length === 0) return false;
      s.requestReopened(protocol);
    } else s.requestClosed(protocol, s.requests[protocol].activeId);
    return true;
  }
  // Run all and the model picker bind their own keys where they live (the Compare tab, each composer), so the
  // map only lists them: pressing them here too would run every column twice.
  return false;
}

/** Puts the effective theme on <html> (styles.css keys its colours off data-theme) and follows the OS setting. */
export function useTheme(): void {
  const theme = useAppStore(selectEffectiveTheme);
  const systemSchemeChanged = useAppStore((s) => s.systemSchemeChanged);
  useEffect(() => {
    const query = window.matchMedia?.('(prefers-color-scheme: dark)');
    if (!query) return;
    systemSchemeChanged(query.matches);
    const onChange = (e: MediaQueryListEvent) => systemSchemeChanged(e.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [systemSchemeChanged]);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
}
