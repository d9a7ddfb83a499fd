// What the console tells people to type. The Python client is `cumulus` (python/cumulus).

/** The first cluster: a new one with four workers, and a Dask client on it. */
export const FIRST_CLUSTER_SNIPPET = `import cumulus
from dask.distributed import Client

client = Client(cumulus.Cluster(n_workers=4))`;

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
