import { DescribeImagesCommand, EC2Client } from '@aws-sdk/client-ec2';
import type { Api } from './api.js';

/**
 * A workspace set up on vm_aws through the API, against moto at `endpoint`: keys, global setup
 * (open to this machine), the region's default VPC and an image moto knows. Answers the image id.
 */
export async function setUpAwsWorkspace(
  api: Api,
  slug: string,
  endpoint: string,
  keys: { accessKeyId: string; secretAccessKey: string },
  settings: Record<string, unknown> = {},
): Promise<string> {
  const check = (what: string, res: { status: number; text: string }) => {
    if (res.status !== 200) throw new Error(`${what} answered ${res.status}: ${res.text}`);
  };
  check(
    'credentials',
    await api.post(`/api/v2/cloud-credentials/${slug}/aws`, {
      credentials: { aws_access_key_id: keys.accessKeyId, aws_secret_access_key: keys.secretAccessKey },
      default_region: 'us-east-1',
    }),
  );
  check(
    'global',
    await api.post(`/api/v2/setup/account/${slug}/aws/global`, {
      region: 'us-east-1',
      allowed_cidr: '127.0.0.1/32',
    }),
  );
  check(
    'regions',
    await api.post(`/api/v2/setup/account/${slug}/aws/regions`, {
      regions: [{ region: 'us-east-1', default: true }],
    }),
  );
  const ec2 = new EC2Client({ region: 'us-east-1', endpoint, credentials: keys });
  const image = (await ec2.send(new DescribeImagesCommand({}))).Images?.find((i) =>
    i.ImageId?.startsWith('ami-'),
  )?.ImageId;
  if (!image) throw new Error('moto has no image to boot');
  check(
    'settings',
    await api.patch(`/api/v2/setup/account/${slug}/aws/settings`, {
      amis: { 'us-east-1': image },
      ...settings,
    }),
  );
  return image;
}
