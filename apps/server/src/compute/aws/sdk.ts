import type * as CloudFormation from '@aws-sdk/client-cloudformation';
import type * as Ec2 from '@aws-sdk/client-ec2';
import type * as Iam from '@aws-sdk/client-iam';
import type * as Sts from '@aws-sdk/client-sts';
import { onFirstUse } from '../on-first-use.js';

export const ec2 = onFirstUse<typeof Ec2>('@aws-sdk/client-ec2');
export const iam = onFirstUse<typeof Iam>('@aws-sdk/client-iam');
export const sts = onFirstUse<typeof Sts>('@aws-sdk/client-sts');
export const cloudFormation = onFirstUse<typeof CloudFormation>('@aws-sdk/client-cloudformation');
