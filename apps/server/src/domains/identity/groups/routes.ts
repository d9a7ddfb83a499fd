import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { itemsOf, offsetQuery } from '../../../http/pagination.js';
import { groupSchema, organizationGroupsSchema, setGroupsBody } from './schemas.js';
import * as groups from './service.js';

const tags = ['groups'];
const staff = { auth: 'staff' } as const;

/** Staff labels for organizations; each group is a custom staff scope (see access/scopes.ts). */
export function registerGroupRoutes(app: App, { db }: Deps): void {
  app.get(
    '/api/v2/users/group/list',
    { config: staff, schema: { tags, querystring: offsetQuery, response: { 200: itemsOf(groupSchema) } } },
    async (request) => groups.listGroups(db, request.query),
  );

  app.post(
    '/api/v2/users/group/organization',
    { config: staff, schema: { tags, body: setGroupsBody, response: { 200: organizationGroupsSchema } } },
    async (request) => groups.setOrganizationGroups(db, request.body.organization_id, request.body.groups),
  );
}
