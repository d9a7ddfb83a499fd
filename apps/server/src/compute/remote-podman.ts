import { final } from './errors.js';
import { authFile, Podman, type RegistryLogin } from './podman.js';

/** Runs a shell command on the machine (over SSH, or a Slurm login node), `stdin` fed to it. */
export type RunCommand = (
  command: string,
  options: { stdin?: string; timeoutMs: number },
) => Promise<{ code: number | null; stdout: string; stderr: string }>;

/** Single-quoted for sh, whatever the value holds. */
const quote = (value: string) => `'${value.replaceAll("'", `'"'"'`)}'`;

/**
 * Sets up a command on a host for its container engine: `$E` is podman where the host has it,
 * else docker (neither: it fails saying so); an unprivileged account's rootless podman gets the
 * runtime directory instances use (aws/container-script.ts).
 */
const ENGINE = `E=$(command -v podman || command -v docker) || { echo "Container environments need podman or docker on host $(hostname): neither is installed" >&2; exit 127; }
if [ "$(id -u)" != 0 ] && [ "\${E##*/}" = podman ]; then export XDG_RUNTIME_DIR="\${XDG_RUNTIME_DIR:-$HOME/.cumulus/run}"; mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"; fi
`;

/** What a pull or a check may take on a host (a large image over a slow link). */
const TIMEOUT_MS = 15 * 60_000;

/**
 * The container engine of another machine (an SSH host, a Slurm login node), as the container
 * builder uses it (container-builder.ts): every podman call of the local one runs there as its
 * account, and the registry login goes to a private file there through the command's input (never
 * onto a command line), removed after the pull.
 */
export class RemotePodman extends Podman {
  constructor(
    /** The machine in messages. */
    private readonly name: string,
    private readonly run: RunCommand,
  ) {
    super({ podman: 'podman', runtime: 'auto' });
  }

  override async exec(args: string[]): Promise<string> {
    const result = await this.run(`${ENGINE}"$E" ${args.map(quote).join(' ')}`, {
      timeoutMs: TIMEOUT_MS,
    });
    if (result.code === 127 && /need podman or docker/.test(result.stderr)) throw final(result.stderr.trim());
    if (result.code !== 0)
      throw new Error(
        result.stderr.trim() || result.stdout.trim() || `podman exited ${result.code} on ${this.name}`,
      );
    return result.stdout;
  }

  protected override async pullWith(image: string, login: RegistryLogin | null): Promise<void> {
    if (!login) {
      await this.exec(['pull', '--quiet', image]);
      return;
    }
    // The auth file: podman's --authfile, docker's config.json in a DOCKER_CONFIG of its own.
    const script = `${ENGINE}d=$(mktemp -d) && chmod 700 "$d" && cat >"$d/config.json" || exit 1
if [ "\${E##*/}" = podman ]; then "$E" pull --quiet --authfile "$d/config.json" ${quote(image)}; else DOCKER_CONFIG="$d" "$E" pull --quiet ${quote(image)}; fi
code=$?; rm -rf "$d"; exit $code`;
    const result = await this.run(script, { stdin: authFile(login), timeoutMs: TIMEOUT_MS });
    if (result.code !== 0) throw new Error(result.stderr.trim() || result.stdout.trim());
  }
}
