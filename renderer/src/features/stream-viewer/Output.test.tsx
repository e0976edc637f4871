import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Output } from './Output';

afterEach(cleanup);

describe('Output', () => {
  it('a finished reply shows HTML-looking text as written: not rendered, not dropped', () => {
    const text = 'Wrap it in a <div> and close with </div>. Use generics: Array<string>.\n\n<img src="x" onerror="alert(1)">\n\n**bold** stays markdown.';
    const transcript = { blocks: [{ kind: 'text' as const, text }], usage: {} };
    const { rerender } = render(<Output transcript={transcript} live={true} />);
    rerender(<Output transcript={transcript} live={false} />);
    const region = screen.getByRole('region', { name: 'Output' });
    expect(region.textContent).toContain('Wrap it in a <div> and close with </div>. Use generics: Array<string>.');
    expect(region.textContent).toContain('<img src="x" onerror="alert(1)">');
    expect(region.querySelector('.markdown img, .markdown div, .markdown string')).toBeNull();
    expect(region.querySelector('.markdown strong')?.textContent).toBe('bold');
  });
});
