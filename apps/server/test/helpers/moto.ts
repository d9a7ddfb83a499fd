import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import {
  CreateAccessKeyCommand,
  CreateUserCommand,
  IAMClient,
  PutUserPolicyCommand,
} from '@aws-sdk/client-iam';
import { freePort, waitFor } from './wait.js';

/**
 * AWS for tests: moto's server (`moto_server`, the `moto` Python package), speaking AWS's real
 * wire protocols on a local port. Where it is missing it is installed with pip; when that fails
 * the test fails saying so, never skips.
 */
function motoCommand(): string[] {
  const found = (cmd: string[]) => {
    try {
      execFileSync(cmd[0]!, [...cmd.slice(1), '--help'], { stdio: 'ignore', timeout: 60_000 });
      return true;
    } catch {
      return false;
    }
  };
  const candidates = [['moto_server'], ['python3', '-m', 'moto.server']];
  for (const c of candidates) if (found(c)) return c;
  // As scripts/setup.sh does: Debian's python3 refuses pip installs without --break-system-packages.
  for (const extra of [[], ['--break-system-packages']]) {
    try {
      execFileSync('python3', ['-m', 'pip', 'install', '--quiet', ...extra, 'moto[server]'], {
        stdio: 'inherit',
        timeout: 600_000,
      });
      break;
    } catch {
      // Said below.
    }
  }
  for (const c of candidates) if (found(c)) return c;
  throw new Error(
    'These tests need moto_server (the `moto` Python package, with its server extra) and it is not installed, and `python3 -m pip install "moto[server]"` failed: install it (scripts/setup.sh does) and run again.',
  );
}

export interface Moto {
  url: string;
  /** Keys of an IAM user allowed everything (with `auth`, the only keys moto takes). */
  keys: { accessKeyId: string; secretAccessKey: string };
  account: string;
  stop(): Promise<void>;
}

