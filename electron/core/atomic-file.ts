/**
 * Every file the app keeps is written atomically (temp file, fsync, rename) and read through a schema: a
 * crash mid-write leaves the previous or the new version, never a torn one, and a corrupt file is moved
 * aside and reported instead of stopping start-up.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { StartupProblem } from '../../shared/contract';

export async function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await fs.open(tmp, 'w', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  // The rename is durable only once the directory entry is flushed too (ext4 and friends).
  const dir = await fs.open(path.dirname(file), 'r').catch(() => undefined);
  if (dir) {
    await dir.sync().catch(() => undefined);
    await dir.close();
  }
}

export async function writeJsonAtomic(file: string, value: unknown, mode = 0o600): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n', mode);
}

export type ReadResult<T> = { value: T; problem?: undefined } | { value?: undefined; problem?: StartupProblem };

/**
 * Reads and validates a JSON file. Missing → `{}` (no value, no problem). Unreadable, not JSON, or failing the
 * schema → the file is renamed to `<name>.corrupt-<time>` and a problem is returned for the UI.
 */
export async function readJsonFile<S extends z.ZodType>(file: string, schema: S): Promise<ReadResult<z.output<S>>> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { problem: await moveAside(file, `could not be read (${(err as Error).message})`) };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { problem: await moveAside(file, `is not valid JSON (${(err as Error).message})`) };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first?.path.length ? ` at ${first.path.join('.')}` : '';
    return {
      problem: await moveAside(file, `does not match the expected format${where}: ${first?.message ?? 'invalid'}`),
    };
  }
  return { value: parsed.data };
}

/**
 * Renames a file that cannot be used to `<name>.corrupt-<time>`, so the next save cannot overwrite what it held,
 * and returns the problem to show. `why` completes "<name> …".
 */
export async function moveAside(file: string, why: string): Promise<StartupProblem> {
  const movedTo = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    await fs.rename(file, movedTo);
    return {
      file,
      movedTo,
      message: `${path.basename(file)} ${why}. It was moved aside to ${path.basename(movedTo)}; the app started without it.`,
    };
  } catch {
    return { file, message: `${path.basename(file)} ${why}, and could not be moved aside.` };
  }
}

/**
 * Runs one file's writes one after another, each starting when the previous has landed. Atomic writes started
 * together rename in whatever order their fsyncs finish, so an older version could land last; queued, the last
 * write asked for is the last on disk. A failed write does not stop the ones after it.
 */
export interface WriteQueue {
  <T>(write: () => Promise<T>): Promise<T>;
  /** Resolves once every write queued so far has landed or failed. */
  settled(): Promise<void>;
}

export function writeQueue(): WriteQueue {
  let tail: Promise<unknown> = Promise.resolve();
  const queued = <T>(write: () => Promise<T>): Promise<T> => {
    const next = tail.then(write, write);
    tail = next.catch(() => undefined);
    return next;
  };
  return Object.assign(queued, { settled: () => tail.then(() => undefined) });
}

const FS_REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a file is where a folder should be',
  EEXIST: 'a file is where a folder should be',
  EISDIR: 'a folder is where a file should be',
};

/** A file-system failure in words a user can act on, keeping the errno code to search for. */
export function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code && FS_REASONS[code]) return `${FS_REASONS[code]}, ${code}`;
  return err instanceof Error ? err.message : String(err);
}
