import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { currentUser } from '../../../http/auth.js';
import { workspaceOf } from '../access/resolve.js';
import { workspaceSchema } from '../workspaces/schemas.js';
import { patchWorkspace } from '../workspaces/service.js';
import {
  accountPublic,
  accountRegistry,
  hostedActivate,
  hostedApproval,
  prometheusCredentials,
  setAccountRegistry,
} from './account.js';
import {
  accountParams,
  accountPatchBody,
  accountPublicSchema,
  hostedApprovalSchema,
  hostedStandingSchema,
  prometheusCredentialsSchema,
  registryBody,
  registrySchema,
  sourceIpSchema,
} from './schemas.js';

const tags = ['users'];
const user = { auth: 'user' } as const;
/** Readers of the workspace the path names, and its admins. */
const reader = { auth: 'user', workspace: 'read' } as const;
const admin = { auth: 'user', workspace: 'admin' } as const;
const account = '/api/v2/user/account/:account';

/**
 * The workspace calls of `user/account/{ws}` and the user's standing on this server, each
 * answered as a self-hosted server honestly can (docs/api.md, "Workspace and account calls").
 */
export function registerAccountRoutes(app: App, deps: Deps): void {
  const { db, config } = deps;

  app.get(
    `${account}/registry`,
    {
      config: reader,
      schema: {
        tags,
        description: 'Where the workspace’s software environments are kept: by this server (`local`).',
        params: accountParams,
        response: { 200: registrySchema },
      },
    },
    async (request) => accountRegistry(config, workspaceOf(request)),
  );

  app.post(
    `${account}/registry`,
    {
      config: admin,
      schema: {
        tags,
        description:
          'Workspace admins: `local` is accepted; a container registry is refused (400 on `type`).',
        params: accountParams,
        body: registryBody,
        response: { 200: registrySchema },
      },
    },
    async (request) => setAccountRegistry(config, workspaceOf(request), request.body),
  );

  app.get(
    `${account}/public`,
    {
      config: reader,
      schema: {
        tags,
        description: 'What may be shown of the workspace: names and avatar, nothing of its members.',
        params: accountParams,
        response: { 200: accountPublicSchema },
      },
    },
    async (request) => accountPublic(workspaceOf(request)),
  );

  app.get(
    `${account}/prometheus-read-credentials`,
    {
      config: reader,
      schema: {
        tags,
        description:
          'This server runs no Prometheus: `available` is false and `metrics_url` says where to read.',
        params: accountParams,
        response: { 200: prometheusCredentialsSchema },
      },
    },
    async (request) => prometheusCredentials(config, workspaceOf(request)),
  );

  app.patch(
    account,
    {
      config: admin,
      schema: {
        tags,
        description: 'Workspace admins change its name (the slug stays), avatar or credit limit.',
        params: accountParams,
        body: accountPatchBody,
        response: { 200: workspaceSchema },
      },
    },
    async (request) => patchWorkspace(db, workspaceOf(request), request.body),
  );

  app.get(
    '/api/v2/user/source-ip',
    {
      config: user,
      schema: {
        tags,
        description: 'The address requests come from as this server sees it (behind a proxy: the proxy’s).',
        response: { 200: sourceIpSchema },
      },
    },
    async (request) => ({ ip: request.ip }),
  );

  app.get(
    '/api/v2/user/hosted-activate',
    {
      config: user,
      schema: {
        tags,
        description: 'Clusters always run on this server’s compute: answers whether the user can, and where.',
        response: { 200: hostedStandingSchema },
      },
    },
    async (request) => hostedActivate(db, currentUser(request)),
  );

  app.get(
    '/api/v2/user/hosted-approval-dry-run',
    {
      config: user,
      schema: {
        tags,
        description: 'Whether the user may run clusters here, and why; nothing is written.',
        response: { 200: hostedApprovalSchema },
      },
    },
    async (request) => hostedApproval(db, currentUser(request)),
  );
}
