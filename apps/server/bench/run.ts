import { benchBatch } from './batch.js';
import { benchBatchScale } from './batch-scale.js';
import { benchClusterData } from './clusters-data.js';
import { benchClusterStart } from './clusters-start.js';
import { benchControlPlane } from './control-plane.js';
import { benchEc2 } from './ec2.js';
import { benchHotPaths } from './http/hot-paths.js';
import { benchNewcomer } from './newcomer.js';
import { benchRestart } from './restart.js';
import { benchRunAndFunction } from './run-and-function.js';
import { benchSoftware } from './software.js';
import { benchSshStart } from './ssh-start.js';
import { benchTeam } from './team.js';
import { benchUsage } from './usage.js';

// `npm run bench [-- --seconds N] [-- --only NAME] [-- --postgres] [-- --profile DIR]`: every
// benchmark (or one), figures on stdout. --postgres also measures the HTTP hot paths on a throwaway
// PostgreSQL database at 127.0.0.1:5432 (DATABASE_URL set does too); --profile writes the server's
// CPU profiles there.
const flag = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const seconds = Number(flag('--seconds') ?? 10);
const only = flag('--only');
const benches: Record<string, () => Promise<void>> = {
  'hot-paths': () =>
    benchHotPaths({ seconds, postgres: process.argv.includes('--postgres'), profileDir: flag('--profile') }),
  team: () => benchTeam(seconds),
  'cluster-start': () => benchClusterStart(),
  'cluster-data': () => benchClusterData(seconds),
  'control-plane': () => benchControlPlane(seconds, flag('--profile')),
  software: () => benchSoftware(),
  batch: () => benchBatch(),
  'batch-scale': () => benchBatchScale(),
  usage: () => benchUsage(),
  ec2: () => benchEc2(),
  newcomer: () => benchNewcomer(),
  'run-function': () => benchRunAndFunction(),
  restart: () => benchRestart(),
  'ssh-start': () => benchSshStart(),
};
for (const [name, run] of Object.entries(benches)) if (!only || only === name) await run();
