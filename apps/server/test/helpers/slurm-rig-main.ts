import { startSlurmRig } from './slurm.js';

/**
 * The Slurm rig for tests outside this package (the Python client's): started, described in one
 * line of JSON on stdout (`conf`, `partition`, `cores`, `memory_mib`), stopped when stdin closes.
 * `node --import tsx apps/server/test/helpers/slurm-rig-main.ts [cores] [memory MiB]`.
 */
const [cores, memoryMib] = process.argv.slice(2).map(Number);
const rig = await startSlurmRig({ cores: cores || 4, memoryMib: memoryMib || 4096 });
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
  `${JSON.stringify({ conf: rig.conf, partition: rig.partition, cores: rig.cores, memory_mib: rig.memoryMib })}\n`,
);
