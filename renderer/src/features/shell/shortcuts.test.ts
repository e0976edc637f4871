import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import { isTyping, shortcutFor, tabKeyTarget, TAB_ORDER, type KeyLike, type ShortcutAction } from './shortcuts';
import { useGlobalShortcuts } from './use-shell';

const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('the keyboard map', () => {
  it('Ctrl or Cmd with 1…9 picks the tabs in the order of the tab list, even while typing', () => {
    expect(TAB_ORDER.map((_, i) => shortcutFor(key(String(i + 1), { ctrlKey: true }), true))).toEqual(
      TAB_ORDER.map((tab) => ({ kind: 'tab', tab })),
    );
    expect(shortcutFor(key('4', { metaKey: true }), false)).toEqual({ kind: 'tab', tab: 'compare' });
    expect(shortcutFor(key(String(TAB_ORDER.length + 1), { ctrlKey: true }), false)).toBeUndefined();
    expect(shortcutFor(key('1'), false)).toBeUndefined();
  });

  it('? acts only when no text field has the focus; Esc and the modifier shortcuts act anywhere', () => {
    expect(shortcutFor(key('Escape'), false)).toEqual({ kind: 'stop' });
    // After Ctrl/Cmd+Enter the focus is in the message: Esc from there stops the run too.
    expect(shortcutFor(key('Escape'), true)).toEqual({ kind: 'stop' });
    expect(shortcutFor(key('Escape', { ctrlKey: true }), true)).toBeUndefined();
    expect(shortcutFor(key('?', { shiftKey: true }), false)).toEqual({ kind: 'help' });
    expect(shortcutFor(key('?', { shiftKey: true }), true)).toBeUndefined();
    expect(shortcutFor(key('Enter', { ctrlKey: true, shiftKey: true }), true)).toEqual({ kind: 'run-all' });
    expect(shortcutFor(key('k', { metaKey: true }), true)).toEqual({ kind: 'focus-model' });
    // Ctrl+Enter alone is the composer's Send, not the app's.
    expect(shortcutFor(key('Enter', { ctrlKey: true }), true)).toBeUndefined();
  });

  it('Ctrl/Cmd+T opens a request, Ctrl/Cmd+W closes it and Ctrl/Cmd+Shift+T reopens it, even while typing', () => {
    expect(shortcutFor(key('t', { ctrlKey: true }), true)).toEqual({ kind: 'request', verb: 'new' });
    expect(shortcutFor(key('T', { metaKey: true, shiftKey: true }), true)).toEqual({ kind: 'request', verb: 'reopen' });
    expect(shortcutFor(key('w', { ctrlKey: true }), false)).toEqual({ kind: 'request', verb: 'close' });
    expect(shortcutFor(key('w', { ctrlKey: true, shiftKey: true }), false)).toBeUndefined();
    expect(shortcutFor(key('t'), false)).toBeUndefined();
  });

  it('arrows wrap along the tab list; Home and End go to its ends', () => {
    expect(tabKeyTarget('ArrowRight', 6, 7)).toBe(0);
    expect(tabKeyTarget('ArrowLeft', 0, 7)).toBe(6);
    expect(tabKeyTarget('ArrowRight', 2, 7)).toBe(3);
    expect(tabKeyTarget('End', 2, 7)).toBe(6);
    expect(tabKeyTarget('Home', 5, 7)).toBe(0);
    expect(tabKeyTarget('ArrowDown', 5, 7)).toBeUndefined();
  });

  it('counts text inputs, text areas and the JSON editor as typing, not checkboxes or buttons', () => {
    const text = document.createElement('input');
    const box = Object.assign(document.createElement('input'), { type: 'checkbox' });
    const editor = document.createElement('div');
    editor.className = 'cm-editor';
    const line = editor.appendChild(document.createElement('div'));
    expect([text, document.createElement('textarea'), line].map(isTyping)).toEqual([true, true, true]);
    expect([box, document.createElement('button'), document.body].map(isTyping)).toEqual([false, false, false]);
  });
});

describe('the window-wide listener', () => {
  const press = (target: Element, prevent = false) => {
    const e = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    if (prevent) target.addEventListener('keydown', (k) => k.preventDefault(), { once: true });
    target.dispatchEvent(e);
  };

  it('Esc in the message field asks to stop; an Esc a list or autocomplete took for itself does not', () => {
    const actions: ShortcutAction[] = [];
    const hook = renderHook(() => useGlobalShortcuts((a) => void actions.push(a)));
    const message = document.body.appendChild(document.createElement('textarea'));
    message.focus();
    press(message);
    expect(actions).toEqual([{ kind: 'stop' }]);
    press(message, true);
    expect(actions).toHaveLength(1);
    message.remove();
    hook.unmount();
  });
});
