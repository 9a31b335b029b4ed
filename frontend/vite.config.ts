import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

// Vite empties dist/ on every build; Go's //go:embed all:frontend/dist needs the folder to
// hold at least one file in a clean checkout, so the tracked placeholder is put back.
function keepDistPlaceholder(): Plugin {
  return {
    name: 'hearth-keep-dist-placeholder',
    apply: 'build',
    closeBundle() {
      writeFileSync(resolve(import.meta.dirname, 'dist/.gitkeep'), '');
    },
  };
}

export default defineConfig({
  plugins: [svelte(), keepDistPlaceholder()],
  build: { target: 'es2022', chunkSizeWarningLimit: 1500 },
  resolve: process.env.VITEST ? { conditions: ['browser'] } : undefined,
  test: {
    environment: 'jsdom',
    globals: true,
    include: ['src/**/*.test.ts'],
    setupFiles: ['src/test-setup.ts'],
  },
});
