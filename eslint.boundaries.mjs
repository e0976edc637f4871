// The import boundaries between layers (docs/architecture.md §3), as ESLint config blocks: eslint.config.mjs
// applies them with the rest of the lint, and scripts/layer-boundaries.test.ts holds the whole tree to them.
import { builtinModules } from 'node:module';

/** Test code may cross a boundary to reach a real part (a shared/ test that drives the simulator). */
export const TESTS = ['**/*.test.ts', '**/*.test.tsx', 'renderer/src/test/**', '**/testing/**'];

const NO_NODE = {
  regex: `^(node:.*|(${builtinModules.join('|')})(/.*)?)$`,
  message: 'Node built-ins belong to electron/core or a host (docs/architecture.md §3).',
};
const NO_ELECTRON_MODULE = {
  regex: '^electron(/.*)?$',
  message: 'Only electron/main and electron/preload import the electron module (docs/architecture.md §2).',
};
const NO_ELECTRON_DIR = {
  group: ['**/electron/**'],
  message: 'The renderer and shared/ reach the core only through the contract (docs/architecture.md §4).',
};
const NO_RENDERER = {
  group: ['**/renderer/**'],
  message: 'Nothing imports the renderer; it imports shared/ only (docs/architecture.md §3).',
};

/** One block per layer: the specifiers its source files may not import, with the reason ESLint prints. */
function boundary(files, patterns) {
  return { files, ignores: TESTS, rules: { 'no-restricted-imports': ['error', { patterns }] } };
}

export const boundaries = [
  boundary(['shared/**'], [NO_NODE, NO_ELECTRON_MODULE, NO_ELECTRON_DIR, NO_RENDERER]),
  boundary(['renderer/**'], [NO_NODE, NO_ELECTRON_MODULE, NO_ELECTRON_DIR]),
  boundary(['electron/core/**'], [NO_ELECTRON_MODULE, NO_RENDERER]),
  boundary(['electron/main/**', 'electron/preload/**', 'electron/web/**'], [NO_RENDERER]),
];
