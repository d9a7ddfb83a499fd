import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // One jsdom and one module graph per worker, not per file: 72 files in about 40 s instead of
    // 180 (jsdom's setup and the imports were three quarters of it). What a file leaves behind
    // (storage, timers, stubs, the address) is reset after each file by src/test/setup.ts.
    isolate: false,
    // jsdom pages that click through menus take seconds on a busy two-core machine, not five.
    testTimeout: 20_000,
  },
});
