import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    // Servers migrate a database of their own before each file: slow when the machine is busy.
    hookTimeout: 120_000,
    // Two cores: more workers only adds contention for the embedded database.
    maxWorkers: 2,
  },
});
