import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GceError } from './operations.js';
import type { ResourceManager } from './resource-manager.js';
import { verifySignedUrl, XmlError } from './signed-urls.js';
import {
  invalidStorageMessage,
  invalidStorageValue,
  type StorageMethod,
  storageQueryField,
  storageRouteOf,
} from './storage-defs.js';
import type { TokenEndpoint } from './token-endpoint.js';

/** A refusal of Cloud Storage's JSON API: Compute Engine's shape without its `status`. */
export class GcsError extends GceError {
  constructor(code: number, message: string, reason: string) {
    super(code, message, reason, '');
  }
}

interface StoredObject {
  resource: Record<string, unknown>;
  data: Buffer;
}
interface StoredBucket {
  resource: Record<string, unknown>;
  objects: Map<string, StoredObject>;
}
/** A request by a V4 signed URL the rig answered (what a test asserts a machine downloaded by). */
export interface SignedRequest {
  method: string;
  bucket: string;
  object: string;
  signer: string;
  status: number;
  /** Whether it came with an Authorization header too (a signed link needs none). */
  authorization: boolean;
}

/** CRC32C (Castagnoli), as Cloud Storage's `crc32c` field has it: big-endian, base64. */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
export function crc32c(data: Buffer): string {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  const out = Buffer.alloc(4);
  out.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return out.toString('base64');
}

/** Bucket names as Cloud Storage takes them (https://cloud.google.com/storage/docs/buckets#naming), dots aside. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9_-]{1,61}[a-z0-9]$/;

const encodeObject = (name: string) => encodeURIComponent(name);

/**
 * A stand-in for Cloud Storage in the rig's project, served by the GCE rig's server: the JSON API
 * (`/storage/v1`, uploads at `/upload/storage/v1` by `uploadType` media, multipart and resumable,
 * downloads by `alt=media` and at `/download/storage/v1`) routed and checked by the definitions of
 * Google's generated client (storage-defs.ts), authorised by the rig's tokens and per-call
 * permissions; and the XML API's object paths (`/{bucket}/{object}`) for V4 signed URLs only,
 * signatures checked with the public keys of the keys the rig's token endpoint minted
 * (signed-urls.ts). Refusals are Google's shapes (JSON for the JSON API, XML for signed URLs).
 */
export class GcsRig {
  readonly buckets = new Map<string, StoredBucket>();
  /** Calls answered, `objects.Insert` or `xml.PUT`, in order. */
  readonly calls: string[] = [];
  readonly signedRequests: SignedRequest[] = [];
  /** The `uploadType` of each upload begun (`media`, `multipart`, `resumable`). */
  readonly uploads: string[] = [];
  readonly #uploads = new Map<
    string,
    { bucket: string; metadata: Record<string, unknown>; received: Buffer[] }
  >();

  constructor(
    private readonly rig: {
      project: string;
      projectNumber: string;
      url: string;
      tokens: TokenEndpoint;
      resourceManager: ResourceManager;
    },
  ) {}

  /** An object's bytes, or undefined. */
  object(bucket: string, name: string): StoredObject | undefined {
    return this.buckets.get(bucket)?.objects.get(name);
  }

