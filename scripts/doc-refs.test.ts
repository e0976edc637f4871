/**
 * Every pointer at a document must be followable from a fresh clone: a `*.md` named in a tracked file resolves
 * to a tracked file (beside the file that names it, or from the repository root), and a `§N` after it names a
 * heading that exists there. Files still pointing outside the repository are listed in doc-refs-pending.txt;
 * scripts/repoint-doc-refs.sh repoints them and deletes that list.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const PENDING = 'scripts/doc-refs-pending.txt';
/** These two are about references: their sample text is not a reference. */
const SELF = new Set(['scripts/doc-refs.test.ts', 'scripts/repoint-doc-refs.sh']);
const SCANNED = /\.(ts|tsx|mts|cts|js|mjs|cjs|html|css|sh)$|^docs\/.*\.md$|^README\.md$|^\.ci\//;

const SECTION = String.raw`§S?\d+(?:\.\d+)*(?:[–-]S?\d+(?:\.\d+)*)?`;
const REF = new RegExp(String.raw`(?<![\w./:@-])((?:[\w.-]+/)*[\w.-]+\.md)\b((?:\s*(?:,|/|and)?\s*${SECTION})*)`, 'g');

export interface DocRef {
  file: string;
  line: number;
  doc: string;
  sections: string[];
}

/** The document references in one file's text; a path under a host name (`github.com/…/x.md`) is a URL. */
export function findRefs(file: string, text: string): DocRef[] {
  const refs: DocRef[] = [];
  text.split('\n').forEach((lineText, i) => {
    for (const m of lineText.matchAll(REF)) {
      if (/^[\w-]+(\.[\w-]+)+\//.test(m[1])) continue;
      const sections = [...m[2].matchAll(/§(S?\d+(?:\.\d+)*)(?:[–-](S?\d+(?:\.\d+)*))?/g)].flatMap((s) =>
        s[2] ? [s[1], s[2]] : [s[1]],
      );
      refs.push({ file, line: i + 1, doc: m[1], sections });
    }
  });
  return refs;
}

/**
 * The section numbers a Markdown document carries: its numbered headings (`## 5. One run`, `### 1.7 …`,
 * `### S3.4 …`), and the numbered list items directly under a heading, as its subsections (item 10 under
 * `## 9. Checklist` is §9.10).
 */
export function headingNumbers(markdown: string): Set<string> {
  const found = new Set<string>();
  let section: string | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^#{1,6}\s+§?(S?\d+(?:\.\d+)*)\.?(?=\s|$)/.exec(line);
    if (heading) {
      section = heading[1];
      found.add(section);
    } else if (/^#{1,6}\s/.test(line)) {
      section = undefined;
    } else if (section) {
      const item = /^(\d+)\.\s/.exec(line);
      if (item) found.add(`${section}.${item[1]}`);
    }
  }
  return found;
}

/** What is wrong with each reference, given the tracked files and a reader of their text. */
export function problemsOf(refs: DocRef[], tracked: Set<string>, read: (path: string) => string): string[] {
  const problems: string[] = [];
  for (const ref of refs) {
    const target = [normalize(join(dirname(ref.file), ref.doc)), normalize(ref.doc)].find((p) => tracked.has(p));
    const where = `${ref.file}:${ref.line}`;
    if (!target) {
      problems.push(`${where}: ${ref.doc} is not in the repository`);
      continue;
    }
    const headings = headingNumbers(read(target));
    for (const s of ref.sections) {
      if (!headings.has(s)) problems.push(`${where}: ${target} has no §${s}`);
    }
  }
  return problems;
}

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
}

function pendingFiles(): string[] {
  const path = join(ROOT, PENDING);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

describe('document references', () => {
  const tracked = trackedFiles();
  const trackedSet = new Set(tracked);
  const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
  const problemsIn = (file: string) => problemsOf(findRefs(file, read(file)), trackedSet, read);
  const scanned = tracked.filter((f) => SCANNED.test(f) && !SELF.has(f) && existsSync(join(ROOT, f)));

  it('resolve inside the repository, to sections that exist', () => {
    const pending = new Set(pendingFiles());
    const problems = scanned.filter((f) => !pending.has(f)).flatMap(problemsIn);
    expect(problems).toEqual([]);
  });

  it(`leave ${PENDING} only files that still point outside the repository`, () => {
    const settled = pendingFiles().filter((f) => !existsSync(join(ROOT, f)) || problemsIn(f).length === 0);
    expect(settled, `remove these from ${PENDING}`).toEqual([]);
  });

  it('are read from comments as people write them, and a wrong one is reported', () => {
    const text = [
      '// runs (docs/architecture.md §5, §9.2, §9.3); relays (docs/protocols.md §S3.4–S3.6)',
      '/* protocols.md §1.7/§1.8 */ see https://example.invalid/guide.md and github.com/o/r/README.md',
    ].join('\n');
    const refs = findRefs('electron/core/x.ts', text);
    expect(refs.map((r) => [r.doc, r.sections])).toEqual([
      ['docs/architecture.md', ['5', '9.2', '9.3']],
      ['docs/protocols.md', ['S3.4', 'S3.6']],
      ['protocols.md', ['1.7', '1.8']],
    ]);
    const docs: Record<string, string> = {
      'docs/architecture.md': '# A\n## 5. One run\n## 9. Budgets\n1. first\n2. second\n',
      'docs/protocols.md': '## S3. Quirks\n### S3.4 Errors\n',
    };
    const problems = problemsOf(refs, new Set(Object.keys(docs)), (p) => docs[p]);
    expect(problems).toEqual([
      'electron/core/x.ts:1: docs/architecture.md has no §9.3',
      'electron/core/x.ts:1: docs/protocols.md has no §S3.6',
      'electron/core/x.ts:2: protocols.md is not in the repository',
    ]);
  });
});
