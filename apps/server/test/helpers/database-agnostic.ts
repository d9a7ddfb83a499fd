/**
 * Test files whose subject is not the database: processes (real Dask, builds, Jupyter), AWS
 * (moto), HTTP streaming, the log format, the build, the docs. CI's PostgreSQL pass
 * (`DATABASE_URL` set) leaves them out: they run once, on the embedded database, in `npm test`.
 * Everything about data (queries, transactions, outages, restarts, SIGKILL) runs on both.
 * `CUMULUS_TEST_EVERYTHING_ON_POSTGRES=1` runs them on PostgreSQL too.
 */
export const DATABASE_AGNOSTIC = [
  'access-once',
  'backend-contract',
  'batch-download',
  'boundaries',
  'bundle-externals',
  'certificates',
  'client-install',
  'cluster-firewall',
  'clusters-machines',
  'console-assets',
  'container-environments',
  'container-script',
  'dashboards',
  'default-environment',
  'docs',
  'ec2-arch-builds',
  'ec2-containers',
  'ec2-credentials',
  'ec2-lifetime',
  'ec2-software',
  'gce-gpus-firewall',
  // The Google rigs against gcloud and Google's client libraries: no server, no database.
  'gce-rig',
  'gcs-rig',
  'ec2-timing',
  'interpreter',
  'jupyter-proxy',
  'local-processes',
  'log-formatter',
  'pglite-thread',
  'process-guard',
  'requirements',
  'server-log',
  'software-builds',
  'slurm-clusters',
  'slurm-containers',
  'slurm-jobs',
  'slurm-two-nodes',
  'software-remote-builds',
  'ssh-connection',
  'ssh-containers',
  'ssh-gpus',
  'ssh-placement',
  'start-build',
  'streaming-faults',
  'vm-types',
].map((name) => `test/${name}.test.ts`);

/**
 * Test files that change this machine's network (`ip addr add` on the loopback device: EC2's
 * addresses for the VMs of test/helpers/ec2-vms.ts; a veth link to the Slurm rig's second node's
 * namespace, test/helpers/slurm.ts). A browser running meanwhile fails its
 * requests in flight (Chromium: net::ERR_NETWORK_CHANGED), so `npm test`'s PostgreSQL pass, which
 * runs beside the browser suite, leaves them for after it (CUMULUS_TEST_NETWORK=without, =only).
 */
export const NETWORK_CHANGING = ['ec2-clusters', 'slurm-two-nodes'].map((name) => `test/${name}.test.ts`);
