// Fake clusters for the sandbox table; the sandbox makes no API calls.
export type DemoCluster = {
  id: string;
  name: string;
  state: string;
  workers: number;
  region: string;
  created: Date;
};

const STATES = ['ready', 'pending', 'starting', 'scaling', 'stopping', 'stopped', 'paused', 'error', 'ready'];
const REGIONS = ['us-east-1', 'us-west-2', 'eu-central-1', 'europe-west4', 'local'];
const NAMES = ['etl-nightly', 'feature-store', 'xgboost-tune', 'notebook', 'geo-join', 'parquet-compact'];

export const DEMO_CLUSTER_COUNT = 123;

export const demoClusters: DemoCluster[] = Array.from({ length: DEMO_CLUSTER_COUNT }, (_, i) => ({
  id: `cl-${(48_213 - i * 37).toString(16).padStart(6, '0')}`,
  name: `${NAMES[i % NAMES.length]}-${i + 1}`,
  state: STATES[i % STATES.length] ?? 'ready',
  workers: (i * 7) % 33,
  region: REGIONS[i % REGIONS.length] ?? 'local',
  created: new Date(Date.UTC(2025, 10, 20, 18, 0) - i * 47 * 60_000),
}));

/** Answers like a paginated endpoint would: one page of items and the total count. */
export function fetchDemoPage(
  page: number,
  pageSize: number,
): Promise<{ items: DemoCluster[]; count: number }> {
  return new Promise((resolve) => {
    window.setTimeout(
      () =>
        resolve({
          items: demoClusters.slice(page * pageSize, (page + 1) * pageSize),
          count: DEMO_CLUSTER_COUNT,
        }),
      350,
    );
  });
}
