import type { IAMClient } from '@aws-sdk/client-iam';
import { awsCode } from './clients.js';
import { iam as iamSdk } from './sdk.js';

/**
 * What cluster machines may do in the workspace's account: the instance role's one inline policy,
 * set by the workspace's admin as S3 buckets to read and to read and write. Nothing else: with no
 * bucket the role has no policy at all.
 */
export const INSTANCE_POLICY_NAME = 'cumulus-data-access';

export interface BucketAccess {
  read: readonly string[];
  readWrite: readonly string[];
}

const READ = ['s3:GetObject', 's3:GetObjectVersion', 's3:ListBucket', 's3:GetBucketLocation'];
const WRITE = ['s3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'];

/** The policy document, or null when no bucket is named. */
export function instancePolicy(access: BucketAccess) {
  const readOnly = access.read.filter((b) => !access.readWrite.includes(b));
  const resources = (buckets: readonly string[]) =>
    buckets.flatMap((b) => [`arn:aws:s3:::${b}`, `arn:aws:s3:::${b}/*`]);
  const statements = [
    ...(readOnly.length
      ? [{ Sid: 'ReadBuckets', Effect: 'Allow', Action: READ, Resource: resources(readOnly) }]
      : []),
    ...(access.readWrite.length
      ? [
          {
            Sid: 'ReadWriteBuckets',
            Effect: 'Allow',
            Action: [...READ, ...WRITE],
            Resource: resources(access.readWrite),
          },
        ]
      : []),
  ];
  return statements.length ? { Version: '2012-10-17', Statement: statements } : null;
}

/** Puts the role's policy (PutRolePolicy), or removes it when no bucket is named. */
export async function applyInstancePolicy(iam: IAMClient, roleName: string, access: BucketAccess) {
  const document = instancePolicy(access);
  if (document)
    await iam.send(
      new iamSdk.PutRolePolicyCommand({
        RoleName: roleName,
        PolicyName: INSTANCE_POLICY_NAME,
        PolicyDocument: JSON.stringify(document),
      }),
    );
  else await removeInstancePolicy(iam, roleName);
}

/** Removes the role's policy (before the role itself can go); none is fine. */
export async function removeInstancePolicy(iam: IAMClient, roleName: string) {
  await iam
    .send(new iamSdk.DeleteRolePolicyCommand({ RoleName: roleName, PolicyName: INSTANCE_POLICY_NAME }))
    .catch((err: unknown) => {
      if (awsCode(err) !== 'NoSuchEntity') throw err;
    });
}
