import { describe, expect, it } from 'vitest';
import { isTyping, shortcutFor, tabKeyTarget, TAB_ORDER, type KeyLike } from './shortcuts';

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

  it('Esc and ? act only when no text field has the focus; the modifier shortcuts act anywhere', () => {
    expect(shortcutFor(key('Escape'), false)).toEqual({ kind: 'stop' });
    expect(shortcutFor(key('Escape'), true)).toBeUndefined();
    expect(shortcutFor(key('?', { shiftKey: true }), false)).toEqual({ kind: 'help' });
    expect(shortcutFor(key('?', { shiftKey: true }), true)).toBeUndefined();
    expect(shortcutFor(key('Enter', { ctrlKey: true, shiftKey: true }), true)).toEqual({ kind: 'run-all' });
    expect(shortcutFor(key('k', { metaKey: true }), true)).toEqual({ kind: 'focus-model' });
    // Ctrl+Enter alone is the composer's Send, not the app's.
    expect(shortcutFor(key('Enter', { ctrlKey: true }), true)).toBeUndefined();
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
