import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { OAuth2Client } from 'google-auth-library';
import type { GceRig } from './rig.js';

const run = promisify(execFile);

/** The rig's two clients: gcloud, and Google's Node library. */

/**
 * `gcloud` (the Google Cloud SDK) pointed at the rig: its Compute Engine and Cloud Storage endpoints, a token the rig
 * issued, the rig's project, a configuration directory of the test's own. A strict second client:
 * it reads operations, errors and links as Google writes them.
 */
export function gcloudOf(rig: GceRig, configDir: string) {
  const gcloud = gcloudRunOf(rig, configDir);
  return async (...args: string[]): Promise<string> => (await gcloud(...args)).stdout;
}

/** The same, answering what gcloud wrote to stderr too (what it says of requests refused). */
export function gcloudRunOf(rig: GceRig, configDir: string, env: Record<string, string> = {}) {
  return (...args: string[]): Promise<{ stdout: string; stderr: string }> =>
    run('gcloud', args, {
      env: {
        ...env,
        PATH: process.env.PATH,
        CLOUDSDK_CONFIG: configDir,
        CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE: `${rig.url}/compute/v1/`,
        // Cloud Storage's JSON API (gcloud storage) and its XML endpoint (sign-url's links and probe).
        CLOUDSDK_API_ENDPOINT_OVERRIDES_STORAGE: `${rig.url}/storage/v1/`,
        CLOUDSDK_STORAGE_GS_XML_ENDPOINT_URL: rig.url,
        CLOUDSDK_AUTH_ACCESS_TOKEN: rig.tokens.issue(),
        CLOUDSDK_CORE_PROJECT: rig.project,
        CLOUDSDK_CORE_DISABLE_PROMPTS: '1',
        CLOUDSDK_CORE_CHECK_GCE_METADATA: 'false',
        CLOUDSDK_COMPONENT_MANAGER_DISABLE_UPDATE_CHECK: '1',
      },
    });
}

/** Options of `@google-cloud/compute`'s clients over REST to the rig, with a token it issued. */
export function nodeOptions(rig: GceRig) {
  const url = new URL(rig.url);
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: rig.tokens.issue() });
  return { apiEndpoint: url.hostname, port: Number(url.port), protocol: 'http', fallback: true, authClient };
}
