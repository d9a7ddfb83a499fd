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

  it('says a host that is not there is unreachable', async () => {
    await rig.hosts[0]!.stop();
    await expect(
      runOn({ ...target, address: rig.hosts[0]!.address, hostKey: rig.hosts[0]!.hostKey }, 'true'),
    ).rejects.toMatchObject({ kind: 'unreachable' });
    await rig.hosts[0]!.start();
  });
});
