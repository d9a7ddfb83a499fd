import { createHash, createPublicKey, verify } from 'node:crypto';

/** A refusal of Cloud Storage's XML API: `<Error><Code>...` and its status. */
export class XmlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: string,
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
  }
  body(): string {
    const xml = (s: string) =>
      s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll("'", '&apos;');
    const parts = [
      `<Code>${this.code}</Code>`,
      `<Message>${xml(this.message)}</Message>`,
      ...(this.details !== undefined ? [`<Details>${xml(this.details)}</Details>`] : []),
      ...Object.entries(this.extra).map(([k, v]) => `<${k}>${xml(v)}</${k}>`),
    ];
    return `<?xml version='1.0' encoding='UTF-8'?><Error>${parts.join('')}</Error>`;
  }
}

/** RFC 3986 encoding of a query name or value, as the V4 canonical query string has it. */
const encode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `20260101T120000Z` → epoch ms. */
function parseGoogDate(value: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : null;
}

/**
 * Checks a V4 signed URL (`GOOG4-RSA-SHA256`) as Cloud Storage does
 * (https://cloud.google.com/storage/docs/authentication/signatures): the canonical request of
 * the request received (method, path, the query without the signature sorted and encoded, the
 * signed headers, `UNSIGNED-PAYLOAD`), the string to sign over its SHA-256, and the signature (hex)
 * verified with the public key of a key the signing service account has. Answers the signer's
 * email, or throws the XML refusal Google answers: the signature not matching (403
 * `SignatureDoesNotMatch`, with the string to sign and the canonical request it computed), the
 * link expired (400 `ExpiredToken`), a parameter missing or out of range.
 */
export function verifySignedUrl(
  method: string,
  rawPath: string,
  query: URLSearchParams,
  headers: Record<string, string | string[] | undefined>,
  publicKeysOf: (email: string) => string[],
  now = Date.now(),
): string {
  // Google reads the parameters' names in any case (gcloud signs `x-goog-signature`).
  const byLower = new Map([...query].map(([k, v]) => [k.toLowerCase(), v] as const));
  const param = (name: string) => {
    const value = byLower.get(name.toLowerCase()) ?? null;
    if (value === null)
      throw new XmlError(
        400,
        'AuthorizationQueryParametersError',
        `Query-string authentication version 4 requires the X-Goog-Algorithm, X-Goog-Credential, X-Goog-Date, X-Goog-Expires, X-Goog-SignedHeaders and X-Goog-Signature parameters.`,
      );
    return value;
  };
  const algorithm = param('X-Goog-Algorithm');
  const credential = param('X-Goog-Credential');
  const date = param('X-Goog-Date');
  const expires = param('X-Goog-Expires');
  const signedHeaders = param('X-Goog-SignedHeaders');
  const signature = param('X-Goog-Signature');
  if (algorithm !== 'GOOG4-RSA-SHA256')
    throw new XmlError(400, 'InvalidArgument', 'Invalid argument.', `Unsupported algorithm: ${algorithm}`);
  const [email, ...scopeParts] = credential.split('/');
  const scope = scopeParts.join('/');
  const start = parseGoogDate(date);
  if (!email || scopeParts.length !== 4 || scopeParts[2] !== 'storage' || scopeParts[3] !== 'goog4_request')
    throw new XmlError(400, 'AuthorizationQueryParametersError', 'Invalid credential scope.', credential);
  if (start === null || scopeParts[0] !== date.slice(0, 8))
    throw new XmlError(400, 'AuthorizationQueryParametersError', 'Invalid X-Goog-Date.', date);
  const lifetime = Number(expires);
  if (!/^\d+$/.test(expires) || lifetime < 1 || lifetime > 604_800)
    throw new XmlError(
      400,
      'AuthorizationQueryParametersError',
      'X-Goog-Expires must be less than 604800 seconds (7 days) and more than 0.',
    );
  const canonicalQuery = [...query]
    .filter(([k]) => k.toLowerCase() !== 'x-goog-signature')
    .map(([k, v]) => [encode(k), encode(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const names = signedHeaders.split(';');
  const canonicalHeaders = names
    .map((name) => {
      const value = headers[name];
      return `${name}:${(Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const payload = (headers['x-goog-content-sha256'] as string | undefined) ?? 'UNSIGNED-PAYLOAD';
  const canonicalRequest = [method, rawPath, canonicalQuery, canonicalHeaders, signedHeaders, payload].join(
    '\n',
  );
  const stringToSign = [
    'GOOG4-RSA-SHA256',
    date,
    scope,
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  const good =
    /^[0-9a-f]+$/.test(signature) &&
    publicKeysOf(email).some((pem) =>
      verify('RSA-SHA256', Buffer.from(stringToSign), createPublicKey(pem), Buffer.from(signature, 'hex')),
    );
  if (!good)
    throw new XmlError(
      403,
      'SignatureDoesNotMatch',
      'Access denied.',
      'The request signature we calculated does not match the signature you provided. Check your Google secret key and signing method.',
      { StringToSign: stringToSign, CanonicalRequest: canonicalRequest },
    );
  if (now > start + lifetime * 1000)
    throw new XmlError(
      400,
      'ExpiredToken',
      'Invalid argument.',
      `Request has expired: ${Math.floor(start / 1000) + lifetime}`,
    );
  return email;
}
