/** Notices the console shows once. */
export const INTERACTION_TYPES = [
  'warned-about-ecs',
  'user-info-on-sign-in',
  'unsubscribe',
  'api-token-message',
  'spot-default-changed',
  'requested-activation',
] as const;

/** Per-user milestones the console and server read. */
export const FLAG_NAMES = [
  'has-api-key',
  'get-started',
  'access-to-account-with-completed-setup',
  'has-created-cluster',
  'has-created-at-least-three-clusters',
  'user-source-dialog',
  'completed-setup-once',
] as const;
export type FlagName = (typeof FLAG_NAMES)[number];

/**
 * Steps of the get-started checklist that no flag covers, kept in the `get-started` flag's data
 * (`interactions/get-started`): `computed` is set by the server when a scheduler of a cluster the
 * user created first reports a computation; `client` when the Python client was used.
 */
export const GET_STARTED_COMPUTED = 'computed';
/**
 * Set by the server when the Python client was really used: `cumulus login` was authorized in the
 * browser, or the client reported an interaction with its version. A token made on the Profile
 * page does not set it (nothing says a client was installed).
 */
export const GET_STARTED_CLIENT = 'client';
