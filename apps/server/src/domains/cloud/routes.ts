import type { CloudProvider } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { currentUser } from '../../http/auth.js';
import { z } from '../../http/zod.js';
import { isOperator, workspaceOf } from '../identity/index.js';
import * as cloudFormation from './cloudformation.js';
import { registerClusterInfoSocket } from './cluster-info-socket.js';
import * as credentials from './credentials.js';
import * as roles from './role-setup.js';
import {
  AWS_REGIONS,
  AZURE_REGIONS,
  attemptAnswer,
  attemptParams,
  awsCredentialsBody,
  azureCredentialsBody,
  callbackBody,
  cloudConfigSchema,
  confirmQuery,
  credentialsAnswer,
  deletedAnswer,
  GCP_REGIONS,
  GCP_ZONES,
  gcpCredentialsBody,
  roleCheckAnswer,
  roleInfoBody,
  roleSetupAnswer,
  templateParams,
  workspaceParams,
} from './schemas.js';

const tags = ['cloud'];
const user = { auth: 'user' } as const;
/** Readers of the path's workspace. */
const reader = { auth: 'user', workspace: 'read' } as const;
/** Admins of the path's workspace. */
const admin = { auth: 'user', workspace: 'admin' } as const;
const base = '/api/v2/cloud-credentials';

/**
 * Cloud credentials of a workspace (console.md section 2's Cloud pages, client-contract.md
 * section 7): stored sealed, shown masked, checked when saved; replacing or deleting them while
 * clusters run there follows the 409 confirm/retry protocol.
 */
