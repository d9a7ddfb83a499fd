import type { TokenEndpoint } from './token-endpoint.js';

/** Where the rig serves the metadata server of the machine the Cumulus server runs on. */
export const SERVER_METADATA_PREFIX = '/metadata-server';

/**
 * The metadata server of the machine the Cumulus server runs on, for workload identity: the
 * project, the machine's default service account (its email, an access token the rig's APIs take)
 * as Google's answers them (`Metadata-Flavor: Google` required, a 404 where the machine has no
 * service account). Answers [status, body, content type], or null for a path outside it.
 */
export function serverMetadata(
  path: string,
  headers: Record<string, unknown>,
  rig: { project: string; tokens: TokenEndpoint; serverAccount: string | null },
): [number, string, string] | null {
  if (!path.startsWith(`${SERVER_METADATA_PREFIX}/`)) return null;
  if (headers['metadata-flavor'] !== 'Google')
    return [403, 'Missing Metadata-Flavor:Google header.', 'text/html'];
  const route = path.slice(SERVER_METADATA_PREFIX.length);
  const account = rig.serverAccount;
  switch (route) {
    case '/computeMetadata/v1/project/project-id':
      return [200, rig.project, 'application/text'];
    case '/computeMetadata/v1/instance/service-accounts/default/email':
      return account ? [200, account, 'application/text'] : [404, 'Not Found', 'text/html'];
    case '/computeMetadata/v1/instance/service-accounts/default/token':
      return account
        ? [
            200,
            JSON.stringify({
              access_token: rig.tokens.issue(account),
              expires_in: 3599,
              token_type: 'Bearer',
            }),
            'application/json',
          ]
        : [404, 'Not Found', 'text/html'];
    default:
      return [404, 'Not Found', 'text/html'];
  }
}
