import { describe, expect, it } from 'vitest';
import { markdownCost, tooCostly } from './markdown-limits';

describe('markdownCost: what a block would make, before it is parsed', () => {
  it('counts list and quote nesting, and nesting by indentation', () => {
    expect(markdownCost('- a\n  - b\n    - c').depth).toBe(3);
    expect(markdownCost('> > quoted\n> 1. item').depth).toBe(2);
    expect(markdownCost('- '.repeat(1500) + 'x').depth).toBe(1500);
    expect(markdownCost('>'.repeat(7980)).depth).toBe(7980);
  });

  it('counts inline nesting: brackets and emphasis that open', () => {
    expect(markdownCost('Some **bold**, _it_, ~~gone~~ and [a link](https://x.y).').depth).toBeLessThanOrEqual(2);
    expect(markdownCost('snake_case_name and 2 * 3 * 4').depth).toBe(0);
    expect(markdownCost('*_'.repeat(100) + 'a' + '_*'.repeat(100)).depth).toBe(200);
    expect(markdownCost('*a '.repeat(100) + 'x' + ' a*'.repeat(100)).depth).toBe(100);
    expect(markdownCost('!['.repeat(100) + 'a' + '](u)'.repeat(100)).depth).toBe(100);
  });

  it('counts table cells as GFM pads them: the header width times the rows', () => {
    expect(markdownCost('| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 |').cells).toBe(6);
    expect(markdownCost('|' + 'a|'.repeat(1000) + '\n|' + '-|'.repeat(1000) + '\n' + 'x\n'.repeat(1992)).cells).toBe(
      1_993_000,
    );
    expect(markdownCost('Title\n---\ntext').cells).toBe(0);
  });

  it('skips fenced code, whatever it holds', () => {
    expect(markdownCost('```\n' + '>'.repeat(500) + '\n|-|-|\n```').depth).toBe(0);
  });
});

describe('tooCostly', () => {
  it('says why a block is shown as text, or nothing for ordinary Markdown', () => {
    expect(tooCostly('# Head\n\n- a\n  - b\n\n| k | v |\n|---|---|\n| 1 | 2 |')).toBeUndefined();
    expect(tooCostly('- '.repeat(33) + 'x')).toBe('nested 33 deep');
    expect(tooCostly('|' + 'a|'.repeat(100) + '\n|' + '-|'.repeat(100) + '\n' + 'x\n'.repeat(50))).toBe(
      'a table of 5,100 cells',
    );
  });
});
