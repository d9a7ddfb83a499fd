import { createRequire } from 'node:module';
import type * as CloudFormation from '@aws-sdk/client-cloudformation';
import type * as Ec2 from '@aws-sdk/client-ec2';
import type * as Iam from '@aws-sdk/client-iam';
import type * as Sts from '@aws-sdk/client-sts';

const require = createRequire(import.meta.url);

/**
 * A package loaded the first time one of its members is used, not when the server starts: the
 * AWS SDK's clients are megabytes of JavaScript (more than half of a start's CPU) that a server
 * with no workspace on AWS never needs. `new ec2.RunInstancesCommand(...)` reads like the import.
 */
function onFirstUse<T extends object>(name: string): T {
  let loaded: T | undefined;
  return new Proxy({} as T, {
    get: (_, key) => {
      loaded ??= require(name) as T;
      return loaded[key as keyof T];
    },
  });
}

export const ec2 = onFirstUse<typeof Ec2>('@aws-sdk/client-ec2');
export const iam = onFirstUse<typeof Iam>('@aws-sdk/client-iam');
export const sts = onFirstUse<typeof Sts>('@aws-sdk/client-sts');
export const cloudFormation = onFirstUse<typeof CloudFormation>('@aws-sdk/client-cloudformation');
