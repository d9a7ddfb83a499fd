import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/client.js';
import type { User } from '../../../db/schema/index.js';
import { resolveAccess } from '../../../http/access.js';
import { Signer } from '../../../lib/crypto.js';
import { findUserBy } from '../../identity/index.js';

/** How long a dashboard link works; the console and clients ask for a fresh one with the details. */
export const PASS_SECONDS = 12 * 3600;

/** The path a cluster's dashboard is served under, here and (as its prefix) by its scheduler. */
export const dashboardPrefix = (clusterId: number) => `/dashboard/${clusterId}`;

/** The cookie a browser keeps the pass in once it has opened a dashboard link (path-scoped). */
export const passCookie = (clusterId: number) => `cumulus_dashboard_${clusterId}`;

const signer = (secret: string) => new Signer(secret, 'dashboard-pass');

/**
 * A dashboard pass: who may open which cluster's dashboard, until when, signed with the server
 * secret. It goes in the dashboard link (`?token=`) because a browser tab or Dask's
 * `client.dashboard_link` sends no Authorization header; access is checked again on every use.
 */
export function issuePass(secret: string, clusterId: number, userId: number, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + PASS_SECONDS;
  return `${userId}.${expires}.${signer(secret).sign(`${clusterId}:${userId}:${expires}`)}`;
}

/**
 * The user a pass was issued to, if it is genuine, for this cluster, unexpired, and they still may
 * read it. A proxied request (HTTP or WebSocket) carries a pass instead of credentials, so it
 * declares no route need: its `cluster` need is resolved here, once per request, by the resolvers
 * of the one pre-handler (http/access.ts).
 */
export async function redeemPass(
  app: FastifyInstance,
  db: Db,
  secret: string,
  clusterId: number,
  pass: string | undefined,
): Promise<User | null> {
  const [userPart, expiresPart, signature] = (pass ?? '').split('.');
  const userId = Number(userPart);
  const expires = Number(expiresPart);
  if (!signature || !Number.isInteger(userId) || !Number.isInteger(expires)) return null;
  if (!signer(secret).verify(`${clusterId}:${userId}:${expires}`, signature)) return null;
  if (expires < Date.now() / 1000) return null;
  const user = await findUserBy(db, 'id', userId);
  if (!user?.isActive) return null;
  try {
    await resolveAccess(
      app,
      { cluster: { id: 'cluster' } },
      { user, params: { cluster: clusterId }, url: `${dashboardPrefix(clusterId)}/` },
    );
    return user;
  } catch {
    return null;
  }
}

type Origins = Pick<Config, 'publicUrl' | 'proxyOrigin'>;

/**
 * Where browsers are served a cluster's dashboard and Jupyter: the proxy origin configured
 * (CUMULUS_PROXY_ORIGIN; `*` names the cluster: `cluster-<id>`), else the console's own address,
 * where the proxy serves them sandboxed.
 */
export function proxyBase(config: Origins, clusterId: number): string {
  return config.proxyOrigin ? config.proxyOrigin.replace('*', `cluster-${clusterId}`) : config.publicUrl;
}

/** The origins a browser may call a cluster's proxied pages from (unsafe methods, WebSockets). */
export function proxyCallers(config: Origins, clusterId: number): string[] {
  return [...new Set([new URL(config.publicUrl).origin, new URL(proxyBase(config, clusterId)).origin])];
}

/**
 * What a request's Host says it came to: the console (`null`), or the proxy origin, for one
 * cluster (its id) or any (`'any'`, a proxy origin without `*`).
 */
export function proxyHostOf(config: Origins, host: string | undefined): number | 'any' | null {
  if (!config.proxyOrigin || !host) return null;
  const pattern = new URL(config.proxyOrigin.replace('*', 'cluster-0')).host.replace('cluster-0', '*');
  const given = host.toLowerCase();
  if (!pattern.includes('*')) return given === pattern ? 'any' : null;
  const [label, rest] = [given.slice(0, given.indexOf('.')), given.slice(given.indexOf('.'))];
  const id = /^cluster-(\d{1,12})$/.exec(label)?.[1];
  return id && `*${rest}` === pattern ? Number(id) : null;
}

export function dashboardLink(config: Origins, secret: string, clusterId: number, userId: number): string {
  return `${proxyBase(config, clusterId)}${dashboardPrefix(clusterId)}/status?token=${issuePass(secret, clusterId, userId)}`;
}
