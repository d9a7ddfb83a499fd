import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hash,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

// One-shot hash(): a third of createHash's cost, and every API request hashes its credential.
export const sha256 = (value: string): string => hash('sha256', value, 'hex');

/** Random lower-case hex; never contains `-`, so it can sit on either side of a token separator. */
export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * AES-256-GCM with a key derived from the server secret; output is `v1.<iv>.<tag>.<ciphertext>`.
 * `purpose` derives a key of its own, so a box sealed for one use never opens as another.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(secret: string, purpose = 'secret-box-v1') {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'cumulus', purpose, 32));
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  decrypt(boxed: string): string {
    const [version, iv, tag, data] = boxed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unreadable secret box');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/** HMAC-SHA256 signatures (base64url) with a key derived from the server secret for one purpose. */
export class Signer {
  readonly #key: Buffer;

  constructor(secret: string, purpose: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'cumulus', `signer:${purpose}`, 32));
  }

  sign(message: string): string {
    return createHmac('sha256', this.#key).update(message).digest('base64url');
  }

  verify(message: string, signature: string): boolean {
    return safeEqual(this.sign(message), signature);
  }
}
