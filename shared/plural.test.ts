import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it('says "1 model" and "2 models", "0 entries" and "1 entry"', () => {
    expect(plural(1, 'model')).toBe('1 model');
    expect(plural(2, 'model')).toBe('2 models');
    expect(plural(0, 'model')).toBe('0 models');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(0, 'entry', 'entries')).toBe('0 entries');
    expect(plural(1200, 'event', 'events', (n) => n.toLocaleString('en-US'))).toBe('1,200 events');
  });
});
