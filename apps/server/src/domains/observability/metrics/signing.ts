import type { Cluster } from '../../../db/schema/index.js';
import { ApiError } from '../../../http/errors.js';
import type { Signer } from '../../../lib/crypto.js';

/**
 * The metric series of a cluster (`GET metrics/account/{ws}/cluster/{pk}`) is called with no auth
 * header, so it may be read without credentials only
 * through a link the control plane signed: `expires` (epoch seconds) and an HMAC of the workspace,
 * the cluster and `expires`. Such a link reads numbers about one cluster (counts, rates, ages),
 * never logs, keys or settings, and stops working when it expires.
 */
export const SIGNED_LINK_TTL_SECONDS = 3600;

const message = (slug: string, clusterId: number, expires: number) => `${slug}:${clusterId}:${expires}`;

export function signedMetricsUrl(signer: Signer, publicUrl: string, slug: string, cluster: Cluster): string {
  const expires = Math.floor(Date.now() / 1000) + SIGNED_LINK_TTL_SECONDS;
  const query = new URLSearchParams({
    expires: String(expires),
    signature: signer.sign(message(slug, cluster.id, expires)),
  });
  return `${publicUrl}/api/v2/metrics/account/${encodeURIComponent(slug)}/cluster/${cluster.id}?${query}`;
}

export function assertSigned(
  signer: Signer,
  slug: string,
  clusterId: number,
  query: { expires?: number | undefined; signature?: string | undefined },
): void {
  if (query.expires === undefined || !query.signature)
    throw new ApiError(
      401,
      {
        detail: 'Authentication credentials were not provided, nor a signed link.',
        code: 'NOT_AUTHENTICATED',
      },
      { 'www-authenticate': 'Token' },
    );
  if (
    query.expires < Date.now() / 1000 ||
    !signer.verify(message(slug, clusterId, query.expires), query.signature)
  )
    throw new ApiError(401, { detail: 'This link is not valid or has expired.', code: 'INVALID_SIGNATURE' });
}
