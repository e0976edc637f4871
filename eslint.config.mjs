// ESLint flat config: type-aware typescript-eslint, React hooks, and the layer boundaries of
// docs/architecture.md §3. `npm run lint` runs it after the per-layer type-checks and before Prettier.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { boundaries, TESTS } from './eslint.boundaries.mjs';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'release/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      '.tmp/**',
      // Ambient globals for tsconfig.shared.json alone (docs/architecture.md §3); no program here includes it.
      'types/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `typeof import('./x')` stays allowed: it is how vi.importOriginal and vi.mock are typed.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, allowDefaultCaseForExhaustiveSwitch: true },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // Contract handlers are `async` so every one returns a Promise, awaited or not; the defects this rule
      // stands for (a forgotten await) are caught by no-floating-promises and no-misused-promises.
      '@typescript-eslint/require-await': 'off',
      // Stripping control characters from gateway text before it is shown is deliberate (shared/errors.ts).
      'no-control-regex': 'off',
    },
  },
  {
    files: TESTS,
    rules: {
      // Tests read parsed JSON and WebSocket frames as `any` on purpose: a wrong shape fails the assertion
      // that reads it. no-explicit-any stays on, so a fake that drifts from the contract still shows.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // `expect(deps.count).toHaveBeenCalled()` passes a vi.fn, which has no `this` to lose.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: [...TESTS, 'e2e/**', 'bench/**'],
    rules: {
      // `getByRole(…) as HTMLInputElement` and `(await page.evaluate(…)) as T` are Testing Library's and
      // Playwright's own idioms; the rule would have every one rewritten as a type argument, to no effect.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  {
    files: ['e2e/**'],
    // Playwright reads a fixture's dependencies from its first parameter: `async ({}, use)` is its API.
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
      // zustand actions are closures over set/get, declared in the slices with method syntax: selecting one
      // (`useAppStore((s) => s.runStartRequested)`) never loses a `this`.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  ...boundaries,
);
