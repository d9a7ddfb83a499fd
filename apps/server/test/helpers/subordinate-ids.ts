import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** How many subordinate uids (and gids) each rig account gets: what rootless podman maps. */
const RANGE = 65_536;

const ranges = (file: string): { name: string; start: number; count: number }[] => {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name = '', start = '0', count = '0'] = line.split(':');
        return { name, start: Number(start), count: Number(count) };
      });
  } catch {
    return [];
  }
};

/**
 * Gives a rig account (an SSH host's, the Slurm jobs') ranges of subordinate uids and gids in
 * /etc/subuid and /etc/subgid, after every range there, once: rootless podman (a container
 * environment's instances on SSH hosts and Slurm, aws/container-script.ts) needs them to start a
 * container as that account.
 */
export function ensureSubordinateIds(account: string): void {
  const uids = ranges('/etc/subuid');
  const gids = ranges('/etc/subgid');
  if (uids.some((r) => r.name === account) && gids.some((r) => r.name === account)) return;
  const end = Math.max(100_000, ...[...uids, ...gids].map((r) => r.start + r.count));
  const range = `${end}-${end + RANGE - 1}`;
  execFileSync('usermod', ['--add-subuids', range, '--add-subgids', range, account], { stdio: 'ignore' });
}
