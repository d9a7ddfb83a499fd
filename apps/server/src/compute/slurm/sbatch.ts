import { quote } from './login.js';
import type { RestJobAsk } from './rest.js';

/** sbatch's arguments for the ask (a job of one task on one node), each quoted for the shell. */
export function sbatchFlags(ask: RestJobAsk): string {
  return [
    `--job-name=${ask.name}`,
    '--nodes=1',
    '--ntasks=1',
    `--cpus-per-task=${ask.cores}`,
    `--mem=${ask.memoryMib}M`,
    ...(ask.gpus > 0 ? [`--gres=gpu:${ask.gpus}`] : []),
    '--output=slurm-%j.out',
    '--parsable',
    ...(ask.partition ? [`--partition=${ask.partition}`] : []),
    ...(ask.account ? [`--account=${ask.account}`] : []),
    ...(ask.qos ? [`--qos=${ask.qos}`] : []),
    ...(ask.timeLimitMinutes ? [`--time=${ask.timeLimitMinutes}`] : []),
  ]
    .map(quote)
    .join(' ');
}
