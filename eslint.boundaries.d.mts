import type { Linter } from 'eslint';

export const TESTS: string[];
export const boundaries: Linter.Config[];
