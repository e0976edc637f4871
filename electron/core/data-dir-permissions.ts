/**
 * Older versions made the data folder, `history/` and their files with the process umask (0755 and 0644 on
 * most systems), so another local user could read every prompt and answer. On start the core tightens what it
 * finds: folders to 0700, files to 0600 (docs/security.md §8). POSIX only: Windows has no such modes.
 *
 * Symbolic links are never followed (neither listed into nor changed): a link in the data folder may point
 * anywhere on the machine. Each entry is opened with O_NOFOLLOW and checked to be the very entry that was
 * listed before its mode changes, so a link swapped in meanwhile is skipped too.
 */
import { constants, promises as fs, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import type { StartupProblem } from '../../shared/contract';
import { describeFsError } from './atomic-file';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
/** Files handled at once in one folder: `history/` may hold 10,000 runs. */
const PARALLEL = 32;

interface Failure {
  path: string;
  err: unknown;
}

/**
 * Tightens the data folder and everything under it; resolves to one problem that names what could not be
 * changed (a file owned by another user, a read-only disk), or undefined. Never rejects for a single entry.
 */
export async function tightenDataDir(
  dataDir: string,
  platform: NodeJS.Platform = process.platform,
): Promise<StartupProblem | undefined> {
  if (platform === 'win32') return undefined;
  const failures: Failure[] = [];
  try {
    // The folder itself is the one the user named, link or not; only what is inside it is never followed.
    const root = await fs.stat(dataDir);
    await tightenChildren(dataDir, true, failures);
    if (loose(root, DIR_MODE)) await fs.chmod(dataDir, DIR_MODE);
  } catch (err) {
    failures.push({ path: dataDir, err });
  }
  return failures.length ? problemOf(dataDir, failures) : undefined;
}

/**
 * Tightens what `dir` holds, its files only when `withFiles`. A subfolder is changed after its contents, so a
 * subfolder found private already had its files made private too (or was made by a version that writes them
 * 0600): its files are not checked again, which spares 10,000 history runs a stat on every start. The data
 * folder's own files are always checked, as the user may have made that folder private by hand.
 */
async function tightenChildren(dir: string, withFiles: boolean, failures: Failure[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    failures.push({ path: dir, err });
    return;
  }
  const files = withFiles ? entries.filter((e) => e.isFile()) : [];
  for (let i = 0; i < files.length; i += PARALLEL) {
    await Promise.all(files.slice(i, i + PARALLEL).map((e) => tightenFile(path.join(dir, e.name), failures)));
  }
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const sub = path.join(dir, e.name);
    const listed = await lstatOf(sub, failures);
    if (!listed?.isDirectory()) continue;
    const wasLoose = loose(listed, DIR_MODE);
    await tightenChildren(sub, wasLoose, failures);
    if (wasLoose) await change(sub, listed, DIR_MODE, failures);
  }
}

async function tightenFile(p: string, failures: Failure[]): Promise<void> {
  const listed = await lstatOf(p, failures);
  if (listed?.isFile() && loose(listed, FILE_MODE)) await change(p, listed, FILE_MODE, failures);
}

/** The entry itself, never what a link points to; undefined when it is gone or cannot be read. */
async function lstatOf(p: string, failures: Failure[]): Promise<Stats | undefined> {
  try {
    return await fs.lstat(p);
  } catch (err) {
    // Gone since it was listed (a run pruned meanwhile): nothing left to protect.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') failures.push({ path: p, err });
    return undefined;
  }
}

/** Sets the mode of the entry `listed` describes, unless a link or another entry took its place meanwhile. */
async function change(p: string, listed: Stats, mode: number, failures: Failure[]): Promise<void> {
  const dirFlag = listed.isDirectory() ? constants.O_DIRECTORY : 0;
  try {
    const handle = await fs.open(p, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | dirFlag);
    try {
      const opened = await handle.stat();
      if (opened.ino === listed.ino && opened.dev === listed.dev) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
  } catch (err) {
    // ELOOP: a link now stands where the entry was listed, and a link is never followed.
    if ((err as NodeJS.ErrnoException).code !== 'ELOOP') failures.push({ path: p, err });
  }
}

/** Group or others may do anything with it. */
function loose(st: Stats, want: number): boolean {
  return (st.mode & 0o777 & ~want) !== 0;
}
function problemOf(dataDir: string, failures: Failure[]): StartupProblem {
  const [first] = failures;
  const name = path.relative(dataDir, first.path) || dataDir;
  const more = failures.length > 1 ? ` and ${failures.length - 1} more` : '';
  return {
    file: dataDir,
    message:
      `${name}${more} in the data folder could not be made private to you (folders 0700, files 0600): ` +
      `${describeFsError(first.err)}. Other users of this computer may be able to read them; ` +
      'make them yours (chown) or remove them.',
  };
}
