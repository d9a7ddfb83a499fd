import type * as Compute from '@google-cloud/compute';
import type * as GoogleAuth from 'google-auth-library';
import { onFirstUse } from '../on-first-use.js';

/** Google's libraries, loaded when a workspace on GCP first needs them (google-gax alone is large). */
export const compute = onFirstUse<typeof Compute>('@google-cloud/compute');
export const googleAuth = onFirstUse<typeof GoogleAuth>('google-auth-library');
