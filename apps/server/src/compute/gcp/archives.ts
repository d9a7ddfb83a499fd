import { createHash, createSign } from 'node:crypto';
import type { Storage } from '@google-cloud/storage';
import type { ArchiveStore } from '../builder.js';
import { final } from '../errors.js';
import { credentialId, type GcpCredential, type ServiceAccountKey, tokenOf } from './auth.js';
import { classify } from './errors.js';
import type { GcePlacement } from './placement.js';
import { storage, storageAuth } from './sdk.js';

/** How long a build machine's upload link works (a build may take hours). */
const UPLOAD_LINK_SECONDS = 6 * 3600;
/** How long an instance's download link works: it downloads at once, after its bootstrap. */
export const DOWNLOAD_LINK_SECONDS = 15 * 60;

/**
 * The workspace's archive bucket: `cumulus-<project>-w<workspace>-<server>`, the last part six hex
 * digits of this server's public URL (bucket names are global: two Cumulus servers in one project
 * keep apart). A valid name: lower case, 3-63 characters, no `google` in it.
 */
export function archiveBucketName(project: string, workspaceId: number, serverUrl: string): string {
  const server = createHash('sha256').update(serverUrl).digest('hex').slice(0, 6);
  const safe = project
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replaceAll('google', 'g00gle');
  const tail = `-w${workspaceId}-${server}`;
  return `${`cumulus-${safe}`.slice(0, 63 - tail.length)}${tail}`;
}

/** `gs://bucket/object` → its parts. */
export function parseGs(location: string): { bucket: string; object: string } {
  const m = /^gs:\/\/([^/]+)\/(.+)$/.exec(location);
  if (!m) throw new Error(`Not a Cloud Storage location: ${location}`);
  return { bucket: m[1]!, object: m[2]! };
}

