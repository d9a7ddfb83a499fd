import { arch } from 'node:os';
import type { Builder } from '../builder.js';
import { buildContainer } from '../container-builder.js';
import type { Podman } from '../podman.js';

/** Node's names for the architectures, in the words clients use (x86_64, aarch64). */
const ARCH: Record<string, string> = { x64: 'x86_64', arm64: 'aarch64' };

/**
 * A VM cloud's builder with container environments (where this server has podman): the image is
 * pulled and checked on this server (container-builder.ts, as the local backend checks one) with
 * the workspace's registry login, once, not per architecture: it runs here, so it is checked for
 * this server's architecture, which its lockfile records. A cluster whose instance types are of
 * another architecture is refused at create, naming both (software/for-clusters.ts), and each VM
 * checks again before it runs the image (aws/container-script.ts). No build machine is started.
 * vm_aws and vm_gcp add it to their pip builders (build machines).
 */
export function withContainerChecks(builder: Builder, podman: Podman | undefined): Builder {
  if (!podman) return builder;
  const here = ARCH[arch()] ?? arch();
  return {
    ...builder,
    kinds: [...builder.kinds, 'container'],
    build: (request, io) =>
      request.kind === 'container'
        ? buildContainer(podman, { ...request, architecture: here }, here, io)
        : builder.build(request, io),
  };
}