/** Starts moto_server on a free port; with `auth`, moto checks every signature and IAM policy, as AWS does. */
export async function startMoto(options: { auth?: boolean } = {}): Promise<Moto> {
  const [cmd, ...args] = motoCommand();
  const port = await freePort();
  // Three unauthenticated calls make the user every later call authenticates as.
  const child: ChildProcess = spawn(cmd!, [...args, '-H', '127.0.0.1', '-p', String(port)], {
    stdio: 'ignore',
    env: { ...process.env, ...(options.auth && { INITIAL_NO_AUTH_ACTION_COUNT: '3' }) },
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  try {
    await waitFor('moto_server to answer', async () => (await fetch(`${url}/moto-api/`)).ok, 30_000, 100);
    const iam = new IAMClient({
      region: 'us-east-1',
      endpoint: url,
      credentials: { accessKeyId: 'AKIASTARTINGMOTO01', secretAccessKey: 'starting' },
    });
    await iam.send(new CreateUserCommand({ UserName: 'cumulus-tests' }));
    await iam.send(
      new PutUserPolicyCommand({
        UserName: 'cumulus-tests',
        PolicyName: 'everything',
        PolicyDocument: JSON.stringify({
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }],
        }),
      }),
    );
    const key = (await iam.send(new CreateAccessKeyCommand({ UserName: 'cumulus-tests' }))).AccessKey!;
    return {
      url,
      keys: { accessKeyId: key.AccessKeyId!, secretAccessKey: key.SecretAccessKey! },
      account: '123456789012',
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Sets the AWS SDK's own variables (AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_EC2, credentials...) in this
 * process's environment, where the SDK reads them, for a test file's servers; answers the undo.
 */
export function awsEnvironment(vars: Record<string, string>): () => void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  return () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

/** What the test helpers' own calls through the proxy carry, so they are not counted as Cumulus's. */
export const HELPER_HEADER = 'x-cumulus-test-helper';

export interface Ec2Proxy {
  url: string;
  /** Calls seen, by action (`RunInstances`, `DescribeInstances`...). */
  calls: Map<string, number>;
  /** Every call seen (not the helpers'), with its service (from the signature's scope) and parameters. */
  requests: { service: string; action: string; params: URLSearchParams }[];
  /** Actions answered with this AWS error code (AccessDenied...), in the service's own error format. */
  refuse: Map<string, string>;
  /** Milliseconds spent waiting for answers, summed over calls (what EC2 itself took). */
  waitedMs: number;
  resetCalls(): void;
  /**
   * RunInstances answered with EC2's InsufficientInstanceCapacity when it asks for one of these:
   * an instance type, `spot` (every spot request), a subnet id (its zone has none), or `type@subnet`.
   */
  noCapacityFor: Set<string>;
  /** Instance types RunInstances refuses as EC2 does a type the region does not offer (InvalidParameterValue). */
  notOffered: Set<string>;
  /** For this long after RunInstances, DescribeInstances shows the instance `pending` (a VM booting). */
  pendingMs: number;
  /** For this long after RunInstances, DescribeInstances does not know the instance (eventual consistency). */
  unknownMs: number;
  close(): Promise<void>;
}

const ec2Error = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>${code}</Code><Message>${message}</Message></Error></Errors><RequestID>cumulus-test-fault</RequestID></Response>`;
const capacityError = (type: string, zone: string) =>
  ec2Error(
    'InsufficientInstanceCapacity',
    `We currently do not have sufficient ${type} capacity in the Availability Zone you requested (${zone}). Our system will be working on provisioning additional capacity.`,
  );
const notOfferedError = (type: string) =>
  ec2Error('InvalidParameterValue', `The instance type '${type}' is not supported in this region.`);

/** The request's `Filter.N.Value.M` and `InstanceId.N` values naming instances, without `hidden` ones. */
function withoutInstances(params: URLSearchParams, hidden: (id: string) => boolean): URLSearchParams | null {
  const out = new URLSearchParams();
  let named = 0;
  let kept = 0;
  for (const [k, v] of params) {
    if (/^(InstanceId\.\d+|Filter\.\d+\.Value\.\d+)$/.test(k) && /^i-[0-9a-f]+$/.test(v)) {
      named++;
      if (hidden(v)) continue;
      kept++;
    }
    out.append(k, v);
  }
  return named > 0 && kept === 0 ? null : out;
}

const EMPTY_DESCRIBE = `<?xml version="1.0" encoding="UTF-8"?>\n<DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>cumulus-test</requestId><reservationSet/></DescribeInstancesResponse>`;

/** DescribeInstances' answer with these instances `pending` (code 0) instead of `running` (16). */
function showPending(xml: string, pending: (id: string) => boolean): string {
  return xml.replace(
    /(<instanceId>(i-[0-9a-f]+)<\/instanceId>(?:(?!<instanceId>)[\s\S])*?<instanceState>\s*<code>)16(<\/code>\s*<name>)running(<\/name>)/g,
    (whole, before: string, id: string, middle: string, after: string) =>
      pending(id) ? `${before}0${middle}pending${after}` : whole,
  );
}

/**
 * A proxy in front of moto that still speaks EC2's query protocol: it counts calls by action and
 * plays what moto does not: RunInstances refused for capacity (by type, market or subnet) or for a
 * type the region lacks, byte for byte as EC2 answers; VMs that stay `pending` a while; and
 * DescribeInstances not knowing a fresh instance yet. Everything else passes through untouched
 * (the Host header is kept; moto without `auth` does not check signatures).
 */
export async function startEc2Proxy(target: string): Promise<Ec2Proxy> {
  const upstream = new URL(target);
  const calls = new Map<string, number>();
  const launched = new Map<string, number>();
  const proxy: Ec2Proxy = {
    url: '',
    calls,
    waitedMs: 0,
    requests: [],
    refuse: new Map(),
    resetCalls: () => {
      calls.clear();
      proxy.requests.length = 0;
      proxy.waitedMs = 0;
    },
    noCapacityFor: new Set(),
    notOffered: new Set(),
    pendingMs: 0,
    unknownMs: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const young = (ms: number) => (id: string) => Date.now() - (launched.get(id) ?? 0) < ms;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const started = performance.now();
      res.once('finish', () => {
        proxy.waitedMs += performance.now() - started;
      });
      let body = Buffer.concat(chunks);
      const form = req.headers['content-type']?.includes('x-www-form-urlencoded');
      const params = new URLSearchParams(form ? body.toString('utf8') : '');
      const action = params.get('Action') ?? req.headers['x-amz-target']?.toString() ?? 'other';
      const service =
        /Credential=[^/]+\/[^/]+\/[^/]+\/([^/]+)\//.exec(String(req.headers.authorization))?.[1] ?? '';
      if (!req.headers[HELPER_HEADER]) {
        calls.set(action, (calls.get(action) ?? 0) + 1);
        proxy.requests.push({ service, action, params });
      }
      const fail = (status: number, xml: string) => {
        res.writeHead(status, { 'content-type': 'text/xml;charset=UTF-8' });
        res.end(xml);
      };
      const refused = proxy.refuse.get(action);
      if (refused) {
        const message = `User is not authorized to perform: ${service}:${action}`;
        return fail(
          403,
          service === 'ec2'
            ? ec2Error(refused, message)
            : `<ErrorResponse><Error><Type>Sender</Type><Code>${refused}</Code><Message>${message}</Message></Error><RequestId>cumulus-test-fault</RequestId></ErrorResponse>`,
        );
      }
      if (action === 'RunInstances') {
        const type = params.get('InstanceType') ?? '';
        const subnet = params.get('SubnetId') ?? '';
        const spot = params.get('InstanceMarketOptions.MarketType') === 'spot';
        const no = proxy.noCapacityFor;
        if (proxy.notOffered.has(type)) return fail(400, notOfferedError(type));
        if (no.has(type) || (spot && no.has('spot')) || no.has(subnet) || no.has(`${type}@${subnet}`))
          return fail(500, capacityError(type, subnet || 'us-east-1a'));
      }
      if (action === 'DescribeInstances' && proxy.unknownMs > 0) {
        const kept = withoutInstances(params, young(proxy.unknownMs));
        if (!kept) {
          res.writeHead(200, { 'content-type': 'text/xml;charset=UTF-8' });
          return res.end(EMPTY_DESCRIBE);
        }
        body = Buffer.from(kept.toString());
      }
      const headers = { ...req.headers, 'content-length': String(body.length) };
      const out = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
        (answer: IncomingMessage) => {
          const rewrite =
            action === 'RunInstances' || (action === 'DescribeInstances' && proxy.pendingMs > 0);
          if (!rewrite) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            let xml = Buffer.concat(parts).toString('utf8');
            if (action === 'RunInstances')
              for (const [, id] of xml.matchAll(/<instanceId>(i-[0-9a-f]+)<\/instanceId>/g))
                launched.set(id!, Date.now());
            else xml = showPending(xml, young(proxy.pendingMs));
            const { 'content-length': _, 'transfer-encoding': __, ...rest } = answer.headers;
            res.writeHead(answer.statusCode ?? 502, { ...rest, 'content-length': Buffer.byteLength(xml) });
            res.end(xml);
          });
        },
      );
      out.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      out.end(body);
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  Object.assign(proxy, { url: `http://127.0.0.1:${port}` });
  return proxy;
}
