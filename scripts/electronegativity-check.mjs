// Electronegativity (Doyensec's Electron misconfiguration scanner) over the desktop host's sources and the
// renderer's page. A finding fails CI unless scripts/electronegativity-allowlist.json accepts it with a reason;
// a scan of a deliberately unsafe window must find its faults, so a scanner that silently reads nothing fails.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportChecks } from './check-report.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** What ships in the desktop app and configures Electron: the host and preload sources (no tests) and the page. */
function stageSources(dir) {
  const files = ['package.json', 'renderer/index.html'];
  for (const sub of ['electron/main', 'electron/preload']) {
    for (const f of readdirSync(path.join(root, sub)))
      if (/\.ts$/.test(f) && !f.endsWith('.test.ts')) files.push(`${sub}/${f}`);
  }
  for (const f of files) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    copyFileSync(path.join(root, f), path.join(dir, f));
  }
  return files.length;
}

const UNSAFE_WINDOW = `import { BrowserWindow } from 'electron';
export const w = new BrowserWindow({
  webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false },
});
w.loadURL('http://example.com/');
`;

/** Runs the scanner on `input` and returns its findings as { check, file, line, level, message }. */
function scan(input, out) {
  const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
  const bin = require.resolve('@doyensec/electronegativity/dist/index.js');
  const run = spawnSync(process.execPath, [bin, '-i', input, '-o', out, '-r', '-v', 'false', '-e', electronVersion], {
    cwd: input,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  if (run.status !== 0) throw new Error(`electronegativity exited ${run.status}: ${run.stderr.slice(-1000)}`);
  const sarif = JSON.parse(readFileSync(out, 'utf8'));
  return sarif.runs[0].results.map((r) => {
    const loc = r.locations?.[0]?.physicalLocation;
    return {
      check: r.ruleId,
      file: loc?.artifactLocation?.uri ?? '',
      line: loc?.region?.startLine,
      level: r.level,
      message: r.message?.text ?? '',
    };
  });
}

/** Each finding is a check: passed when the allowlist accepts it for that file, failed otherwise. */
export function findingChecks(findings, accepted) {
  return findings.map((f) => {
    const ok = accepted.find((a) => a.check === f.check && f.file.replaceAll('\\', '/').endsWith(a.file));
    const where = `${f.file}${f.line ? `:${f.line}` : ''}`;
    return {
      name: `electronegativity ${f.check} at ${where}`,
      ok: Boolean(ok),
      detail: ok ? `accepted: ${ok.reason}` : f.message,
    };
  });
}

function main() {
  const work = mkdtempSync(path.join(os.tmpdir(), 'gp-electronegativity-'));
  const checks = [];
  try {
    const probe = path.join(work, 'probe');
    mkdirSync(probe);
    writeFileSync(path.join(probe, 'unsafe.js'), UNSAFE_WINDOW);
    const caught = scan(probe, path.join(work, 'probe.sarif')).map((f) => f.check);
    const expected = ['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK', 'LIMIT_NAVIGATION_GLOBAL_CHECK'];
    checks.push({
      name: 'electronegativity finds the faults of an unsafe window',
      ok: expected.every((c) => caught.includes(c)),
      detail: `found ${caught.join(', ') || 'nothing'}`,
    });
    const sources = path.join(work, 'app');
    const count = stageSources(sources);
    const findings = scan(sources, path.join(work, 'app.sarif'));
    checks.push({ name: `electronegativity scanned the desktop host (${count} files)`, ok: true });
    const { accepted } = JSON.parse(readFileSync(path.join(root, 'scripts/electronegativity-allowlist.json'), 'utf8'));
    checks.push(...findingChecks(findings, accepted));
  } catch (err) {
    checks.push({ name: 'electronegativity runs', ok: false, detail: err.message });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.exitCode = reportChecks('electronegativity', checks);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
