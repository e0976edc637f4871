/**
 * A collection run as JUnit XML (the format CI systems read): one testsuite per run, one testcase per request,
 * a <failure> naming each expectation that did not hold. Every string is escaped: names and replies come from
 * the user and the gateway.
 */
import type { ExpectationCheck } from './expectations';

export interface JUnitCase {
  name: string;
  /** The folder path, e.g. "Smoke/Tools": JUnit's classname. */
  folder: string;
  durationMs: number;
  passed: boolean;
  checks: readonly ExpectationCheck[];
  /** What ended the run, in words, when it did not complete. */
  reason?: string;
  skipped?: boolean;
}

export interface JUnitSuite {
  name: string;
  startedAt: string;
  cases: readonly JUnitCase[];
}

/** XML 1.0 allows neither most control characters nor lone surrogates: they are dropped. */
const INVALID_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlEscape(text: string): string {
  return text
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function failureOf(c: JUnitCase): string {
  const failed = c.checks.filter((x) => !x.pass);
  const lines = failed.length
    ? failed.map((x) => `expected ${x.expected}${x.actual ? `, got ${x.actual}` : ''}`)
    : [c.reason ?? 'the run did not complete'];
  const message = xmlEscape(lines[0]);
  return `      <failure message="${message}" type="expectation">${xmlEscape(lines.join('\n'))}</failure>\n`;
}

function caseXml(c: JUnitCase): string {
  const open = `    <testcase name="${xmlEscape(c.name)}" classname="${xmlEscape(c.folder || 'collection')}" time="${seconds(c.durationMs)}"`;
  if (c.skipped) return `${open}>\n      <skipped/>\n    </testcase>\n`;
  if (c.passed) return `${open}/>\n`;
  return `${open}>\n${failureOf(c)}    </testcase>\n`;
}

export function toJUnit(suite: JUnitSuite): string {
  const failures = suite.cases.filter((c) => !c.passed && !c.skipped).length;
  const skipped = suite.cases.filter((c) => c.skipped).length;
  const time = seconds(suite.cases.reduce((t, c) => t + c.durationMs, 0));
  const attrs = `tests="${suite.cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}"`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="${xmlEscape(suite.name)}" ${attrs}>\n` +
    `  <testsuite name="${xmlEscape(suite.name)}" timestamp="${xmlEscape(suite.startedAt)}" ${attrs}>\n` +
    suite.cases.map(caseXml).join('') +
    `  </testsuite>\n</testsuites>\n`
  );
}
