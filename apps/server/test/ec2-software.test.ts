import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DescribeInstancesCommand, type Instance } from '@aws-sdk/client-ec2';
import { GetRolePolicyCommand, IAMClient, ListRolePoliciesCommand } from '@aws-sdk/client-iam';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { softwareBuilds } from '../src/db/schema/index.js';
import { findUserBy } from '../src/domains/identity/auth/service.js';
import { createToken } from '../src/domains/identity/tokens/service.js';
import type { Api } from './helpers/api.js';
import { type AwsRig, openAwsRig } from './helpers/aws-rig.js';
import { PYTHON, runPython, waitFor, waitForClusterState } from './helpers/clusters.js';
import { builtEnvironment, uploadWheelPythonLacks } from './helpers/wheels.js';

/**
 * Package sync on vm_aws: a software build runs on a build machine the backend launches in EC2
 * (moto's; the rig boots it from its user-data, which runs `python -m cumulus.agent.build`), the
 * archive it uploads is kept by content hash, and every cluster machine unpacks it at boot and
 * runs Dask from it, so a worker imports a package the image lacks.
 */
const scratch = mkdtempSync(path.join(tmpdir(), 'cumulus-ec2-software-'));
let rig: AwsRig;
let moto: AwsRig['moto'];
let machines: AwsRig['machines'];
let database: AwsRig['database'];
let ts: AwsRig['ts'];
let api: Api;
let slug: string;
let userId: number;

async function buildMachines(buildId: number): Promise<Instance[]> {
  const answer = await rig.ec2().send(
    new DescribeInstancesCommand({
      Filters: [{ Name: 'tag:cumulus:backend-id', Values: [`build-${buildId}`] }],
    }),
  );
  return answer.Reservations?.flatMap((r) => r.Instances ?? []) ?? [];
}

beforeAll(async () => {
  rig = await openAwsRig();
  ({ moto, machines, database, ts, api, slug, userId } = rig);
}, 600_000); // may wait for another file's VMs (Ec2Machines.open)