/** RFC 3986 encoding (what V4 signing encodes a query or a path segment with). */
const encode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A V4 signed URL (`GOOG4-RSA-SHA256`, https://cloud.google.com/storage/docs/access-control/signing-urls-manually)
 * for one object of `storageUrl`'s XML API, signed here with the service account key. Signed here,
 * not by `@google-cloud/storage`: its signer puts the endpoint's host name without its port in the
 * signed `host` header (signer.js: `fqdn.hostname`), so its links to an endpoint on another port
 * than 443 (the tests' rig) do not match the request's Host, and Cloud Storage refuses them.
 */
export function signedUrl(
  key: Pick<ServiceAccountKey, 'client_email' | 'private_key'>,
  o: {
    storageUrl: string;
    method: 'GET' | 'PUT';
    bucket: string;
    object: string;
    seconds: number;
    now?: Date;
  },
): string {
  const base = new URL(o.storageUrl);
  const stamp = (o.now ?? new Date())
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const scope = `${stamp.slice(0, 8)}/auto/storage/goog4_request`;
  const path = `${base.pathname.replace(/\/+$/, '')}/${o.bucket}/${o.object.split('/').map(encode).join('/')}`;
  const query = [
    ['X-Goog-Algorithm', 'GOOG4-RSA-SHA256'],
    ['X-Goog-Credential', `${key.client_email}/${scope}`],
    ['X-Goog-Date', stamp],
    ['X-Goog-Expires', String(o.seconds)],
    ['X-Goog-SignedHeaders', 'host'],
  ]
    .map(([k, v]) => `${encode(k!)}=${encode(v!)}`)
    .sort()
    .join('&');
  const canonical = [o.method, path, query, `host:${base.host}\n`, 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const toSign = [
    'GOOG4-RSA-SHA256',
    stamp,
    scope,
    createHash('sha256').update(canonical).digest('hex'),
  ].join('\n');
  const signature = createSign('RSA-SHA256').update(toSign).sign(key.private_key, 'hex');
  return `${base.origin}${path}?${query}&X-Goog-Signature=${signature}`;
}

/**
 * vm_gcp's archives in a Cloud Storage bucket of the workspace's project (`archiveBucketName`),
 * made when its first build uploads (uniform bucket-level access, public access prevented, in the
 * workspace's region, labelled): the build machine PUTs to a V4 signed link
 * (`builds/build-<id>.tar.gz`), the archive is kept as `environments/env-<lockfile sha256>.tar.gz`
 * (an identical one reused), instances GET it by a link valid 15 minutes, and garbage collection
 * deletes it. Bucket and object calls go through `@google-cloud/storage` at `storageUrl` with an
 * auth client whose tokens are Cumulus's own exchange (auth.ts); links are signed with the
 * workspace's key. A workspace on this server's own account (workload identity) has no key to sign
 * with: its archives stay on the control plane (`uploadTarget` answers null).
 */
export function createGcsArchives(options: {
  placementOf(workspaceId: number): Promise<GcePlacement | null>;
  storageUrl: string;
  tokenUrl: string;
  metadataUrl: string;
  /** This server's public URL: part of the bucket's name. */
  serverUrl: string;
}): ArchiveStore {
  const clients = new Map<string, Storage>();
  const made = new Set<string>();

  function clientOf(credential: GcpCredential, project: string): Storage {
    const id = credentialId(credential);
    let found = clients.get(id);
    if (!found) {
      const auth = new (storageAuth().OAuth2Client)();
      auth.refreshHandler = async () => {
        const token = await tokenOf(credential, options);
        return { access_token: token.accessToken, expiry_date: token.expiresAt };
      };
      found = new storage.Storage({
        apiEndpoint: options.storageUrl,
        projectId: project,
        // storage 7's own google-auth-library (sdk.ts): its types are not the compute SDK's.
        authClient: auth as never,
        // Storage sends no credentials to an endpoint not Google's unless told to (the tests' rig).
        useAuthWithCustomEndpoint: true,
      });
      clients.set(id, found);
    }
    return found;
  }

  async function placement(workspaceId: number): Promise<GcePlacement> {
    const p = await options.placementOf(workspaceId);
    if (!p) throw final('This workspace is not set up on GCP (a key, the global setup and a region).');
    return p;
  }

  /** The workspace's bucket, made if missing. */
  async function bucketOf(p: GcePlacement, workspaceId: number): Promise<string> {
    const name = archiveBucketName(p.project, workspaceId, options.serverUrl);
    if (made.has(name)) return name;
    const client = clientOf(p.credential, p.project);
    try {
      const [exists] = await client.bucket(name).exists();
      if (!exists)
        await client
          .createBucket(name, {
            location: p.region,
            iamConfiguration: {
              uniformBucketLevelAccess: { enabled: true },
              publicAccessPrevention: 'enforced',
            },
            labels: { 'cumulus-workspace': String(workspaceId), 'cumulus-role': 'environments' },
          })
          .catch((err: { code?: number }) => {
            // Made meanwhile (another build of the workspace): ours.
            if (err.code !== 409) throw err;
          });
    } catch (err) {
      throw classify(err);
    }
    made.add(name);
    return name;
  }

  const keyOf = (p: GcePlacement) => (p.credential.kind === 'key' ? p.credential.key : null);

  return {
    owns: (location) => location.startsWith('gs://'),

    async uploadTarget(workspaceId, buildId) {
      const p = await placement(workspaceId);
      const key = keyOf(p);
      if (!key) return null;
      const bucket = await bucketOf(p, workspaceId);
      const object = `builds/build-${buildId}.tar.gz`;
      return {
        url: signedUrl(key, {
          storageUrl: options.storageUrl,
          method: 'PUT',
          bucket,
          object,
          seconds: UPLOAD_LINK_SECONDS,
        }),
        location: `gs://${bucket}/${object}`,
        expiresAt: new Date(Date.now() + UPLOAD_LINK_SECONDS * 1000),
      };
    },

    async keep(workspaceId, uploaded, lockfileHash, log) {
      const p = await placement(workspaceId);
      const { bucket, object } = parseGs(uploaded);
      const target = `environments/env-${lockfileHash}.tar.gz`;
      const files = clientOf(p.credential, p.project).bucket(bucket);
      try {
        if (object !== target) {
          const [kept] = await files.file(target).exists();
          if (kept)
            log(
              `The same packages were built before: reusing that environment archive (${lockfileHash.slice(0, 12)})`,
            );
          else {
            const [there] = await files.file(object).exists();
            if (!there)
              throw final(
                `The build machine said it had built the environment, but ${uploaded} is not in the bucket.`,
              );
            await files.file(object).copy(files.file(target));
          }
          await files.file(object).delete({ ignoreNotFound: true });
        }
        const [metadata] = await files.file(target).getMetadata();
        return { location: `gs://${bucket}/${target}`, sizeBytes: Number(metadata.size ?? 0) };
      } catch (err) {
        throw classify(err);
      }
    },

    async downloadUrl(workspaceId, location) {
      const p = await placement(workspaceId);
      const key = keyOf(p);
      if (!key) throw final('The workspace has no service account key to sign the archive link with.');
      const { bucket, object } = parseGs(location);
      return signedUrl(key, {
        storageUrl: options.storageUrl,
        method: 'GET',
        bucket,
        object,
        seconds: DOWNLOAD_LINK_SECONDS,
      });
    },

    async remove(workspaceId, location) {
      const p = await placement(workspaceId);
      const { bucket, object } = parseGs(location);
      try {
        await clientOf(p.credential, p.project).bucket(bucket).file(object).delete({ ignoreNotFound: true });
      } catch (err) {
        throw classify(err);
      }
    },
  };
}
