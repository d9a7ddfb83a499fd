import type { FastifyRequest } from 'fastify';
import {
  listAvailabilityZones,
  listSecurityGroups,
  listSubnets,
  listVpcs,
} from '../../../compute/aws/network.js';
import type { Deps } from '../../../deps.js';
import type { App } from '../../../http/app-types.js';
import { workspaceOf } from '../../identity/index.js';
import * as aws from './aws.js';
import * as awsSettings from './aws-settings.js';
import * as docker from './docker.js';
import * as gcp from './gcp.js';
import {
  awsDeletedAnswer,
  awsGlobalAnswer,
  awsGlobalBody,
  awsRegionsBody,
  awsSettingsPatch,
  awsSettingsSchema,
  azsAnswer,
  confirmQuery,
  deletedAnswer,
  dockerAnswer,
  dockerPatch,
  gcpGlobalAnswer,
  gcpGlobalBody,
  gcpNamesAnswer,
  gcpRegionsBody,
  gcpSettingsPatch,
  gcpSettingsSchema,
  gcpSubnetsQuery,
  gcpTagsQuery,
  regionIdQuery,
  regionParams,
  regionQuery,
  regionsAnswer,
  securityGroupsAnswer,
  subnetsAnswer,
  vpcQuery,
  vpcsAnswer,
  workspaceParams,
} from './schemas.js';

const tags = ['setup'];
/** Readers of the path's workspace. */
const reader = { auth: 'user', workspace: 'read' } as const;
/** Admins of the path's workspace. */
const admin = { auth: 'user', workspace: 'admin' } as const;
const base = '/api/v2/setup/account/:account';

