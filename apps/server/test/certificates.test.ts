import { createPrivateKey, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clusterCertificate, derIntegerBytes } from '../src/lib/certificates.js';

describe('cluster certificates', () => {
  it('encodes integers the one way OpenSSL accepts', () => {
    const hex = (bytes: number[]) => derIntegerBytes(Buffer.from(bytes)).toString('hex');
    expect(hex([0x00, 0x10, 0x20])).toBe('1020'); // no leading zero
    expect(hex([0x00, 0x00, 0x90])).toBe('0090'); // one zero before a set top bit
    expect(hex([0x90, 0x01])).toBe('009001');
    expect(hex([0x7f])).toBe('7f');
    expect(hex([0x00, 0x00])).toBe('00');
  });

  it('makes certificates that load every time, with the key that signs them', () => {
    // A random serial once started with a zero byte about one time in 256, and the scheduler
    // then died with "ssl.SSLError: [X509] PEM lib"; 2000 certificates would catch that.
    for (let i = 0; i < 2000; i++) {
      const { cert, key } = clusterCertificate();
      const x509 = new X509Certificate(cert);
      expect(x509.checkPrivateKey(createPrivateKey(key))).toBe(true);
      expect(x509.verify(x509.publicKey)).toBe(true);
    }
    const x509 = new X509Certificate(clusterCertificate('dask-internal').cert);
    expect(x509.subject).toBe('CN=dask-internal');
    expect(x509.subjectAltName).toBe('DNS:dask-internal');
    expect(x509.ca).toBe(true);
    expect(new Date(x509.validTo).getTime()).toBeGreaterThan(Date.now() + 3000 * 86_400_000);
  });
});
