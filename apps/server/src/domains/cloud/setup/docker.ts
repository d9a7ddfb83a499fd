import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { RegistryLogin } from '../../../compute/podman.js';
import type { Db } from '../../../db/client.js';
import { cloudSetups } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
import type { SecretBox } from '../../../lib/crypto.js';
import { isoTimeOrNull } from '../../../lib/time.js';
import type { WorkspaceAccess } from '../../identity/index.js';
import type { dockerAnswer, dockerPatch, dockerSchema } from './schemas.js';

/** The workspace's container registry (`setup/account/{ws}/docker`); the password is kept sealed. */
const EMPTY: z.infer<typeof dockerSchema> = {
  registry_type: 'none',
  registry_uri: '',
  namespace: '',
  username: '',
};

async function row(deps: Deps, workspaceId: number) {
  const [found] = await deps.db
    .select()
    .from(cloudSetups)
    .where(and(eq(cloudSetups.workspaceId, workspaceId), eq(cloudSetups.provider, 'docker')));
  return found;
}

export async function getDocker(deps: Deps, access: WorkspaceAccess): Promise<z.infer<typeof dockerAnswer>> {
  const { workspace } = access;
  const found = await row(deps, workspace.id);
  return {
    ...EMPTY,
    ...(found?.settings as Partial<z.infer<typeof dockerSchema>>),
    has_password: !!found?.secretBox,
    updated: isoTimeOrNull(found?.updated),
  };
}

export async function patchDocker(deps: Deps, access: WorkspaceAccess, body: z.infer<typeof dockerPatch>) {
  const { workspace } = access;
  const { password, ...settings } = body;
  const found = await row(deps, workspace.id);
  const secretBox =
    password === undefined
      ? (found?.secretBox ?? null)
      : password === ''
        ? null
        : deps.cloudSecrets.encrypt(password);
  const merged = { ...EMPTY, ...found?.settings, ...settings };
  if (found)
    await deps.db
      .update(cloudSetups)
      .set({ settings: merged, secretBox, updated: new Date() })
      .where(eq(cloudSetups.id, found.id));
  else
    await deps.db
      .insert(cloudSetups)
      .values({ workspaceId: workspace.id, provider: 'docker', settings: merged, secretBox });
  return getDocker(deps, access);
}

/**
 * The workspace's registry login for pulling `image`, where the image is on the registry the
 * workspace set up (its `registry_uri`'s host, or Docker Hub for `dockerhub`) and a password is
 * kept; null otherwise (public images need none). What server.ts gives the software builds.
 */
export async function registryLoginOf(
  db: Db,
  cloudSecrets: SecretBox,
  workspaceId: number,
  image: string,
): Promise<RegistryLogin | null> {
  const [found] = await db
    .select()
    .from(cloudSetups)
    .where(and(eq(cloudSetups.workspaceId, workspaceId), eq(cloudSetups.provider, 'docker')));
  if (!found?.secretBox) return null;
  const settings = { ...EMPTY, ...(found.settings as Partial<z.infer<typeof dockerSchema>>) };
  if (settings.registry_type === 'none' || !settings.username) return null;
  const registry =
    settings.registry_type === 'dockerhub'
      ? 'docker.io'
      : settings.registry_uri.replace(/^[a-z]+:\/\//, '').replace(/\/.*$/, '');
  if (!registry || imageRegistry(image) !== registry) return null;
  return { registry, username: settings.username, password: cloudSecrets.decrypt(found.secretBox) };
}

/** The registry host an image reference names (`host[:port]/path:tag`), Docker Hub's when it names none. */
export function imageRegistry(image: string): string {
  const first = image.split('/')[0] ?? '';
  return image.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost')
    ? first
    : 'docker.io';
}