  /** Answers a request that is Cloud Storage's; false for any other path. */
  async handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> {
    const raw = (request.url ?? '/').split('?')[0]!;
    const json = /^\/(storage|upload\/storage|resumable\/upload\/storage|download\/storage)\/v1\/(.*)$/.exec(
      raw,
    );
    const xmlBucket = /^\/([^/]+)\/(.+)$/.exec(raw);
    if (!json && !(xmlBucket && this.buckets.has(decodeURIComponent(xmlBucket[1]!)))) return false;
    const body = await new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks)));
    });
    if (!json) {
      try {
        this.xml(request, response, raw, url, body);
      } catch (err) {
        if (!(err instanceof XmlError)) throw err;
        response.writeHead(err.status, { 'content-type': 'application/xml; charset=UTF-8' }).end(err.body());
      }
      return true;
    }
    try {
      await this.jsonApi(request, response, json[1]!, json[2]!, url, body);
    } catch (err) {
      if (!(err instanceof GcsError)) throw err;
      response
        .writeHead(err.code, { 'content-type': 'application/json; charset=UTF-8' })
        .end(JSON.stringify(err.body()));
    }
    return true;
  }

  private caller(request: IncomingMessage, permission: string, what: string): string {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!token)
      throw new GcsError(401, `Anonymous caller does not have ${permission} access to ${what}.`, 'required');
    if (!this.rig.tokens.valid(token)) throw new GcsError(401, 'Invalid Credentials', 'authError');
    const email = this.rig.tokens.tokens.get(token)!.email;
    this.assertHolds(email, permission, what);
    return email;
  }

  private assertHolds(email: string, permission: string, what: string): void {
    if (!this.rig.resourceManager.holds(email, this.rig.project, permission))
      throw new GcsError(
        403,
        `${email} does not have ${permission} access to ${what}. Permission '${permission}' denied on resource (or it may not exist).`,
        'forbidden',
      );
  }

  private query(
    method: StorageMethod,
    search: URLSearchParams,
    extra: string[] = [],
  ): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, value] of search) {
      if (
        [
          'alt',
          'fields',
          'key',
          'prettyPrint',
          'quotaUser',
          'userIp',
          'uploadType',
          'upload_id',
          ...extra,
        ].includes(key)
      ) {
        out[key] = value;
        continue;
      }
      const field = storageQueryField(method, key);
      if (!field)
        throw new GcsError(
          400,
          `Invalid JSON payload received. Unknown name ${JSON.stringify(key)}: Cannot bind query parameter. Field '${key}' could not be found in request message.`,
          'invalid',
        );
      const flag = value.toLowerCase();
      const typed =
        field.variant === 'BOOL' && (flag === 'true' || flag === 'false') ? flag === 'true' : value;
      const problem = invalidStorageValue(typed, field, key);
      if (problem) throw new GcsError(400, problem, 'invalid');
      out[key] = value;
    }
    return out;
  }

  private bucketOf(name: string): StoredBucket {
    const bucket = this.buckets.get(name);
    if (!bucket) throw new GcsError(404, 'The specified bucket does not exist.', 'notFound');
    return bucket;
  }

  private objectOf(bucketName: string, name: string): StoredObject {
    const found = this.bucketOf(bucketName).objects.get(name);
    if (!found) throw new GcsError(404, `No such object: ${bucketName}/${name}`, 'notFound');
    return found;
  }

  private async jsonApi(
    request: IncomingMessage,
    response: ServerResponse,
    prefix: string,
    rest: string,
    url: URL,
    body: Buffer,
  ): Promise<void> {
    const send = (status: number, answer: unknown): void => {
      response
        .writeHead(status, { 'content-type': 'application/json; charset=UTF-8' })
        .end(JSON.stringify(answer));
    };
    const verb = request.method ?? 'GET';
    // A resumable upload's later requests name their session, not a method.
    const session = url.searchParams.get('upload_id');
    if (prefix !== 'storage' && prefix !== 'download/storage' && session) {
      this.calls.push('objects.Insert');
      return this.resumed(request, response, session, body);
    }
    const route = storageRouteOf(verb, rest);
    if (!route) throw new GcsError(404, `Not Found: ${verb} ${url.pathname}`, 'notFound');
    const { name, method, params } = route;
    if (
      (prefix.includes('upload') && name !== 'objects.Insert') ||
      (prefix === 'download/storage' && name !== 'objects.Get')
    )
      throw new GcsError(404, `Not Found: ${verb} ${url.pathname}`, 'notFound');
    this.calls.push(name);
    const query = this.query(method, url.searchParams);
    const bucketName = params.bucket ?? '';
    const objectWhat = (_object: string) => 'the Google Cloud Storage object';
    switch (name) {
      case 'buckets.Insert': {
        this.caller(request, 'storage.buckets.create', 'the Google Cloud Storage project');
        const resource = this.parsed(body, 'Bucket', 'bucket');
        if (!query.project) throw new GcsError(400, 'Required parameter: project', 'required');
        if (query.project !== this.rig.project && query.project !== this.rig.projectNumber)
          throw new GcsError(403, `The project ${query.project} is not one of the rig's.`, 'forbidden');
        const bucket = String(resource.name ?? '');
        if (!bucket) throw new GcsError(400, 'Required', 'required');
        if (!BUCKET_NAME.test(bucket) || bucket.startsWith('goog') || bucket.includes('google'))
          throw new GcsError(400, `Invalid bucket name: '${bucket}'`, 'invalid');
        if (this.buckets.has(bucket))
          throw new GcsError(
            409,
            'Your previous request to create the named bucket succeeded and you already own it.',
            'conflict',
          );
        const now = new Date().toISOString();
        const location = String(resource.location ?? 'US').toUpperCase();
        const iam = resource.iamConfiguration as
          | { uniformBucketLevelAccess?: { enabled?: boolean }; publicAccessPrevention?: string }
          | undefined;
        const uniform = Boolean(iam?.uniformBucketLevelAccess?.enabled);
        const prevention = iam?.publicAccessPrevention ?? 'inherited';
        if (prevention !== 'inherited' && prevention !== 'enforced')
          throw new GcsError(400, `Invalid argument: publicAccessPrevention '${prevention}'`, 'invalid');
        const stored = {
          kind: 'storage#bucket',
          selfLink: `${this.rig.url}/storage/v1/b/${bucket}`,
          id: bucket,
          name: bucket,
          projectNumber: this.rig.projectNumber,
          generation: String(Date.now() * 1000),
          metageneration: '1',
          location,
          locationType: /^(US|EU|ASIA)$/.test(location) ? 'multi-region' : 'region',
          storageClass: String(resource.storageClass ?? 'STANDARD'),
          etag: 'CAE=',
          timeCreated: now,
          updated: now,
          ...(resource.labels ? { labels: resource.labels } : {}),
          iamConfiguration: {
            bucketPolicyOnly: { enabled: uniform, ...(uniform && { lockedTime: lockedTime() }) },
            uniformBucketLevelAccess: { enabled: uniform, ...(uniform && { lockedTime: lockedTime() }) },
            publicAccessPrevention: prevention,
          },
          softDeletePolicy: { retentionDurationSeconds: '604800', effectiveTime: now },
        };
        this.buckets.set(bucket, { resource: stored, objects: new Map() });
        return send(200, stored);
      }
      case 'buckets.Get':
        this.caller(request, 'storage.buckets.get', `the Google Cloud Storage bucket`);
        return send(200, this.bucketOf(bucketName).resource);
      case 'objects.Insert':
        this.caller(request, 'storage.objects.create', objectWhat(''));
        return this.insert(request, response, bucketName, query, body, prefix);
      case 'objects.Get': {
        const alt = query.alt ?? (prefix === 'download/storage' ? 'media' : 'json');
        this.caller(request, 'storage.objects.get', objectWhat(params.object!));
        const found = this.objectOf(bucketName, params.object!);
        if (alt !== 'media') return send(200, found.resource);
        response
          .writeHead(200, {
            'content-type': String(found.resource.contentType ?? 'application/octet-stream'),
            'content-length': found.data.length,
            'x-goog-generation': String(found.resource.generation),
            'x-goog-hash': `crc32c=${found.resource.crc32c},md5=${found.resource.md5Hash}`,
            'x-goog-stored-content-length': found.data.length,
          })
          .end(found.data);
        return;
      }
      case 'objects.Delete': {
        this.caller(request, 'storage.objects.delete', objectWhat(params.object!));
        this.objectOf(bucketName, params.object!);
        this.bucketOf(bucketName).objects.delete(params.object!);
        response.writeHead(204).end();
        return;
      }
      case 'objects.List': {
        this.caller(request, 'storage.objects.list', 'the Google Cloud Storage bucket');
        const bucket = this.bucketOf(bucketName);
        const prefixFilter = query.prefix ?? '';
        const delimiter = query.delimiter;
        const names = [...bucket.objects.keys()].filter((n) => n.startsWith(prefixFilter)).sort();
        const items: Record<string, unknown>[] = [];
        const prefixes = new Set<string>();
        for (const n of names) {
          const cut = delimiter ? n.indexOf(delimiter, prefixFilter.length) : -1;
          if (cut >= 0) prefixes.add(n.slice(0, cut + delimiter!.length));
          else items.push(bucket.objects.get(n)!.resource);
        }
        const start = Number(query.pageToken ?? 0);
        const size = Number(query.maxResults ?? 1000);
        const page = items.slice(start, start + size);
        return send(200, {
          kind: 'storage#objects',
          ...(page.length && { items: page }),
          ...(prefixes.size && { prefixes: [...prefixes] }),
          ...(start + size < items.length && { nextPageToken: String(start + size) }),
        });
      }
      case 'objects.Rewrite': {
        const caller = this.caller(request, 'storage.objects.get', objectWhat(params.sourceObject!));
        this.assertHolds(caller, 'storage.objects.create', objectWhat(params.destinationObject!));
        const source = this.objectOf(params.sourceBucket!, params.sourceObject!);
        const metadata = body.length ? this.parsed(body, 'Object', 'object') : {};
        const made = this.store(params.destinationBucket!, params.destinationObject!, source.data, {
          ...source.resource,
          ...metadata,
        });
        return send(200, {
          kind: 'storage#rewriteResponse',
          totalBytesRewritten: String(source.data.length),
          objectSize: String(source.data.length),
          done: true,
          resource: made,
        });
      }
      default:
        throw new GcsError(
          501,
          `The GCS rig does not play ${name} (${method.httpMethod} ${method.path})`,
          'notImplemented',
        );
    }
  }

  /** A JSON body held to its message type. */
  private parsed(body: Buffer, type: string, at: string): Record<string, unknown> {
    let value: unknown;
    try {
      value = body.length ? JSON.parse(body.toString('utf8')) : {};
    } catch {
      throw new GcsError(
        400,
        `Invalid JSON payload received. Unexpected token.\n${body.toString('utf8', 0, 40)}`,
        'parseError',
      );
    }
    const problem = invalidStorageMessage(value, type, at);
    if (problem) throw new GcsError(400, problem, 'invalid');
    return value as Record<string, unknown>;
  }

  /** `objects.insert`: media (the name in the query), multipart (metadata then media), resumable (a session). */
  private insert(
    request: IncomingMessage,
    response: ServerResponse,
    bucketName: string,
    query: Record<string, string>,
    body: Buffer,
    prefix: string,
  ): void {
    const send = (status: number, answer: unknown): void => {
      response
        .writeHead(status, { 'content-type': 'application/json; charset=UTF-8' })
        .end(JSON.stringify(answer));
    };
    this.bucketOf(bucketName);
    const type = query.uploadType ?? (prefix === 'storage' ? undefined : 'media');
    if (prefix === 'storage' || !type)
      throw new GcsError(
        400,
        'Upload requests must include an uploadType URL parameter and a URL path beginning with /upload/',
        'wrongUrlForUpload',
      );
    this.uploads.push(type);
    if (type === 'media') {
      if (!query.name) throw new GcsError(400, 'Required', 'required');
      send(200, this.store(bucketName, query.name, body, { contentType: request.headers['content-type'] }));
      return;
    }
    if (type === 'multipart') {
      const boundary = /boundary=["']?([^"';]+)["']?/.exec(request.headers['content-type'] ?? '')?.[1];
      if (!boundary) throw new GcsError(400, 'Missing boundary in multipart body.', 'invalid');
      const parts = splitMultipart(body, boundary);
      if (parts.length !== 2)
        throw new GcsError(400, 'Metadata part is too large or the body has no media part.', 'invalid');
      const metadata = this.parsed(parts[0]!.body, 'Object', 'object');
      const name = String(metadata.name ?? query.name ?? '');
      if (!name) throw new GcsError(400, 'Required', 'required');
      send(
        200,
        this.store(bucketName, name, parts[1]!.body, {
          ...metadata,
          contentType: metadata.contentType ?? parts[1]!.headers['content-type'],
        }),
      );
      return;
    }
    if (type === 'resumable') {
      const metadata = body.length ? this.parsed(body, 'Object', 'object') : {};
      const name = String(metadata.name ?? query.name ?? '');
      if (!name) throw new GcsError(400, 'Required', 'required');
      const id = randomBytes(16).toString('hex');
      this.#uploads.set(id, {
        bucket: bucketName,
        metadata: {
          ...metadata,
          name,
          contentType: metadata.contentType ?? request.headers['x-upload-content-type'],
        },
        received: [],
      });
      response
        .writeHead(200, {
          location: `${this.rig.url}/upload/storage/v1/b/${bucketName}/o?uploadType=resumable&upload_id=${id}`,
          'x-guploader-uploadid': id,
          'content-length': 0,
        })
        .end();
      return;
    }
    throw new GcsError(400, `Invalid upload type: ${type}`, 'invalid');
  }

  /** A resumable session's PUT: a chunk (`Content-Range: bytes a-b/total`), the whole, or a status query (`bytes * /total`). */
  private resumed(request: IncomingMessage, response: ServerResponse, id: string, body: Buffer): void {
    const upload = this.#uploads.get(id);
    if (!upload) throw new GcsError(404, 'No such upload session.', 'notFound');
    const have = upload.received.reduce((n, b) => n + b.length, 0);
    const range = request.headers['content-range'] ?? '';
    const m = /^bytes (\*|(\d+)-(\d+))\/(\*|\d+)$/.exec(range);
    if (range && !m) throw new GcsError(400, `Invalid Content-Range: ${range}`, 'invalid');
    if (m && m[2] !== undefined && Number(m[2]) !== have)
      throw new GcsError(400, `The chunk starts at ${m[2]}, ${have} bytes were received`, 'invalid');
    if (body.length) upload.received.push(body);
    const total = m?.[4] === undefined || m[4] === '*' ? (m ? null : have + body.length) : Number(m[4]);
    const now = upload.received.reduce((n, b) => n + b.length, 0);
    if (total !== null && now >= total) {
      this.#uploads.delete(id);
      const made = this.store(
        upload.bucket,
        String(upload.metadata.name),
        Buffer.concat(upload.received),
        upload.metadata,
      );
      response
        .writeHead(200, { 'content-type': 'application/json; charset=UTF-8' })
        .end(JSON.stringify(made));
      return;
    }
    response.writeHead(308, { ...(now > 0 && { range: `bytes=0-${now - 1}` }), 'content-length': 0 }).end();
  }

  /** Keeps an object (a new generation) and answers its resource. */
  private store(bucketName: string, name: string, data: Buffer, metadata: Record<string, unknown>) {
    const bucket = this.bucketOf(bucketName);
    const now = new Date().toISOString();
    const generation = String(Date.now() * 1000 + Math.floor(Math.random() * 1000));
    const md5 = createHash('md5').update(data).digest();
    const resource = {
      ...Object.fromEntries(Object.entries(metadata).filter(([, v]) => v !== undefined)),
      kind: 'storage#object',
      id: `${bucketName}/${name}/${generation}`,
      selfLink: `${this.rig.url}/storage/v1/b/${bucketName}/o/${encodeObject(name)}`,
      mediaLink: `${this.rig.url}/download/storage/v1/b/${bucketName}/o/${encodeObject(name)}?generation=${generation}&alt=media`,
      name,
      bucket: bucketName,
      generation,
      metageneration: '1',
      contentType: String(metadata.contentType ?? 'application/octet-stream'),
      storageClass: 'STANDARD',
      size: String(data.length),
      md5Hash: md5.toString('base64'),
      crc32c: crc32c(data),
      etag: createHash('sha1').update(generation).digest('base64').slice(0, 12),
      timeCreated: now,
      updated: now,
      timeStorageClassUpdated: now,
      timeFinalized: now,
    };
    bucket.objects.set(name, { resource, data });
    return resource;
  }

  /** The XML API's `/{bucket}/{object}` by a V4 signed URL: GET (and HEAD) reads the object, PUT writes it. */
  private xml(request: IncomingMessage, response: ServerResponse, raw: string, url: URL, body: Buffer): void {
    const [, encodedBucket, encodedObject] = /^\/([^/]+)\/(.+)$/.exec(raw)!;
    const bucketName = decodeURIComponent(encodedBucket!);
    const objectName = decodeURIComponent(encodedObject!);
    const method = request.method ?? 'GET';
    this.calls.push(`xml.${method}`);
    const permission =
      method === 'PUT'
        ? 'storage.objects.create'
        : method === 'DELETE'
          ? 'storage.objects.delete'
          : 'storage.objects.get';
    const record = (signer: string, status: number) =>
      this.signedRequests.push({
        method,
        bucket: bucketName,
        object: objectName,
        signer,
        status,
        authorization: request.headers.authorization !== undefined,
      });
    if (![...url.searchParams.keys()].some((k) => k.toLowerCase() === 'x-goog-signature'))
      throw new XmlError(
        403,
        'AccessDenied',
        'Access denied.',
        `Anonymous caller does not have ${permission} access to the Google Cloud Storage object. Permission '${permission}' denied on resource (or it may not exist).`,
      );
    let signer: string;
    try {
      signer = verifySignedUrl(method, raw, url.searchParams, request.headers, (email) =>
        this.rig.tokens.publicKeysOf(email),
      );
    } catch (err) {
      if (err instanceof XmlError) record('', err.status);
      throw err;
    }
    if (!this.rig.resourceManager.holds(signer, this.rig.project, permission)) {
      record(signer, 403);
      throw new XmlError(
        403,
        'AccessDenied',
        'Access denied.',
        `${signer} does not have ${permission} access to the Google Cloud Storage object. Permission '${permission}' denied on resource (or it may not exist).`,
      );
    }
    const bucket = this.buckets.get(bucketName);
    if (!bucket) {
      record(signer, 404);
      throw new XmlError(404, 'NoSuchBucket', 'The specified bucket does not exist.');
    }
    if (method === 'PUT') {
      const made = this.store(bucketName, objectName, body, {
        contentType: request.headers['content-type'] ?? 'application/octet-stream',
      });
      record(signer, 200);
      response
        .writeHead(200, {
          etag: `"${Buffer.from(made.md5Hash, 'base64').toString('hex')}"`,
          'x-goog-generation': made.generation,
          'x-goog-hash': `crc32c=${made.crc32c},md5=${made.md5Hash}`,
          'content-length': 0,
        })
        .end();
      return;
    }
    if (method !== 'GET' && method !== 'HEAD')
      throw new XmlError(
        405,
        'MethodNotAllowed',
        'The specified method is not allowed against this resource.',
      );
    const found = bucket.objects.get(objectName);
    if (!found) {
      record(signer, 404);
      throw new XmlError(404, 'NoSuchKey', 'The specified key does not exist.');
    }
    record(signer, 200);
    response
      .writeHead(200, {
        'content-type': String(found.resource.contentType),
        'content-length': found.data.length,
        etag: `"${Buffer.from(String(found.resource.md5Hash), 'base64').toString('hex')}"`,
        'x-goog-generation': String(found.resource.generation),
        'x-goog-hash': `crc32c=${found.resource.crc32c},md5=${found.resource.md5Hash}`,
        'x-goog-stored-content-length': found.data.length,
      })
      .end(method === 'HEAD' ? undefined : found.data);
  }
}

const lockedTime = () => new Date(Date.now() + 90 * 86_400_000).toISOString();

/** The parts of a `multipart/related` body: each part's headers (lower case) and bytes. */
function splitMultipart(body: Buffer, boundary: string): { headers: Record<string, string>; body: Buffer }[] {
  const text = body.toString('latin1');
  const delimiter = `--${boundary}`;
  const pieces = text.split(delimiter).slice(1);
  const parts: { headers: Record<string, string>; body: Buffer }[] = [];
  for (const piece of pieces) {
    if (piece.startsWith('--')) break;
    const content = piece.replace(/^\r?\n/, '');
    const split = content.search(/\r?\n\r?\n/);
    const head = split < 0 ? content : content.slice(0, split);
    const rest = split < 0 ? '' : content.slice(split).replace(/^\r?\n\r?\n/, '');
    const headers: Record<string, string> = {};
    for (const line of head.split(/\r?\n/)) {
      const at = line.indexOf(':');
      if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
    }
    parts.push({ headers, body: Buffer.from(rest.replace(/\r?\n$/, ''), 'latin1') });
  }
  return parts;
}
