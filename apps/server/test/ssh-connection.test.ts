import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOn, type SshTarget } from '../src/compute/ssh/connection.js';
import { RIG_LOCK_WAIT_MS, type SshRig, startSshRig } from './helpers/ssh-hosts.js';

/** The SSH rig's real sshd hosts, reached with ssh2 and the host key pinned. */
let rig: SshRig;
let target: SshTarget;

beforeAll(async () => {
  rig = await startSshRig(2);
  const host = rig.hosts[1]!;
  target = {
    name: 'rig-2',
    address: host.address,
    port: host.port,
    user: rig.user,
    privateKey: rig.privateKey,
    hostKey: host.hostKey,
  };
}, RIG_LOCK_WAIT_MS + 60_000);
afterAll(async () => {
  await rig?.close();
});

describe('ssh connection', () => {
  it('runs a command as the host account, its stdin given, when the host presents the pinned key', async () => {
    const result = await runOn(target, 'id -un; cat', { stdin: 'hello' });
    expect(result).toEqual({ code: 0, stdout: `${rig.user}\nhello`, stderr: '' });
  });

  it("refuses a host presenting a key other than the pinned one (another host's), before running anything", async () => {
    await expect(
      runOn({ ...target, hostKey: rig.hosts[0]!.hostKey }, `touch ${rig.home}/ran`),
    ).rejects.toMatchObject({
      kind: 'host_key',
      message:
        'rig-2 presented a host key other than the one pinned for it: refused (if the host was reinstalled, pin its new key).',
    });
    expect((await runOn(target, `test -e ${rig.home}/ran; echo $?`)).stdout).toBe('1\n');
  });

  it('runs commands over one shared connection, more than one at once, a new one where asked', async () => {
    // The client's port as sshd sees it (SSH_CONNECTION): the same port, the same connection.
    const portOf = async (options = {}) =>
      (await runOn(target, 'echo $SSH_CONNECTION', options)).stdout.split(' ')[1];
    const first = await portOf();
    expect(await portOf()).toBe(first);
    expect(await portOf({ reuse: false })).not.toBe(first);
    // More commands at once than a connection takes channels (8; sshd allows 10): all run.
    const many = await Promise.all(
      Array.from({ length: 12 }, () => runOn(target, 'sleep 0.3; echo $SSH_CONNECTION')),
    );
    const ports = new Set(many.map((r) => r.stdout.split(' ')[1]));
    expect(many.every((r) => r.code === 0)).toBe(true);
    expect(ports.size).toBeGreaterThanOrEqual(2);
  });

  it('runs the next command on a new connection once the shared one is gone', async () => {
    const before = (await runOn(target, 'echo $SSH_CONNECTION')).stdout.split(' ')[1];
    // The sshd process serving the connection ends (the shell's parent): the command with it.
    await runOn(target, 'kill -KILL $PPID').catch(() => undefined);
    const after = await runOn(target, 'echo $SSH_CONNECTION');
    expect(after.code).toBe(0);
    expect(after.stdout.split(' ')[1]).not.toBe(before);
  });

  it('says a host that is not there is unreachable', async () => {
    await rig.hosts[0]!.stop();
    await expect(
      runOn({ ...target, address: rig.hosts[0]!.address, hostKey: rig.hosts[0]!.hostKey }, 'true'),
    ).rejects.toMatchObject({ kind: 'unreachable' });
    await rig.hosts[0]!.start();
  });
});
