import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { app, dialog, FakeWebContents, resetFakeElectron, session, shell } from './testing/fake-electron';
import { CSP, hardenSessions, isAppFrame } from './security';
import { metaCspOf, metaPolicy } from '../core/renderer-csp';

vi.mock('electron', () => import('./testing/fake-electron'));

beforeEach(() => {
  resetFakeElectron();
  hardenSessions();
});

function newContents(): FakeWebContents {
  const contents = new FakeWebContents();
  app.emit('web-contents-created', {}, contents);
  return contents;
}

function fire(contents: FakeWebContents, name: string, ...args: unknown[]): boolean {
  let prevented = false;
  contents.emit(name, { preventDefault: () => (prevented = true) }, ...args);
  return prevented;
}

describe('window hardening', () => {
  it('stops every navigation, redirect and webview of any web contents the app creates', () => {
    const contents = newContents();
    expect(fire(contents, 'will-navigate', 'https://example.com/')).toBe(true);
    expect(fire(contents, 'will-navigate', 'app://gateway/index.html')).toBe(true);
    expect(fire(contents, 'will-redirect', 'https://example.com/')).toBe(true);
    expect(fire(contents, 'will-attach-webview', {}, {})).toBe(true);
  });

  it('denies every window.open, and asks, naming the whole address, before a web link goes to the OS browser', async () => {
    const open = newContents().windowOpenHandler!;
    const urls = [
      'https://docs.example.com/page?q=1',
      'http://plain.example.com/',
      'https://user:pass@example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'not a url',
    ];
    // The user says no: nothing opens.
    for (const url of urls) expect(open({ url }), url).toEqual({ action: 'deny' });
    await new Promise((r) => setTimeout(r, 0));
    expect(dialog.asked.map((a) => a.message)).toEqual([
      'Open https://docs.example.com/page?q=1 in your browser?',
      'Open http://plain.example.com/ in your browser?',
    ]);
    expect(shell.opened).toEqual([]);
    // The user says yes: only the link asked about opens.
    dialog.answer = dialog.asked[0].buttons.indexOf('Open in browser');
    for (const url of urls) open({ url });
    await new Promise((r) => setTimeout(r, 0));
    expect(shell.opened).toEqual(['https://docs.example.com/page?q=1', 'http://plain.example.com/']);
  });

  it('a navigation away from the app is stopped, and offered to the OS browser only with a yes', async () => {
    const contents = newContents();
    dialog.answer = 0;
    expect(fire(contents, 'will-navigate', 'https://example.com/away')).toBe(true);
    expect(fire(contents, 'will-navigate', 'app://gateway/index.html')).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(dialog.asked.map((a) => a.message)).toEqual(['Open https://example.com/away in your browser?']);
    expect(shell.opened).toEqual(['https://example.com/away']);
  });

  it('refuses every permission request and check', () => {
    const answers: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      session.defaultSession.permissionRequest!({}, permission, (granted) => answers.push(granted));
    }
    expect(answers).toEqual([false, false, false, false, false]);
    expect(session.defaultSession.permissionCheck!({}, 'media', 'app://gateway')).toBe(false);
  });

  it('accepts contract calls only from the app top frame', () => {
    const frame = (url: string, parent: unknown = null) => ({ url, parent }) as unknown as Electron.WebFrameMain;
    expect(isAppFrame(frame('app://gateway/index.html'))).toBe(true);
    expect(isAppFrame(frame('app://gateway/index.html', {}))).toBe(false);
    expect(isAppFrame(frame('app://gateway.evil/index.html'))).toBe(false);
    expect(isAppFrame(frame('app://gateway@evil/index.html'))).toBe(false);
    expect(isAppFrame(frame('https://gateway/'))).toBe(false);
    expect(isAppFrame(null)).toBe(false);
  });
});

describe('the CSP in the page itself', () => {
  it("repeats Electron's policy as a meta tag, word for word but frame-ancestors (ignored in a tag)", () => {
    const html = readFileSync(path.resolve('renderer/index.html'), 'utf8');
    // The browser host writes its own policy into the tag as it serves the page (electron/web/server.test.ts).
    expect(metaCspOf(html)).toBe(metaPolicy(CSP));
    expect(CSP).toContain("connect-src 'none'");
  });
});
