import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Deps } from '../../deps.js';
import { resolveAccess } from '../../http/access.js';
import type { App } from '../../http/app-types.js';
import { ApiError } from '../../http/errors.js';
import { onUpgrade } from '../../http/upgrade.js';
import { Authenticator, type WorkspaceAccess } from '../identity/index.js';
import { saveAwsCredentials } from './credentials.js';
import { AWS_REGIONS } from './schemas.js';
import { getGlobal, setRegions, setUpGlobal } from './setup/aws.js';

const PATH = /^\/ws\/api\/v1\/([^/]{1,64})\/cluster-info\/?$/;
/** Client-contract section 7: the close code established clients read as "unauthorized". */
export const UNAUTHORIZED = 4403;
const MAX_MESSAGE = 64 * 1024;

type Say = (message: string, flags?: { is_error?: boolean; raise?: boolean }) => void;

/**
 * `ws(s)://…/ws/api/v1/{ws}/cluster-info/`: established clients
 * set a workspace's backend options through it. The client connects with its token, reads one
 * message, sends `{type: "update_options", data}`; the server streams `{type: "update_options",
 * message}` lines while it checks and applies them and ends with `FINISHED`. A caller who may
 * not administer the workspace is closed with 4403.
 */
export function registerClusterInfoSocket(app: App, deps: Deps): void {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE });
  const authenticator = new Authenticator(deps.db, deps.changes);
  app.addHook('onClose', async () => {
    for (const client of sockets.clients) client.terminate();
    sockets.close();
  });

  onUpgrade(
    app,
    (path) => PATH.test(path),
    (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const slug = decodeURIComponent(PATH.exec((req.url ?? '').split('?')[0] ?? '')![1]!);
      sockets.handleUpgrade(req, socket, head, (ws) => {
        // A bad frame (one past MAX_MESSAGE, say) is an 'error' event: ws closes the socket itself.
        ws.on('error', () => ws.terminate());
        admit(req, slug).then(
          (access) => serve(ws, access, req.socket.remoteAddress ?? '127.0.0.1'),
          () => ws.close(UNAUTHORIZED, 'Unauthorized'),
        );
      });
    },
  );

  /** The upgrade's caller, and their standing in the path's workspace: resolved once, here (admins only). */
  async function admit(req: IncomingMessage, slug: string): Promise<WorkspaceAccess> {
    const match = /^(?:Token|ApiToken|Bearer)\s+(\S{1,512})\s*$/i.exec(req.headers.authorization ?? '');
    if (!match?.[1]) throw new Error('no credentials');
    const found = await authenticator.authenticate(match[1]);
    if (!found) throw new Error('bad credentials');
    const access = await resolveAccess(
      app,
      { workspace: 'admin' },
      { user: found.user, params: { account: slug }, url: '/ws/api/v1/:account/cluster-info/' },
    );
    return access.workspace!;
  }

  function serve(ws: WebSocket, access: WorkspaceAccess, ip: string) {
    const say: Say = (message, flags = {}) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'update_options', message, ...flags }));
    };
    ws.send(JSON.stringify({ type: 'connected', message: `Connected to ${access.workspace.slug}` }));
    let busy = false;
    ws.on('message', (raw) => {
      if (busy) return say('Options are being applied already; wait for FINISHED.', { is_error: true });
      let parsed: { type?: unknown; data?: unknown };
      try {
        parsed = JSON.parse(String(raw));
      } catch {
        return say('Messages are JSON objects.', { is_error: true, raise: true });
      }
      if (parsed.type !== 'update_options') return;
      busy = true;
      apply(access, ip, parsed.data, say)
        .catch((err: unknown) => {
          const text =
            err instanceof ApiError ? errorText(err) : err instanceof Error ? err.message : String(err);
          say(text, { is_error: true, raise: true });
        })
        .finally(() => {
          busy = false;
          say('FINISHED');
        });
    });
  }

  /** Backend options as clients send them: `{backend, options: {region, credentials...}}`. */
  async function apply(access: WorkspaceAccess, ip: string, data: unknown, say: Say) {
    const given = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
    const options = (
      typeof given.options === 'object' && given.options !== null ? given.options : given
    ) as Record<string, unknown>;
    const backend = String(given.backend ?? options.backend ?? 'vm_aws');
    say('CONFIGURING_BACKEND');
    if (backend !== 'vm_aws')
      throw new Error(
        `This server sets up ${backend} from the Cloud page only; here it takes vm_aws options.`,
      );
    const region = String(
      options.region_name ?? options.aws_region_name ?? options.aws_region ?? 'us-east-1',
    );
    if (!(AWS_REGIONS as readonly string[]).includes(region))
      throw new Error(`"${region}" is not an AWS region Cumulus supports.`);
    const creds = (options.credentials ?? {}) as Record<string, unknown>;
    const keyId = creds.aws_access_key_id ?? creds.aws_access_key ?? options.aws_access_key_id;
    const secret = creds.aws_secret_access_key ?? creds.aws_secret_key ?? options.aws_secret_access_key;
    if (keyId || secret) {
      say('Checking the AWS credentials');
      const saved = await saveAwsCredentials(
        deps,
        access,
        {
          credentials: {
            aws_access_key_id: String(keyId ?? ''),
            aws_secret_access_key: String(secret ?? ''),
          },
          default_region: region as (typeof AWS_REGIONS)[number],
        },
        false,
      );
      say(`AWS credentials saved for account ${saved.summary.account ?? ''}`);
    }
    const global = await getGlobal(deps, access);
    if (!global.configured) {
      say('Creating the instance profile and the cluster security group');
      await setUpGlobal(deps, access, { region: region as (typeof AWS_REGIONS)[number] }, ip);
    }
    say(`Setting up ${region}`);
    const set = await setRegions(deps, access, {
      regions: [{ region: region as (typeof AWS_REGIONS)[number], default: true }],
    });
    // Without a machine image nothing can launch there yet: said, not claimed done.
    const problem = set.regions.find((r) => r.region === region)?.problem;
    if (problem) say(problem, { is_error: true });
    else say(`Clusters of ${access.workspace.slug} now run in AWS ${region}`);
  }
}

/** An API error's words (field errors joined), as the socket's error line. */
function errorText(err: ApiError): string {
  const body = err.body;
  if (typeof body.detail === 'string') return body.detail;
  return Object.entries(body)
    .map(
      ([field, messages]) => `${field}: ${Array.isArray(messages) ? messages.join(' ') : String(messages)}`,
    )
    .join('; ');
}
