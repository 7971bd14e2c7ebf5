import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: { lib: { entry: 'electron/main/index.ts' }, outDir: 'out/main' },
  },
  preload: {
    build: {
      lib: { entry: 'electron/preload/index.ts' },
      outDir: 'out/preload',
      // CommonJS so the preload runs in a sandboxed renderer.
      rolldownOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: 'renderer',
    build: { outDir: 'out/renderer', rolldownOptions: { input: 'renderer/index.html' } },
    plugins: [react()],
  },
});
