import type { Deps } from '../../../deps.js';
import type { z } from '../../../http/zod.js';
import type { WorkspaceAccess } from '../../identity/index.js';
import { DEFAULT_ENVIRONMENT } from '../../software/index.js';
import { sizedByThreads } from '../hardware.js';
import { DEFAULT_IDLE_TIMEOUT_SECONDS } from '../service.js';
import type { accountOptionsSchema } from './schemas.js';

/** `user/account/{ws}/options`: what the workspace's clusters can be, and the caller's limits there. */
export async function accountOptions(
  { backends, config }: Pick<Deps, 'backends' | 'config'>,
  access: WorkspaceAccess,
): Promise<z.infer<typeof accountOptionsSchema>> {
  const backend = await backends.forWorkspace(access.workspace.id);
  const self = backend.describeSelf();
  const machine = sizedByThreads(backend);
  return {
    account: access.workspace.slug,
    backend_type: self.backend,
    provider_name: String(self.options.provider_name),
    can_use_cumulus_hosted: true,
    capabilities: {
      ...backend.capabilities,
      builds: [...((await backend.buildsFor?.(access.workspace.id)) ?? backend.capabilities.builds)],
    },
    core_limit: access.membership?.coreLimit ?? null,
    credit_limit: access.membership?.creditLimit ?? null,
    workspace_credit_limit: access.workspace.creditLimit,
    default_software_environment: config.software.defaultEnvironment ? DEFAULT_ENVIRONMENT : null,
    default_idle_timeout: `${DEFAULT_IDLE_TIMEOUT_SECONDS / 60} minutes`,
    worker_machine: machine && { cores: machine.cores, memory_mib: machine.memoryMib },
  };
}
