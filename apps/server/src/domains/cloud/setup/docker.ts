import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { cloudSetups } from '../../../db/schema/index.js';
import type { Deps } from '../../../deps.js';
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
