import { describe, expect, it } from 'vitest';
import { markdownBlocks } from './markdown-blocks';

describe('markdownBlocks', () => {
  it('cuts at blank lines, keeps every character, and never inside a code fence', () => {
    const text = '# Title\n\nFirst para\nstill first.\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\n- one\n- two\n';
    const blocks = markdownBlocks(text);
    expect(blocks).toEqual([
      '# Title\n\n',
      'First para\nstill first.\n\n',
      '```js\nconst a = 1;\n\nconst b = 2;\n```\n\n',
      '- one\n- two\n',
    ]);
    expect(blocks.join('')).toBe(text);
  });

  it('an open fence holds the rest of the text in one block while it streams', () => {
    expect(markdownBlocks('Intro\n\n```py\nx = 1\n\ny = 2')).toEqual(['Intro\n\n', '```py\nx = 1\n\ny = 2']);
  });

  it('a closed block stays the same string as the text grows', () => {
    const early = markdownBlocks('A para.\n\nSecond is gro');
    const later = markdownBlocks('A para.\n\nSecond is growing.\n\nThird');
    expect(later[0]).toBe(early[0]);
    expect(later).toHaveLength(3);
  });

  it('empty and blank-free text are one block', () => {
    expect(markdownBlocks('')).toEqual(['']);
    expect(markdownBlocks('x '.repeat(10))).toEqual(['x '.repeat(10)]);
  });
});
