import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { hostBundles } from '../../scripts/build.mjs';

describe('the preload bundle', () => {
  it('is built as npm run build builds it, carries the call names, stays under 20 KB and leaves zod out', async () => {
    const result = await build({ ...hostBundles().preload, write: false, sourcemap: false, metafile: true });
    const bundle = result.outputFiles.find((f) => f.path.endsWith('preload.cjs'));
    expect(bundle).toBeDefined();
    expect(bundle!.contents.byteLength).toBeLessThan(20 * 1024);
    expect(Object.keys(result.metafile.inputs).filter((f) => f.includes('node_modules'))).toEqual([]);
    expect(bundle!.text).toContain('"runs:start"');
    expect(bundle!.text).toContain('exposeInMainWorld');
  });
});
