import { benchClusterData } from './clusters-data.js';
import { benchClusterStart } from './clusters-start.js';
import { benchTeam } from './team.js';
import { benchUserMe } from './user-me.js';

// `npm run bench [-- --seconds N] [-- --only NAME]`: every benchmark (or one), figures on stdout.
const flag = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const seconds = Number(flag('--seconds') ?? 10);
const only = flag('--only');
const benches: Record<string, () => Promise<void>> = {
  'user-me': () => benchUserMe(seconds),
  team: () => benchTeam(seconds),
  'cluster-start': () => benchClusterStart(),
  'cluster-data': () => benchClusterData(seconds),
};
for (const [name, run] of Object.entries(benches)) if (!only || only === name) await run();
