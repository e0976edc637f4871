import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { toJUnit } from './junit';

describe('JUnit export', () => {
  const xml = toJUnit({
    name: 'Smoke <&> "tests"',
    startedAt: '2026-11-28T03:00:00.000Z',
    cases: [
      {
        name: 'Hello',
        folder: 'Smoke',
        durationMs: 1234,
        passed: true,
        checks: [{ expected: 'verdict complete', pass: true }],
      },
      {
        name: 'Tool \u0007call',
        folder: 'Smoke/Tools',
        durationMs: 20,
        passed: false,
        checks: [{ expected: 'calls get_weather', pass: false, actual: 'no tool call' }],
      },
      { name: 'Broken', folder: '', durationMs: 5, passed: false, checks: [], reason: 'HTTP 500 </failure><x>' },
    ],
  });

  it('parses as XML with one testcase per request and the failure counts', () => {
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    const suite = doc.testsuites.testsuite;
    expect(suite.name).toBe('Smoke <&> "tests"');
    expect(suite.tests).toBe('3');
    expect(suite.failures).toBe('2');
    expect(suite.testcase.map((c: { name: string }) => c.name)).toEqual(['Hello', 'Tool call', 'Broken']);
    expect(suite.testcase[0].time).toBe('1.234');
    expect(suite.testcase[1].failure.message).toBe('expected calls get_weather, got no tool call');
    expect(suite.testcase[2].failure.message).toBe('HTTP 500 </failure><x>');
    expect(suite.testcase[2].classname).toBe('collection');
  });
});
