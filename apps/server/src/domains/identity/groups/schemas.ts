import { id, z } from '../../../http/zod.js';
import { organizationBrief } from '../organizations/present.js';

export const groupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  organizations: z.array(organizationBrief),
});

export const setGroupsBody = z.object({
  organization_id: id,
  groups: z.array(z.string().trim().min(1).max(100)).max(50),
});

export const organizationGroupsSchema = z.object({
  organization_id: z.number().int(),
  groups: z.array(z.string()),
});
