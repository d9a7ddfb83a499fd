import { startSlurmRig } from './slurm.js';

/**
 * The Slurm rig for tests outside this package (the Python client's): started, described in one
 * line of JSON on stdout (`conf`, `partition`, `cores`, `memory_mib`; with `rest`, slurmrestd's
 * `rest_url`, `rest_user` and a `rest_token` of that user), stopped when stdin closes.
 * `node --import tsx apps/server/test/helpers/slurm-rig-main.ts [cores] [memory MiB] [rest]`.
 */
const [cores, memoryMib] = process.argv.slice(2, 4).map(Number);
const rest = process.argv[4] === 'rest';
const rig = await startSlurmRig({ cores: cores || 4, memoryMib: memoryMib || 4096, rest });
let closing = false;
const close = async () => {
  if (closing) return;
  closing = true;
  await rig.close();
  process.exit(0);
};
process.on('SIGTERM', close);
process.stdin.on('end', close).on('close', close).resume();
process.stdout.write(
  `${JSON.stringify({
    conf: rig.conf,
    partition: rig.partition,
    cores: rig.cores,
    memory_mib: rig.memoryMib,
    ...(rig.rest && { rest_url: rig.rest.url, rest_user: rig.rest.user, rest_token: rig.rest.token() }),
  })}\n`,
);