export function registerCloudRoutes(app: App, deps: Deps): void {
  registerClusterInfoSocket(app, deps);

  app.get(
    '/api/v2/cloud/config/',
    {
      config: user,
      schema: {
        tags,
        description: 'Regions (and GCP zones) the console offers, with the defaults.',
        response: { 200: cloudConfigSchema },
      },
    },
    async (request) => ({
      aws: { default_region: 'us-east-1', supported_regions: [...AWS_REGIONS] },
      gcp: {
        default_region: 'us-east1',
        default_zone: 'us-east1-c',
        supported_regions: [...GCP_REGIONS],
        supported_zones: GCP_ZONES,
        // Offered to the operator alone: nobody else may connect it (credentials.ts).
        workload_identity:
          deps.config.gcp.workloadIdentity && (await isOperator(deps.db, currentUser(request))),
      },
      azure: { default_region: 'eastus', supported_regions: [...AZURE_REGIONS] },
    }),
  );

  const bodies = { aws: awsCredentialsBody, gcp: gcpCredentialsBody, azure: azureCredentialsBody } as const;
  const save = {
    aws: credentials.saveAwsCredentials,
    gcp: credentials.saveGcpCredentials,
    azure: credentials.saveAzureCredentials,
  } as const;
  for (const provider of ['aws', 'gcp', 'azure'] as const satisfies readonly CloudProvider[]) {
    const url = `${base}/:account/${provider}`;
    app.get(
      url,
      {
        config: reader,
        schema: {
          tags,
          description: `The workspace's ${provider} credentials as they may be shown (key ids masked, no secret).`,
          params: workspaceParams,
          response: { 200: credentialsAnswer },
        },
      },
      async (request) => credentials.getCredentials(deps, workspaceOf(request), provider),
    );
    app.post(
      url,
      {
        config: admin,
        schema: {
          tags,
          description: `Checks and stores the workspace's ${provider} credentials (admins). 409 action_required while clusters run there with other credentials.`,
          params: workspaceParams,
          querystring: confirmQuery,
          body: bodies[provider],
          response: { 200: credentialsAnswer },
        },
      },
      async (request) =>
        // The schema for the provider validated the body.
        save[provider](deps, workspaceOf(request), request.body as never, request.query.confirm ?? false),
    );
    app.delete(
      url,
      {
        config: admin,
        schema: {
          tags,
          description: `Forgets the workspace's ${provider} credentials (admins). 409 action_required while clusters run there.`,
          params: workspaceParams,
          querystring: confirmQuery,
          response: { 200: deletedAnswer },
        },
      },
      async (request) =>
        credentials.deleteCredentials(deps, workspaceOf(request), provider, request.query.confirm ?? false),
    );
  }

  app.post(
    `${base}/account/:account/start-role-assumption-setup`,
    {
      config: admin,
      schema: {
        tags,
        description:
          "The principal a role in the workspace's AWS account must trust, and the external id it must require.",
        params: workspaceParams,
        response: { 200: roleSetupAnswer },
      },
    },
    async (request) => roles.startRoleSetup(deps, workspaceOf(request)),
  );
  app.post(
    `${base}/account/:account/check-role-assumption`,
    {
      config: admin,
      schema: {
        tags,
        description: 'Tries to assume the role now; answers whether AWS allowed it and why not.',
        params: workspaceParams,
        body: roleInfoBody,
        response: { 200: roleCheckAnswer },
      },
    },
    async (request) => roles.checkRole(deps, workspaceOf(request), request.body),
  );
  app.post(
    `${base}/account/:account/complete-role-assumption-setup`,
    {
      config: admin,
      schema: {
        tags,
        description:
          "Assumes the role once and keeps it as the workspace's AWS credentials. 409 action_required while clusters run with the credentials it replaces.",
        params: workspaceParams,
        querystring: confirmQuery,
        body: callbackBody,
        response: { 200: credentialsAnswer },
      },
    },
    async (request) =>
      roles.completeRoleSetup(deps, workspaceOf(request), request.body, request.query.confirm ?? false),
  );
  app.post(
    `${base}/callback`,
    {
      config: {
        auth: 'user',
        workspace: {
          need: 'admin',
          key: async (request) => ({
            id: (await roles.callbackAttempt(deps, request.body as z.infer<typeof callbackBody>)).workspaceId,
          }),
        },
      },
      schema: {
        tags,
        description:
          'Reports the role a setup attempt made (its stack output); completes the setup. 409 action_required while clusters run with the credentials it replaces.',
        querystring: confirmQuery,
        body: callbackBody,
        response: { 200: credentialsAnswer },
      },
    },
    async (request) =>
      roles.roleCallback(deps, workspaceOf(request), request.body, request.query.confirm ?? false),
  );
  app.post(
    `${base}/account/:account/cf-setup-attempt`,
    {
      config: admin,
      schema: {
        tags,
        description:
          "Starts a CloudFormation setup of role assumption, polled by id. With the workspace's AWS keys Cumulus creates the stack itself (409 action_required while clusters run with the keys the role will replace); without, the user creates it from the template Cumulus serves.",
        params: workspaceParams,
        querystring: confirmQuery,
        response: { 200: attemptAnswer },
      },
    },
    async (request) =>
      cloudFormation.startCloudFormation(deps, workspaceOf(request), request.query.confirm ?? false),
  );
  app.get(
    `${base}/account/:account/cf-setup-attempt/:id`,
    {
      config: admin,
      schema: {
        tags,
        description:
          'A CloudFormation setup attempt: a stack Cumulus made is looked at (DescribeStacks) and its role kept once made; pending until the role is kept, then complete or error.',
        params: attemptParams,
        response: { 200: attemptAnswer },
      },
    },
    async (request) => cloudFormation.getCloudFormation(deps, workspaceOf(request), request.params.id),
  );
  app.get(
    `${base}/cf-template/:id/:signature`,
    {
      config: { auth: 'none', csrf: false },
      schema: {
        tags,
        description:
          "An attempt's CloudFormation template (signed link: CloudFormation fetches it without signing in).",
        params: templateParams,
        response: { 200: z.record(z.string(), z.unknown()) },
      },
    },
    async (request) =>
      cloudFormation.cloudFormationTemplate(deps, request.params.id, request.params.signature),
  );
}