/** A workspace's cloud setup: AWS, GCP and the docker registry. */
export function registerSetupRoutes(app: App, deps: Deps): void {
  const who = (request: FastifyRequest) => [deps, workspaceOf(request)] as const;

  // AWS
  app.get(
    `${base}/aws/global`,
    {
      config: reader,
      schema: {
        tags,
        description: 'The instance profile and cluster security groups Cumulus made.',
        params: workspaceParams,
        response: { 200: awsGlobalAnswer },
      },
    },
    async (request) => aws.getGlobal(...who(request)),
  );
  app.post(
    `${base}/aws/global`,
    {
      config: admin,
      schema: {
        tags,
        description:
          "Makes (or finds again) the instance profile for cluster machines and a security group in the region's VPC (the one named, else its default VPC) with Dask's ports open to the allowed CIDR only (the caller's address when none is given); a new allowed CIDR moves every cluster security group's.",
        params: workspaceParams,
        body: awsGlobalBody,
        response: { 200: awsGlobalAnswer },
      },
    },
    async (request) => aws.setUpGlobal(...who(request), request.body, request.ip),
  );
  app.get(
    `${base}/aws/regions`,
    {
      config: reader,
      schema: {
        tags,
        description: 'Regions clusters run in, with their VPC, subnets and security group.',
        params: workspaceParams,
        response: { 200: regionsAnswer },
      },
    },
    async (request) => aws.getRegions(...who(request), 'aws'),
  );
  app.post(
    `${base}/aws/regions`,
    {
      config: admin,
      schema: {
        tags,
        description: 'Adds or updates regions (VPC, subnets, security group; one default).',
        params: workspaceParams,
        body: awsRegionsBody,
        response: { 200: regionsAnswer },
      },
    },
    async (request) => aws.setRegions(...who(request), request.body),
  );
  app.delete(
    `${base}/aws/region`,
    {
      config: admin,
      schema: {
        tags,
        description: 'Removes a region (by `id`); the last one while clusters run asks to confirm (409).',
        params: workspaceParams,
        querystring: regionIdQuery.extend(confirmQuery.shape),
        response: { 200: deletedAnswer },
      },
    },
    async (request) =>
      aws.deleteRegion(...who(request), 'aws', request.query.id, request.query.confirm ?? false),
  );
  app.delete(
    `${base}/aws`,
    {
      config: admin,
      schema: {
        tags,
        description:
          'Removes the AWS setup and what Cumulus made in the account (409 while clusters run; 400 with AWS words when AWS refuses to remove something, nothing forgotten).',
        params: workspaceParams,
        querystring: confirmQuery,
        response: { 200: awsDeletedAnswer },
      },
    },
    async (request) => aws.deleteAwsSetup(...who(request), request.query.confirm ?? false),
  );
  app.get(
    `${base}/aws/settings`,
    {
      config: reader,
      schema: {
        tags,
        description: 'Default instance types, spot, disk size, AMI per region, allowed CIDR.',
        params: workspaceParams,
        response: { 200: awsSettingsSchema },
      },
    },
    async (request) => awsSettings.getSettings(...who(request)),
  );
  app.patch(
    `${base}/aws/settings`,
    {
      config: admin,
      schema: {
        tags,
        description: "Changes settings; a new allowed CIDR moves the cluster security groups' Dask ports.",
        params: workspaceParams,
        body: awsSettingsPatch,
        response: { 200: awsSettingsSchema },
      },
    },
    async (request) => awsSettings.patchSettings(...who(request), request.body),
  );
  app.get(
    `${base}/aws/available-vpcs/:region`,
    {
      config: admin,
      schema: {
        tags,
        description: "The account's VPCs in the region.",
        params: regionParams,
        response: { 200: vpcsAnswer },
      },
    },
    async (request) =>
      awsSettings.available(...who(request), request.params.region, async (ec2) => ({
        vpcs: await listVpcs(ec2),
      })),
  );
  app.get(
    `${base}/aws/available-azs`,
    {
      config: admin,
      schema: {
        tags,
        description: "The region's availability zones.",
        params: workspaceParams,
        querystring: regionQuery,
        response: { 200: azsAnswer },
      },
    },
    async (request) =>
      awsSettings.available(...who(request), request.query.region, async (ec2) => ({
        availability_zones: await listAvailabilityZones(ec2),
      })),
  );
  app.get(
    `${base}/aws/available-subnets`,
    {
      config: admin,
      schema: {
        tags,
        description: "The account's subnets in the region (of a VPC).",
        params: workspaceParams,
        querystring: vpcQuery,
        response: { 200: subnetsAnswer },
      },
    },
    async (request) =>
      awsSettings.available(
        ...who(request),
        request.query.region,
        async (ec2) => ({ subnets: await listSubnets(ec2, request.query.vpc_id) }),
        request.query.vpc_id,
      ),
  );
  app.get(
    `${base}/aws/available-security-groups`,
    {
      config: admin,
      schema: {
        tags,
        description: "The account's security groups in the region (of a VPC).",
        params: workspaceParams,
        querystring: vpcQuery,
        response: { 200: securityGroupsAnswer },
      },
    },
    async (request) =>
      awsSettings.available(
        ...who(request),
        request.query.region,
        async (ec2) => ({ security_groups: await listSecurityGroups(ec2, request.query.vpc_id) }),
        request.query.vpc_id,
      ),
  );

  // GCP
  app.get(
    `${base}/gcp/global`,
    {
      config: reader,
      schema: {
        tags,
        description: "The workspace's GCP network settings.",
        params: workspaceParams,
        response: { 200: gcpGlobalAnswer },
      },
    },
    async (request) => gcp.getGcpGlobal(...who(request)),
  );
  app.post(
    `${base}/gcp/global`,
    {
      config: admin,
      schema: {
        tags,
        description: 'Stores the network, firewall CIDR and target tags (checked by shape).',
        params: workspaceParams,
        body: gcpGlobalBody,
        response: { 200: gcpGlobalAnswer },
      },
    },
    async (request) => gcp.setGcpGlobal(...who(request), request.body),
  );
  app.get(
    `${base}/gcp/regions`,
    {
      config: reader,
      schema: {
        tags,
        description: 'GCP regions and their subnets.',
        params: workspaceParams,
        response: { 200: regionsAnswer },
      },
    },
    async (request) => aws.getRegions(...who(request), 'gcp'),
  );
  app.post(
    `${base}/gcp/regions`,
    {
      config: admin,
      schema: {
        tags,
        description: 'Adds or updates GCP regions (one default).',
        params: workspaceParams,
        body: gcpRegionsBody,
        response: { 200: regionsAnswer },
      },
    },
    async (request) => gcp.setGcpRegions(...who(request), request.body),
  );
  app.delete(
    `${base}/gcp/region`,
    {
      config: admin,
      schema: {
        tags,
        description: 'Removes a GCP region (by `id`).',
        params: workspaceParams,
        querystring: regionIdQuery.extend(confirmQuery.shape),
        response: { 200: deletedAnswer },
      },
    },
    async (request) =>
      aws.deleteRegion(...who(request), 'gcp', request.query.id, request.query.confirm ?? false),
  );
  app.delete(
    `${base}/gcp`,
    {
      config: admin,
      schema: {
        tags,
        description: 'Removes the GCP setup (409 while clusters run).',
        params: workspaceParams,
        querystring: confirmQuery,
        response: { 200: deletedAnswer },
      },
    },
    async (request) => gcp.deleteGcpSetup(...who(request), request.query.confirm ?? false),
  );
  app.get(
    `${base}/gcp/settings`,
    {
      config: reader,
      schema: {
        tags,
        description: 'GCP cluster settings.',
        params: workspaceParams,
        response: { 200: gcpSettingsSchema },
      },
    },
    async (request) => gcp.getGcpSettings(...who(request)),
  );
  app.patch(
    `${base}/gcp/settings`,
    {
      config: admin,
      schema: {
        tags,
        description: 'Changes GCP cluster settings.',
        params: workspaceParams,
        body: gcpSettingsPatch,
        response: { 200: gcpSettingsSchema },
      },
    },
    async (request) => gcp.patchGcpSettings(...who(request), request.body),
  );
  app.get(
    `${base}/gcp/available-networks`,
    {
      config: admin,
      schema: {
        tags,
        description: 'Networks the settings name (no call to Google is made).',
        params: workspaceParams,
        response: { 200: gcpNamesAnswer },
      },
    },
    async (request) => gcp.gcpNames(...who(request), 'networks'),
  );
  app.get(
    `${base}/gcp/available-subnets`,
    {
      config: admin,
      schema: {
        tags,
        description: 'Subnets the regions name.',
        params: workspaceParams,
        querystring: gcpSubnetsQuery,
        response: { 200: gcpNamesAnswer },
      },
    },
    async (request) => gcp.gcpNames(...who(request), 'subnets', request.query.region),
  );
  app.get(
    `${base}/gcp/available-target-tags`,
    {
      config: admin,
      schema: {
        tags,
        description: 'Target tags the settings name.',
        params: workspaceParams,
        querystring: gcpTagsQuery,
        response: { 200: gcpNamesAnswer },
      },
    },
    async (request) => gcp.gcpNames(...who(request), 'target-tags'),
  );

  // Docker registry
  app.get(
    `${base}/docker`,
    {
      config: reader,
      schema: {
        tags,
        description: "The workspace's container registry (no password answered).",
        params: workspaceParams,
        response: { 200: dockerAnswer },
      },
    },
    async (request) => docker.getDocker(...who(request)),
  );
  app.patch(
    `${base}/docker`,
    {
      config: admin,
      schema: {
        tags,
        description: 'Changes the registry setting; the password is kept sealed.',
        params: workspaceParams,
        body: dockerPatch,
        response: { 200: dockerAnswer },
      },
    },
    async (request) => docker.patchDocker(...who(request), request.body),
  );
}
