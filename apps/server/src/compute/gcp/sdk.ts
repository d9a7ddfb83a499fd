import { createRequire } from 'node:module';
import type * as Compute from '@google-cloud/compute';
import type * as Storage from '@google-cloud/storage';
import type * as GoogleAuth from 'google-auth-library';
import { onFirstUse } from '../on-first-use.js';

/** Google's libraries, loaded when a workspace on GCP first needs them (google-gax alone is large). */
export const compute = onFirstUse<typeof Compute>('@google-cloud/compute');
export const googleAuth = onFirstUse<typeof GoogleAuth>('google-auth-library');
export const storage = onFirstUse<typeof Storage>('@google-cloud/storage');

let storageAuthLoaded: typeof GoogleAuth | undefined;
/**
 * google-auth-library as `@google-cloud/storage` 7 loads it (its own 9.x, beside it): the auth
 * client handed to Storage is of the library it was written against (the compute SDK's 10.x
 * answers request headers as a `Headers`, 9.x as the plain object storage 7 merges into its own).
 */
export function storageAuth(): typeof GoogleAuth {
  const require = createRequire(import.meta.url);
  storageAuthLoaded ??= createRequire(require.resolve('@google-cloud/storage'))(
    'google-auth-library',
  ) as typeof GoogleAuth;
  return storageAuthLoaded;
}
