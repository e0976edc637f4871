import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { tempDirs } from '../core/testing/temp-dirs';
import { protocol, resetFakeElectron } from './testing/fake-electron';
import { registerAppScheme, serveRenderer } from './app-protocol';
import { CSP } from './security';

vi.mock('electron', () => import('./testing/fake-electron'));

const dirs = tempDirs('gp-app-protocol-');
let rendererDir: string;
let secretFile: string;

beforeAll(() => {
  resetFakeElectron();
  const root = dirs();
  rendererDir = path.join(root, 'renderer');
  mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Gateway Playground</title>');
  writeFileSync(path.join(rendererDir, 'assets', 'index-abc.js'), 'console.log("app")');
  // Beside the renderer, as keys.json is beside nothing the app serves: reachable only by traversal.
  secretFile = path.join(root, 'keys.json');
  writeFileSync(secretFile, '{"keys":{"p":"sk-secret"}}');
  registerAppScheme();
  serveRenderer(rendererDir);
});

const get = (url: string) => protocol.handlers.get('app')!(new Request(url));

describe('the app:// protocol', () => {
  it('is registered as a standard, secure scheme and serves the built files with the CSP', async () => {
    expect(protocol.privileged).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true } }]);
    const index = await get('app://gateway/index.html');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(CSP);
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await index.text()).toContain('<title>Gateway Playground</title>');
    const root = await get('app://gateway/');
    expect(await root.text()).toContain('Gateway Playground');
    const script = await get('app://gateway/assets/index-abc.js');
    expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect((await get('app://gateway/assets/missing.js')).status).toBe(404);
  });

  it('refuses traversal in every spelling, absolute paths and other hosts', async () => {
    const attempts = [
      'app://gateway/%2e%2e/keys.json',
      'app://gateway/assets/%2e%2e/%2e%2e/keys.json',
      'app://gateway/%2E%2E%2Fkeys.json',
      'app://gateway/..%2fkeys.json',
      'app://gateway/..%5ckeys.json',
      'app://gateway/assets\\..\\..\\keys.json',
      `app://gateway/${encodeURIComponent(secretFile)}`,
      `app://gateway/%2f${secretFile.slice(1)}`,
      'app://gateway//etc/passwd',
      'app://gateway/index.html%00.js',
      'app://other/index.html',
    ];
    for (const url of attempts) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(await res.text(), url).not.toContain('sk-secret');
    }
    expect((await get('app://gateway/%E0%A4%A')).status).toBe(400);
  });
});
