import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rendererFile } from './renderer-files';

const root = path.resolve('/srv/app/renderer');

describe('rendererFile', () => {
  it('maps / to index.html and names files inside the renderer with their content type', () => {
    expect(rendererFile(root, '/')).toEqual({
      file: path.join(root, 'index.html'),
      rel: 'index.html',
      contentType: 'text/html; charset=utf-8',
    });
    expect(rendererFile(root, '/assets/index-abc.js')).toMatchObject({
      file: path.join(root, 'assets/index-abc.js'),
      contentType: 'text/javascript; charset=utf-8',
    });
    expect(rendererFile(root, '/assets/a%20b.css')).toMatchObject({
      file: path.join(root, 'assets/a b.css'),
      contentType: 'text/css; charset=utf-8',
    });
    expect(rendererFile(root, '/blob.bin')).toMatchObject({ contentType: 'application/octet-stream' });
  });

  it('answers 400 for broken percent-encoding instead of throwing', () => {
    for (const bad of ['/%E0%A4%A', '/%', '/assets/%zz.js', '/%C0'])
      expect(rendererFile(root, bad)).toEqual({ status: 400 });
  });

  it('answers 404 for anything outside the renderer folder, however it is spelled', () => {
    for (const outside of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fkeys.json',
      '/..',
      '/%2E%2E%2F%2E%2E%2Fetc/passwd',
      '/a%00.js',
    ]) {
      expect(rendererFile(root, outside)).toEqual({ status: 404 });
    }
    // A sibling folder whose name starts with the root's is outside too.
    expect(rendererFile(root, '/../renderer-evil/x.js')).toEqual({ status: 404 });
  });
});
