import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      // The contract's modules only declare (names, schemas, constants): one whose exports the renderer does
      // not use is left out whole, so its zod schemas (and zod) stay out of the start-up script
      // (docs/architecture.md §9).
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]shared[\\/]contract[\\/]/.test(id) },
    },
  },
});
