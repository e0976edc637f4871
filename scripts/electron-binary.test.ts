import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDirs } from '../electron/core/testing/temp-dirs';
import { ensureElectron, noElectronSentence, wantsVerbose } from './electron-binary.mjs';

const dirs = tempDirs('gp-electron-bin-');

/** An electron package folder whose install script fails as a download without network does. */
function failingPackage(): string {
  const dir = dirs();
  writeFileSync(
    path.join(dir, 'install.js'),
    "console.error('TypeError: fetch failed\\n    at node:internal/deps/undici/undici:13502:13'); process.exit(1);",
  );
  return dir;
}

describe('npm start: the Electron binary', () => {
  it('where the download fails, keeps its stack out of the terminal and in a log; the sentence names the log', () => {
    const said: string[] = [];
    const logFile = path.join(dirs(), 'install.log');
    const r = ensureElectron({ electronDir: failingPackage(), logFile, out: (t) => said.push(t) });
    expect(r).toEqual({ binary: undefined, log: logFile });
    expect(said).toEqual([]);
    expect(readFileSync(logFile, 'utf8')).toContain('TypeError: fetch failed');
    const sentence = noElectronSentence(logFile, false);
    expect(sentence).toMatch(/^The Electron binary could not be installed .*starting the same app in your browser/);
    expect(sentence).toContain(logFile);
    expect(sentence).not.toMatch(/TypeError|fetch failed/);
  });

  it('with --verbose (or GATEWAY_PLAYGROUND_VERBOSE=1) shows the download’s output too', () => {
    const said: string[] = [];
    const logFile = path.join(dirs(), 'install.log');
    ensureElectron({ electronDir: failingPackage(), logFile, verbose: true, out: (t) => said.push(t) });
    expect(said.join('')).toContain('TypeError: fetch failed');
    expect(wantsVerbose(['--verbose'], {})).toBe(true);
    expect(wantsVerbose([], { GATEWAY_PLAYGROUND_VERBOSE: '1' })).toBe(true);
    expect(wantsVerbose([], { GATEWAY_PLAYGROUND_VERBOSE: '0' })).toBe(false);
    expect(wantsVerbose([], {})).toBe(false);
  });

  it('where the download works, or the binary is there already, gives its path', () => {
    const dir = dirs();
    writeFileSync(
      path.join(dir, 'install.js'),
      "const fs = require('fs'); const p = require('path');" +
        "fs.mkdirSync(p.join(__dirname, 'dist')); fs.writeFileSync(p.join(__dirname, 'dist', 'electron'), '');" +
        "fs.writeFileSync(p.join(__dirname, 'path.txt'), 'electron');",
    );
    const logFile = path.join(dirs(), 'install.log');
    expect(ensureElectron({ electronDir: dir, logFile })).toEqual({ binary: path.join(dir, 'dist', 'electron') });
    const ready = dirs();
    mkdirSync(path.join(ready, 'dist'));
    writeFileSync(path.join(ready, 'dist', 'electron'), '');
    writeFileSync(path.join(ready, 'path.txt'), 'electron');
    expect(ensureElectron({ electronDir: ready, logFile })).toEqual({ binary: path.join(ready, 'dist', 'electron') });
  });
});
