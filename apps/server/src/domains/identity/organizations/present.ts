import type { Organization, Workspace } from '../../../db/schema/index.js';
import { z } from '../../../http/zod.js';

export const organizationBrief = z.object({
  id: z.number().int(),
  name: z.string(),
  is_personal: z.boolean(),
});

export const workspaceBrief = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  avatar_url: z.string().nullable(),
  active: z.boolean(),
  can_use_cumulus_hosted: z.boolean(),
  /** Backend type new clusters run on (`in_process` until a cloud is set up, then `vm_aws`...). */
  active_backend: z.string(),
  /** Credentials and what clusters need in the cloud are set up. */
  setup_complete: z.boolean(),
  /** The workspace has cloud credentials of its own. */
  configured_customer_hosted: z.boolean(),
  organization: organizationBrief,
});

export const presentOrganizationBrief = (o: Organization): z.infer<typeof organizationBrief> => ({
  id: o.id,
  name: o.name,
  is_personal: o.isPersonal,
});

export const presentWorkspaceBrief = (a: Workspace, o: Organization): z.infer<typeof workspaceBrief> => ({
  id: a.id,
  slug: a.slug,
  name: a.name,
  avatar_url: a.avatarUrl,
  active: a.active,
  // Every workspace of a self-hosted install runs on this server's own compute.
  can_use_cumulus_hosted: true,
  active_backend: a.activeBackend,
  setup_complete: a.setupComplete,
  configured_customer_hosted: a.configuredCustomerHosted,
  organization: presentOrganizationBrief(o),
});
