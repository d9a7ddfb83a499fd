import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded the first time one of its members is used, not when the server starts: cloud
 * SDKs are megabytes of JavaScript (the AWS SDK's clients were more than half of a start's CPU) that
 * a server with no workspace on that cloud never needs. `new ec2.RunInstancesCommand(...)` reads
 * like the import. The bundle keeps these packages outside (build.mjs): they load from node_modules.
 */
export function onFirstUse<T extends object>(name: string): T {
  let loaded: T | undefined;
  return new Proxy({} as T, {
    get: (_, key) => {
      loaded ??= require(name) as T;
      return loaded[key as keyof T];
    },
  });
}