afterAll(async () => {
  await rig?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function built(name: string, fileId: number) {
  const { build, logs } = await builtEnvironment(
    api,
    slug,
    { name, packages: [{ name: 'aws_synced_pkg', specifier: '==1.0.0', source: 'pip', file: fileId }] },
    240_000,
  );
  const [row] = await database.db.select().from(softwareBuilds).where(eq(softwareBuilds.id, build.id));
  return { build, logs, row: row! };
}

const IMPORT_ON_WORKER = `
import sys, json, tempfile, os
from distributed import Client
from distributed.security import Security
details = json.loads(open(sys.argv[1]).read())
d = tempfile.mkdtemp()
cert, key = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem")
open(cert, "w").write(details["cluster_options"]["tls_cert"])
open(key, "w").write(details["cluster_options"]["tls_key"])
sec = Security(tls_ca_file=cert, tls_client_cert=cert, tls_client_key=key, require_encryption=True)
instance = details["scheduler"]["instance"]
ip = instance["public_ip_address"] or instance["private_ip_address"]
with Client(f"tls://{ip}:{details['scheduler_port']}", security=sec, timeout=60) as client:
    client.wait_for_workers(1, timeout=120)
    def probe():
        import sys, aws_synced_pkg
        return {"value": aws_synced_pkg.VALUE, "python": sys.prefix}
    print(json.dumps(client.submit(probe, pure=False).result(timeout=120)))
`;

describe('package sync on vm_aws', () => {
  it('builds on a build machine in EC2, and a cluster imports the package the image lacks', async () => {
    // The image's Python (what the rig boots every machine with) does not have the package.
    const fileId = await uploadWheelPythonLacks(
      api,
      slug,
      scratch,
      'aws_synced_pkg',
      'from-the-build-machine',
    );

    const first = await built('synced', fileId);
    expect(first.build.reason).toBe('');
    expect(first.build.state).toBe('built');
    expect(first.logs).toContain('Starting a build machine on the vm_aws backend');
    expect(first.logs.some((l) => /Successfully installed aws[-_]synced[-_]pkg-1\.0\.0/.test(l))).toBe(true);
    expect(first.logs.some((l) => l.startsWith('Uploading the environment'))).toBe(true);
    // Kept by content hash: the lockfile's SHA-256 names the archive.
    expect(first.row.location).toBe(
      path.join(
        ts.server.deps.config.dataDir,
        'environments',
        'archives',
        `env-${first.row.lockfileHash}.tar.gz`,
      ),
    );

    // The build ran on its own EC2 instance, tagged as a build machine, which is gone once it ended.
    const [machine] = await buildMachines(first.build.id);
    expect(machine?.Tags?.find((t) => t.Key === 'cumulus:role')?.Value).toBe('build');
    expect(machine?.IamInstanceProfile).toBeUndefined();
    await waitFor('the build machine terminated', async () =>
      (await buildMachines(first.build.id)).every((i) => i.State?.Name === 'terminated'),
    );

    const created = await api.post(`/api/v2/clusters/account/${slug}/`, {
      name: 'synced-on-ec2',
      workers: 1,
      env_name: 'synced',
    });
    expect(created.status).toBe(201);
    await waitForClusterState(api, slug, created.body.id, 'ready', 180_000);
    const details = await waitFor('the addresses EC2 gave', async () => {
      const res = await api.get(`/api/v2/clusters/account/${slug}/id/${created.body.id}`);
      return res.body.scheduler?.instance?.public_ip_address && res.body;
    });
    expect(details.senv_alias).toMatchObject({ name: 'synced' });
    const file = path.join(scratch, 'details.json');
    writeFileSync(file, JSON.stringify(details));
    const answer = JSON.parse(await runPython(IMPORT_ON_WORKER, [file], 240_000));
    expect(answer.value).toBe('from-the-build-machine');
    // Dask runs from the environment the machine unpacked, named by its content hash.
    expect(answer.python).toBe(path.join(machines.workRoot, 'environments', first.row.lockfileHash!));

    // Another environment with the same packages is built (its lockfile is only known then) but
    // keeps no second archive: it shares the first one's.
    const second = await built('synced-again', fileId);
    expect(second.build.state).toBe('built');
    expect(second.row.location).toBe(first.row.location);
    expect(second.logs.some((l) => l.startsWith('The same packages were built before'))).toBe(true);

    await api.delete(`/api/v2/clusters/account/${slug}/id/${created.body.id}`);
  }, 600_000);

  it("the product's Python client syncs a local package the image lacks, and its cluster's worker imports it", async () => {
    // A laptop's environment: the image's Python plus a package installed from a local folder.
    const source = path.join(scratch, 'laptop-src');
    mkdirSync(path.join(source, 'aws_laptop_pkg'), { recursive: true });
    writeFileSync(path.join(source, 'aws_laptop_pkg', '__init__.py'), "VALUE = 'from-my-laptop'\n");
    writeFileSync(
      path.join(source, 'pyproject.toml'),
      '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n' +
        '[project]\nname = "aws-laptop-pkg"\nversion = "0.3.0"\n[tool.setuptools]\npackages = ["aws_laptop_pkg"]\n',
    );
    const venv = path.join(scratch, 'laptop');
    const run = promisify(execFile);
    // No index here: setuptools comes from the system (no build isolation).
    const offline = { ...process.env, PIP_NO_BUILD_ISOLATION: '0', PIP_NO_INDEX: '1' };
    await run(PYTHON, ['-m', 'venv', '--system-site-packages', '--without-pip', venv]);
    await run(path.join(venv, 'bin/python'), ['-m', 'pip', 'install', '--no-deps', source], { env: offline });

    const owner = (await findUserBy(database.db, 'id', userId))!;
    const { token } = await createToken(database.db, owner, { label: 'python-client' });
    const client = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        path.join(venv, 'bin/python'),
        [
          '-c',
          `
import json, cumulus
from distributed import Client
with cumulus.Cluster(name="laptop-on-ec2", n_workers=1, timeout=300) as cluster:
    with Client(cluster) as client:
        client.wait_for_workers(1, timeout=120)
        def probe():
            import sys, aws_laptop_pkg
            return {"value": aws_laptop_pkg.VALUE, "python": sys.prefix}
        print(json.dumps(client.submit(probe, pure=False).result(timeout=120)))
`,
        ],
        {
          timeout: 420_000,
          env: {
            ...offline,
            HOME: mkdtempSync(path.join(tmpdir(), 'py-home-')),
            PYTHONPATH: path.resolve(import.meta.dirname, '../../../python'),
            // The server shares two cores with other test files: an answer may take longer than 6 s.
            CUMULUS_REQUEST_TIMEOUT: '30',
            CUMULUS_SERVER: ts.url,
            CUMULUS_API_TOKEN: token,
          },
        },
        (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      ),
    );
    expect(client.stderr.split('\n').filter((l) => /Error|Traceback/.test(l))).toEqual([]);
    expect(client.code).toBe(0);
    expect(client.stdout).not.toContain('Package sync skipped');
    expect(client.stdout).toMatch(/building aws-laptop-pkg from .*laptop-src into a wheel/);
    const answer = JSON.parse(
      client.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .at(-1)!,
    );
    expect(answer.value).toBe('from-my-laptop');
    expect(answer.python).toContain(path.join(machines.workRoot, 'environments'));
  }, 600_000);
});

describe("the instance role's data access", () => {
  it('is the S3 buckets the admin names (PutRolePolicy), read or read and write, and nothing by default', async () => {
    const iam = new IAMClient({ region: 'us-east-1', endpoint: moto.url, credentials: moto.keys });
    const workspaceId = (await api.get('/api/v2/user/me')).body.default_account.id;
    const role = `cumulus-instances-${workspaceId}`;
    const policies = async () =>
      (await iam.send(new ListRolePoliciesCommand({ RoleName: role }))).PolicyNames;
    const settings = `/api/v2/setup/account/${slug}/aws/settings`;
    expect((await api.get(settings)).body).toMatchObject({ s3_read_buckets: [], s3_read_write_buckets: [] });
    expect(await policies()).toEqual([]);

    const bad = await api.patch(settings, { s3_read_buckets: ['My_Bucket', 'ok-bucket', 'ok-bucket'] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain(
      'A bucket name has lowercase letters, digits, dots and hyphens, and starts and ends with a letter or digit.',
    );
    expect(await policies()).toEqual([]);

    const saved = await api.patch(settings, {
      s3_read_buckets: ['team-datasets', 'shared.results'],
      s3_read_write_buckets: ['shared.results', 'team-scratch'],
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      s3_read_buckets: ['team-datasets', 'shared.results'],
      s3_read_write_buckets: ['shared.results', 'team-scratch'],
    });
    expect(await policies()).toEqual(['cumulus-data-access']);
    const policy = await iam.send(
      new GetRolePolicyCommand({ RoleName: role, PolicyName: 'cumulus-data-access' }),
    );
    const document = JSON.parse(decodeURIComponent(policy.PolicyDocument!));
    expect(document.Statement).toEqual([
      {
        Sid: 'ReadBuckets',
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:GetObjectVersion', 's3:ListBucket', 's3:GetBucketLocation'],
        Resource: ['arn:aws:s3:::team-datasets', 'arn:aws:s3:::team-datasets/*'],
      },
      {
        Sid: 'ReadWriteBuckets',
        Effect: 'Allow',
        Action: [
          's3:GetObject',
          's3:GetObjectVersion',
          's3:ListBucket',
          's3:GetBucketLocation',
          's3:PutObject',
          's3:DeleteObject',
          's3:AbortMultipartUpload',
          's3:ListMultipartUploadParts',
        ],
        Resource: [
          'arn:aws:s3:::shared.results',
          'arn:aws:s3:::shared.results/*',
          'arn:aws:s3:::team-scratch',
          'arn:aws:s3:::team-scratch/*',
        ],
      },
    ]);

    // No bucket left: no policy left.
    await api.patch(settings, { s3_read_buckets: [], s3_read_write_buckets: [] });
    expect(await policies()).toEqual([]);
  });
});
