import { type LookupAddress, lookup as lookupAddresses } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { CustomFetch, CustomFetchOptions } from 'openid-client';

/**
 * An organization admin names their connection's issuer, and the server then fetches from it (the
 * discovery document, then the token, keys and userinfo endpoints that document names). Unless the
 * operator allowed the issuer (CUMULUS_SSO_ALLOWED_ISSUERS), those requests go over https to
 * addresses on the public internet only, so an issuer cannot make the server reach its own machine
 * or its private network. The check runs when the connection is saved, and at every connection the
 * sign-in makes: the address a name resolves to is checked as the socket connects to it.
 */

export const ISSUER_MESSAGES = {
  rule: "An organization's identity provider must be at an https:// address on the public internet, not a private, loopback or link-local one:",
  hint: 'To use a provider on your own network, ask the operator of this Cumulus server to list its issuer in CUMULUS_SSO_ALLOWED_ISSUERS.',
  notHttps: (url: string) => `${url} is not https.`,
  address: (host: string, kind: string) => `${host} is ${kind}.`,
  localName: (host: string) => `${host} is a name of this machine.`,
  resolves: (host: string, address: string, kind: string) => `${host} resolves to ${address}, ${kind}.`,
} as const;

/** The field error of a refused issuer: the rule, why this one breaks it, and who can allow it. */
export const issuerFieldMessage = (reason: string) =>
  `${ISSUER_MESSAGES.rule} ${reason} ${ISSUER_MESSAGES.hint}`;

/** A request of an organization's connection that the rule refuses; `reason` says why, in words. */
export class IssuerRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'IssuerRefused';
  }
}

type Subnet = [network: string, prefix: number];

const subnets = (list: Subnet[]) => {
  const block = new BlockList();
  for (const [network, prefix] of list)
    block.addSubnet(network, prefix, isIP(network) === 6 ? 'ipv6' : 'ipv4');
  return block;
};

/**
 * A kind of address the rule refuses. An IPv4 address is checked against the IPv4 networks only (a
 * BlockList takes it for its IPv4-mapped IPv6 form against IPv6 networks); an IPv6 address against
 * both, so an IPv4-mapped one is what its IPv4 address is.
 */
const kind = (words: string, v4: Subnet[], v6: Subnet[] = []) => ({
  words,
  v4: subnets(v4),
  v6: subnets([...v4, ...v6]),
});

const KINDS = [
  kind('a loopback address', [['127.0.0.0', 8]], [['::1', 128]]),
  kind('an unspecified address, which reaches this machine', [['0.0.0.0', 8]], [['::', 128]]),
  // With the shared address space of carrier-grade NAT.
  kind('a private address', [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['100.64.0.0', 10],
  ]),
  kind('a link-local address', [['169.254.0.0', 16]], [['fe80::', 10]]),
  kind('a unique local address', [], [['fc00::', 7]]),
  kind(
    'a reserved address',
    [
      ['192.0.0.0', 24],
      ['192.0.2.0', 24],
      ['198.18.0.0', 15],
      ['198.51.100.0', 24],
      ['203.0.113.0', 24],
      ['224.0.0.0', 4],
      ['240.0.0.0', 4],
    ],
    [
      // Outside global unicast (2000::/3): IPv4-mapped and other embeddings, multicast...
      ['::', 3],
      ['4000::', 2],
      ['8000::', 1],
      // Inside it: Teredo, documentation, 6to4.
      ['2001::', 32],
      ['2001:db8::', 32],
      ['2002::', 16],
    ],
  ),
];

/** What the address is when the rule refuses it, in words; null for an address on the public internet. */
export function addressKind(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return 'not an address';
  const found = KINDS.find((k) => (family === 4 ? k.v4.check(address, 'ipv4') : k.v6.check(address, 'ipv6')));
  return found?.words ?? null;
}

/** `localhost` and the names below it are this machine's own (RFC 6761), whatever DNS says. */
const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** A URL's host, without the brackets of an IPv6 address or a trailing dot, in lower case. */
const hostOf = (url: URL) =>
  url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

