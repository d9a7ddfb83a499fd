/**
 * How a build's location reads when its archive is kept outside this server, by the store of the
 * workspace's backend (vm_gcp's bucket, compute/gcp/archives.ts), not in the data directory.
 */
export const OUTSIDE_PREFIX = 'gs://';

export const isOutside = (location: string): boolean => location.startsWith(OUTSIDE_PREFIX);
