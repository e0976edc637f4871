/**
 * A bench module bundled as the shipped hosts bundle the core (scripts/build.mjs hostBundles: esbuild, node20,
 * ESM, packages external), so a bench measures the code users run. Run through tsx instead, every closure the
 * core makes also pays tsx's keep-names wrapper (an Object.defineProperty per function made), a cost the
 * shipped bundle does not have: about a tenth of a load request's CPU.
 */
import { build } from 'esbuild';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { hostBundles } from '../scripts/build.mjs';

export async function bundled(entry: string): Promise<string> {
  const { web } = hostBundles();
  const outfile = path.join(web.absWorkingDir ?? process.cwd(), '.tmp', 'bench', `${path.basename(entry, '.ts')}.mjs`);
  await build({ ...web, entryPoints: [entry], outfile });
  return outfile;
}

export async function importBundled<T>(entry: string): Promise<T> {
  return (await import(pathToFileURL(await bundled(entry)).href)) as T;
}
