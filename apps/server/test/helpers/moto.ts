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
  try {
    execFileSync('python3', ['-m', 'pip', 'install', '--quiet', 'moto[server]'], {
      stdio: 'inherit',
      timeout: 600_000,
    });
  } catch {
    // Said below.
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

export interface Ec2Proxy {
  url: string;
  /** Calls seen, by action (`RunInstances`, `DescribeInstances`...). */
  calls: Map<string, number>;
  /** Milliseconds spent waiting for answers, summed over calls (what EC2 itself took). */
  waitedMs: number;
  resetCalls(): void;
  /** Answers EC2's InsufficientInstanceCapacity to RunInstances of these instance types. */
  noCapacityFor: Set<string>;
  close(): Promise<void>;
}

const capacityError = (type: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>InsufficientInstanceCapacity</Code><Message>We currently do not have sufficient ${type} capacity in the Availability Zone you requested (us-east-1a). Our system will be working on provisioning additional capacity.</Message></Error></Errors><RequestID>cumulus-test-fault</RequestID></Response>`;

/**
 * A proxy in front of moto that still speaks EC2's query protocol: it counts calls by action and
 * answers RunInstances of the types in `noCapacityFor` with EC2's capacity error, byte for byte
 * as EC2 sends it; everything else passes through untouched (signatures stay valid: the Host
 * header is kept).
 */
export async function startEc2Proxy(target: string): Promise<Ec2Proxy> {
  const upstream = new URL(target);
  const calls = new Map<string, number>();
  const noCapacityFor = new Set<string>();
  const proxy: Ec2Proxy = {
    url: '',
    calls,
    waitedMs: 0,
    resetCalls: () => {
      calls.clear();
      proxy.waitedMs = 0;
    },
    noCapacityFor,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const started = performance.now();
      res.once('finish', () => {
        proxy.waitedMs += performance.now() - started;
      });
      const body = Buffer.concat(chunks);
      const params = new URLSearchParams(
        req.headers['content-type']?.includes('x-www-form-urlencoded') ? body.toString('utf8') : '',
      );
      const action = params.get('Action') ?? req.headers['x-amz-target']?.toString() ?? 'other';
      calls.set(action, (calls.get(action) ?? 0) + 1);
      const type = params.get('InstanceType') ?? '';
      if (action === 'RunInstances' && noCapacityFor.has(type)) {
        res.writeHead(500, { 'content-type': 'text/xml;charset=UTF-8' });
        res.end(capacityError(type));
        return;
      }
      const out = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer: IncomingMessage) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
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
