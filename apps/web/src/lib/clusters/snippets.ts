// What the console tells people to type. The Python client is `cumulus` (python/cumulus).

/** `Cluster(...)` arguments: the workers, and the workspace the console shows (else the user's default). */
const clusterArguments = (workers: number, workspace: string | null) =>
  workspace ? `n_workers=${workers}, workspace="${workspace}"` : `n_workers=${workers}`;

/** The first cluster: a new one with four workers in `workspace`, and a Dask client on it. */
export const firstClusterSnippet = (workspace: string | null) => `import cumulus
from dask.distributed import Client

client = Client(cumulus.Cluster(${clusterArguments(4, workspace)}))`;

/** Get Started's cluster: two workers, in `workspace` (where Create cluster would make it). */
export const createClusterSnippet = (workspace: string | null) => `import cumulus

cluster = cumulus.Cluster(${clusterArguments(2, workspace)})`;

/**
 * Connects to a running cluster by name (the `workspace/name` form picks its workspace). The
 * client stops a cluster it closes unless told otherwise, and this one belongs to the console.
 */
export function connectSnippet(workspace: string, name: string): string {
  return `import cumulus
from dask.distributed import Client

cluster = cumulus.Cluster(name="${workspace}/${name}", shutdown_on_close=False)
client = Client(cluster)`;
}

/** A batch job: the script run as ten tasks, each with its own CUMULUS_BATCH_TASK_ID. */
export const BATCH_RUN_SNIPPET = 'cumulus batch run --ntasks 10 script.py';