/** Whether the operator allowed the issuer: one of CUMULUS_SSO_ALLOWED_ISSUERS or below one. */
export function isAllowedIssuer(allowed: readonly string[], issuer: string): boolean {
  const plain = issuer.replace(/\/+$/, '');
  return allowed.some((entry) => plain === entry || plain.startsWith(`${entry}/`));
}

/** Why the rule refuses a request to the URL before any name is resolved; null: nothing yet. */
function refusalBeforeLookup(url: URL): string | null {
  if (url.protocol !== 'https:') return ISSUER_MESSAGES.notHttps(url.origin);
  const host = hostOf(url);
  if (isIP(host)) {
    const kind = addressKind(host);
    return kind ? ISSUER_MESSAGES.address(host, kind) : null;
  }
  return isLocalName(host) ? ISSUER_MESSAGES.localName(host) : null;
}

/**
 * Why an issuer an organization admin enters is refused, or null when it is accepted: an allowed
 * one, or an https address whose name resolves to public addresses only. A name that does not
 * resolve now is accepted; every sign-in checks it again.
 */
export async function issuerRefusal(allowed: readonly string[], issuer: string): Promise<string | null> {
  if (isAllowedIssuer(allowed, issuer)) return null;
  const url = new URL(issuer);
  const before = refusalBeforeLookup(url);
  if (before || isIP(hostOf(url))) return before;
  const host = hostOf(url);
  let addresses: LookupAddress[];
  try {
    addresses = await Promise.race([
      lookup(host, { all: true }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('DNS timeout')), 5000).unref()),
    ]);
  } catch {
    return null;
  }
  for (const { address } of addresses) {
    const kind = addressKind(address);
    if (kind) return ISSUER_MESSAGES.resolves(host, address, kind);
  }
  return null;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The socket's look-up. Checked (`refuse`), a name resolving to any address the rule refuses
 * connects to none of them; unchecked (an allowed issuer's origin), it is the system's look-up.
 */
const socketLookup =
  (refuse: boolean) =>
  (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    lookupAddresses(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of refuse ? addresses : []) {
        const kind = addressKind(address);
        if (kind) return callback(new IssuerRefused(ISSUER_MESSAGES.resolves(hostname, address, kind)), []);
      }
      const [first] = addresses;
      if (options.all) return callback(null, addresses);
      if (!first)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };

/** Provider answers are small documents: more than this is not read. */
const MAX_ANSWER_BYTES = 1024 * 1024;

function bodyOf(body: CustomFetchOptions['body']): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  throw new TypeError('A streamed request body is not supported');
}

function answerOf(res: IncomingMessage, chunks: Buffer[]): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, one);
  }
  const status = res.statusCode ?? 502;
  const empty = status === 204 || status === 205 || status === 304;
  return new Response(empty ? null : Buffer.concat(chunks), { status, headers });
}

/**
 * The fetch an organization's connection makes its requests with (openid-client's customFetch).
 * Requests to the origin of an issuer the operator allowed go anywhere; every other one only over
 * https to public addresses, checked as the socket connects (so a name cannot resolve to a public
 * address when checked and to a private one when used).
 */
export function connectionFetch(allowedOrigin: string | null): CustomFetch {
  return (target, options) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(target);
      const exempt = allowedOrigin !== null && url.origin === allowedOrigin;
      const refused = exempt ? null : refusalBeforeLookup(url);
      if (refused) return reject(new IssuerRefused(refused));
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(
        url,
        {
          method: options.method,
          headers: options.headers,
          ...(options.signal ? { signal: options.signal } : {}),
          lookup: socketLookup(!exempt),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_ANSWER_BYTES) req.destroy(new Error(`The answer of ${url.origin} is too large`));
            else chunks.push(chunk);
          });
          res.on('end', () => {
            try {
              resolve(answerOf(res, chunks));
            } catch (error) {
              reject(error);
            }
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(bodyOf(options.body));
    });
}
