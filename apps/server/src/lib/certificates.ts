import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/**
 * A self-signed ECDSA P-256 certificate and key for one cluster, in PEM. Scheduler, workers and
 * clients all present this certificate and trust only it (it is its own CA), which is the rule
 * clients of this API follow: `cafile = tls_cert`, the same cert and key as client certificate,
 * `CERT_REQUIRED`, no hostname check. Built with node:crypto alone: a small DER writer is less to
 * trust than a dependency tree, and the shape matches distributed's own `Security.temporary()`.
 */
export function clusterCertificate(name = 'dask-internal', validDays = 3650): { cert: string; key: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const subject = seq(set(seq(oid(OID.commonName), utf8(name))));
  const now = Date.now();
  const tbs = seq(
    explicit(0, int(Buffer.from([2]))),
    int(randomBytes(16)),
    seq(oid(OID.ecdsaWithSha256)),
    subject,
    seq(time(new Date(now - 3_600_000)), time(new Date(now + validDays * 86_400_000))),
    subject,
    spki,
    explicit(
      3,
      seq(
        extension(OID.basicConstraints, true, seq(tlv(0x01, Buffer.from([0xff])))),
        extension(OID.keyUsage, true, tlv(0x03, Buffer.from([0x01, 0x86]))), // digitalSignature, keyCertSign, cRLSign
        extension(OID.extKeyUsage, false, seq(oid(OID.serverAuth), oid(OID.clientAuth))),
        extension(OID.subjectAltName, false, seq(tlv(0x82, Buffer.from(name, 'ascii')))),
      ),
    ),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(
    tbs,
    seq(oid(OID.ecdsaWithSha256)),
    tlv(0x03, Buffer.concat([Buffer.from([0]), signature])),
  );
  return {
    cert: pem('CERTIFICATE', der),
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

const OID = {
  commonName: '2.5.4.3',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
};

function tlv(tag: number, value: Buffer): Buffer {
  const n = value.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, value]);
}
const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));
const explicit = (n: number, value: Buffer) => tlv(0xa0 + n, value);
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const int = (unsigned: Buffer) => tlv(0x02, derIntegerBytes(unsigned));

/**
 * The content bytes of a DER INTEGER for an unsigned big-endian number: no leading zero bytes,
 * and one 0x00 where the top bit is set (else it would read as negative). OpenSSL refuses any
 * other padding ("illegal padding"), which made about one random serial in 256 unloadable.
 */
export function derIntegerBytes(unsigned: Buffer): Buffer {
  let start = 0;
  while (start < unsigned.length - 1 && unsigned[start] === 0) start++;
  const trimmed = unsigned.subarray(start);
  return trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed;
}
const extension = (id: string, critical: boolean, value: Buffer) =>
  seq(oid(id), ...(critical ? [tlv(0x01, Buffer.from([0xff]))] : []), tlv(0x04, value));

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const bytes = [a * 40 + b];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >>> 7; v > 0; v >>>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime until 2049, GeneralizedTime after, as X.509 requires. */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`, 'ascii'))
    : tlv(0x18, Buffer.from(`${iso}Z`, 'ascii'));
}

function pem(label: string, der: Buffer): string {
  const body = der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n');
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}
