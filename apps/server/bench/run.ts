import { benchClusterData } from './clusters-data.js';
import { benchClusterStart } from './clusters-start.js';
import { benchTeam } from './team.js';
import { benchUserMe } from './user-me.js';

// `npm run bench [-- --seconds N]`: every benchmark, one after the other, figures on stdout.
const secondsFlag = process.argv.indexOf('--seconds');
const seconds = secondsFlag > 0 ? Number(process.argv[secondsFlag + 1]) : 10;

await benchUserMe(seconds);
await benchTeam(seconds);
await benchClusterStart();
await benchClusterData(seconds);
