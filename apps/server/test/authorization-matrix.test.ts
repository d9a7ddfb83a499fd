import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallContext, type RouteRule, RULES } from './authorization-rules.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type Cast, createCast, ROLES, type Role, seedWorld, type World } from './helpers/world.js';

/**
 * Walks every route of openapi.json as each caller of helpers/world.ts and checks each answer
 * against the route's rule in authorization-rules.ts. The rules under test are decided in
 * src/modules/access/ (clusters add theirs in src/modules/clusters/access.ts).
 */

let ts: TestServer;
let cast: Cast;
let world: World;
let routes: string[];

beforeAll(async () => {
  ts = await startTestServer();
  cast = await createCast(ts);
  world = await seedWorld(ts, cast);
  const spec = await ts.api.get('/api/openapi.json');
  routes = Object.entries(spec.body.paths as Record<string, Record<string, unknown>>).flatMap(
    ([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );
}, 120_000);
afterAll(() => ts.close());

/** Parameters every rule gets without saying: the seeded world's organization and workspace. */
const DEFAULT_PARAMS: Record<string, (c: CallContext) => string | number> = {
  organization_id: (c) => c.world.organization.id,
  workspace_id: (c) => c.world.workspace.id,
  account: (c) => c.world.workspace.slug,
  workspace: (c) => c.world.workspace.slug,
};

async function call(route: string, rule: RouteRule, role: Role): Promise<number> {
  const [method, template] = route.split(' ') as [string, string];
  const caller = role === 'anonymous' ? null : cast[role];
  const context: CallContext = {
    ts,
    role,
    caller,
    cast,
    world: rule.fresh ? await seedWorld(ts, cast) : world,
  };
  const given = rule.params ? await rule.params(context) : {};
  const url = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = given[name] ?? DEFAULT_PARAMS[name]?.(context);
    if (value === undefined) throw new Error(`${route}: no value for {${name}}; give its rule \`params\``);
    return encodeURIComponent(String(value));
  });
  const credentials = caller && (rule.credentials ? await rule.credentials(context) : caller.key);
  const api = credentials ? ts.api.as(credentials) : ts.api;
  const res = await api.request(method, url, {
    body: await rule.body?.(context),
    query: rule.query?.(context),
  });
  return res.status;
}

describe('the authorization matrix', () => {
  it('has a rule for every route of openapi.json, and none for a route that is gone', () => {
    const ruled = new Set(Object.keys(RULES));
    expect(
      routes.filter((r) => !ruled.has(r)),
      'routes without a rule in authorization-rules.ts',
    ).toEqual([]);
    expect(
      Object.keys(RULES).filter((r) => !routes.includes(r)),
      'rules for routes not in openapi.json',
    ).toEqual([]);
  });

  // Calls that leave the shared world as it was first, then those that get a world of their own.
  const ordered = Object.entries(RULES).sort(
    ([, a], [, b]) => Number(a.fresh ?? false) - Number(b.fresh ?? false),
  );
  for (const [route, rule] of ordered) {
    it(route, async () => {
      const answers = {} as Record<Role, number>;
      for (const role of ROLES) answers[role] = await call(route, rule, role);
      expect(answers).toEqual(rule.expect);
    });
  }
});
