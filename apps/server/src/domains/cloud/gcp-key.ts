import { createPrivateKey } from 'node:crypto';
import { fieldError } from '../../http/errors.js';

/** The parts of a GCP service account key Cumulus uses. */
export interface GcpKey {
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  token_uri: string;
}

const refuse = (message: string) => fieldError('credentials', message);
const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/**
 * Checks a service account key file's shape the way Google reads it: a `service_account` key
 * with its id, a PEM private key that parses, an email of the key's project, and — when a project
 * is named — that it is the key's. No call to Google is made.
 */
export function checkGcpKey(raw: Record<string, unknown>, project?: string): GcpKey {
  if (str(raw.type) !== 'service_account')
    throw refuse('This is not a service account key: its "type" must be "service_account".');
  const key = {
    project_id: str(raw.project_id),
    private_key_id: str(raw.private_key_id),
    private_key: typeof raw.private_key === 'string' ? raw.private_key : '',
    client_email: str(raw.client_email),
    client_id: str(raw.client_id),
    token_uri: str(raw.token_uri) || 'https://oauth2.googleapis.com/token',
  };
  for (const field of ['project_id', 'private_key_id', 'private_key', 'client_email'] as const)
    if (!key[field]) throw refuse(`The service account key has no "${field}".`);
  if (!/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/.test(key.project_id))
    throw refuse(`"${key.project_id}" is not a GCP project id.`);
  if (!/^[0-9a-f]{40}$/.test(key.private_key_id))
    throw refuse('The key\'s "private_key_id" is not a key id.');
  try {
    createPrivateKey({ key: key.private_key, format: 'pem' });
  } catch {
    throw refuse('The key\'s "private_key" is not a PEM private key.');
  }
  const [, domain] = key.client_email.split('@');
  if (!domain?.endsWith('.gserviceaccount.com'))
    throw refuse(`"${key.client_email}" is not a service account email.`);
  if (project && project !== key.project_id)
    throw fieldError('project_id', `The key is for project "${key.project_id}", not "${project}".`);
  return key;
}
