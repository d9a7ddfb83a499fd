import { configDefaults, defineConfig } from 'vitest/config';
import { DATABASE_AGNOSTIC, NETWORK_CHANGING } from './test/helpers/database-agnostic.js';

const onPostgres = Boolean(process.env.DATABASE_URL) && !process.env.CUMULUS_TEST_EVERYTHING_ON_POSTGRES;
const network = process.env.CUMULUS_TEST_NETWORK;
if (network && !['without', 'only'].includes(network))
  throw new Error(`CUMULUS_TEST_NETWORK must be without or only (not ${network})`);

export default defineConfig({
  test: {
    include: network === 'only' ? NETWORK_CHANGING : ['test/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...(onPostgres ? DATABASE_AGNOSTIC : []),
      ...(network === 'without' ? NETWORK_CHANGING : []),
    ],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    // Servers migrate a database of their own before each file: slow when the machine is busy.
    hookTimeout: 120_000,
    // Two cores: more workers only adds contention for the embedded database.
    maxWorkers: 2,
    // No test reaches AWS: an SDK call not pointed at a test's moto_server is refused locally,
    // and no instance metadata service is asked for credentials.
    env: {
      AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
  },
});
