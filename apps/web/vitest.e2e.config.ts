import { defineConfig } from 'vitest/config';

// Browser journeys: the built console on the real server, driven in Debian's Chromium.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/harness/global-setup.ts'],
    // One server and one browser at a time: the machine has two cores.
    fileParallelism: false,
    // Generous: the Python suite runs beside this one in `npm test` (scripts/test.sh).
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
