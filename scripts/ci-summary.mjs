// Sums every suite into the one line CI reads: "N passed, N failed" (plus skipped when any).
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const stage = (name) =>
  existsSync(`.tmp/stage-${name}`) ? readFileSync(`.tmp/stage-${name}`, 'utf8').trim() : 'missing';

for (const name of ['lint', 'build']) {
  if (stage(name) === 'ok') passed++;
  else {
    failed++;
    console.log(`stage ${name}: ${stage(name)}`);
  }
}

// Stages made of named checks (scripts/check-report.mjs): each check counts on its own.
for (const name of ['package', 'electronegativity']) {
  const file = `.tmp/checks-${name}.json`;
  if (!existsSync(file)) {
    failed++;
    console.log(`${name}: no results`);
    continue;
  }
  const { checks } = JSON.parse(readFileSync(file, 'utf8'));
  const bad = checks.filter((c) => !c.ok);
  passed += checks.length - bad.length;
  failed += bad.length;
  console.log(`${name}: ${checks.length - bad.length} passed, ${bad.length} failed`);
  for (const c of bad) console.log(`  failed: ${c.name}`);
}

/** A Vitest JSON report counted test by test; `label` names it in the summary. */
function vitestReport(file, label) {
  if (!existsSync(file)) {
    failed++;
    console.log(`${label}: no results`);
    return;
  }
  const v = JSON.parse(readFileSync(file, 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
  skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  if (v.numFailedTestSuites && !v.numFailedTests) failed += v.numFailedTestSuites;
  console.log(`${label}: ${v.numPassedTests} passed, ${v.numFailedTests} failed`);
}
vitestReport('.tmp/vitest.json', 'unit');
// The same suite on Node 22, the Node the desktop app's core runs on (.ci/run).
vitestReport('.tmp/vitest-node22.json', 'unit (Node 22)');

/** The tests that failed and then passed on their retry, as "file:line › title". */
function flakyTitles(suites) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? [])
      .filter((spec) => spec.tests.some((t) => t.status === 'flaky'))
      .map((spec) => `${spec.file}:${spec.line} › ${spec.title}`),
    ...flakyTitles(suite.suites ?? []),
  ]);
}

if (existsSync('.tmp/playwright.json')) {
  const p = JSON.parse(readFileSync('.tmp/playwright.json', 'utf8'));
  const s = p.stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  skipped += s.skipped ?? 0;
  if (p.errors?.length) failed += p.errors.length;
  console.log(
    `e2e: ${(s.expected ?? 0) + (s.flaky ?? 0)} passed, ${s.unexpected ?? 0} failed, ${s.skipped ?? 0} skipped`,
  );
  for (const title of flakyTitles(p.suites ?? [])) console.log(`  flaky (failed, then passed on its retry): ${title}`);
} else {
  failed++;
  console.log('e2e: no results');
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
