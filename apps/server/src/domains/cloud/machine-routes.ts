import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { id, text, z as zod } from '../../http/zod.js';
import { type WorkspaceAccess, workspaceOf } from '../identity/index.js';
import { deletedAnswer, workspaceParams } from './schemas.js';

const tags = ['cloud'];
const reader = { auth: 'user', workspace: 'read' } as const;
const admin = { auth: 'user', workspace: 'admin' } as const;

/**
 * Machines a workspace's admins bring (SSH hosts, a Slurm cluster): the same four calls on each,
 * listed with their health, added once they pass their check, checked now, removed.
 */
export interface MachineRoutes<Body extends z.ZodType, Answer extends z.ZodType> {
  /** `/api/v2/ssh-hosts`: the calls are `{path}/:account` and `{path}/:account/:{item}`. */
  path: string;
  /** The path's name for one of them (`host`, `cluster`). */
  item: string;
  body: Body;
  answer: Answer;
  describe: { list: string; add: string; check: string; remove: string };
  /** Fields the list answers beside its items (what this server accepts in a new one). */
  listFields?: Record<string, z.ZodType>;
  list(deps: Deps, access: WorkspaceAccess): Promise<{ items: z.infer<Answer>[]; count: number }>;
  add(deps: Deps, access: WorkspaceAccess, body: z.infer<Body>): Promise<z.infer<Answer>>;
  check(deps: Deps, access: WorkspaceAccess, id: number): Promise<z.infer<Answer>>;
  remove(deps: Deps, access: WorkspaceAccess, id: number): Promise<{ deleted: boolean }>;
}

export function registerMachineRoutes<Body extends z.ZodType, Answer extends z.ZodType>(
  app: App,
  deps: Deps,
  spec: MachineRoutes<Body, Answer>,
): void {
  const base = `${spec.path}/:account`;
  // Its id under the name `item`; replies checked against the schemas, typed by the services.
  const params = zod.object({ account: text(64), [spec.item]: id });
  const answer: z.ZodType = spec.answer;
  const body: z.ZodType = spec.body;
  const list = zod.object({ items: zod.array(answer), count: zod.number(), ...spec.listFields });
  const idOf = (p: unknown) => (p as Record<string, number>)[spec.item]!;
  app.get(
    base,
    {
      config: reader,
      schema: { tags, description: spec.describe.list, params: workspaceParams, response: { 200: list } },
    },
    async (request) => spec.list(deps, workspaceOf(request)),
  );
  app.post(
    base,
    {
      config: admin,
      schema: {
        tags,
        description: spec.describe.add,
        params: workspaceParams,
        body,
        response: { 201: answer },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await spec.add(deps, workspaceOf(request), request.body as z.infer<Body>)),
  );
  app.post(
    `${base}/:${spec.item}/check`,
    {
      config: admin,
      schema: { tags, description: spec.describe.check, params, response: { 200: answer } },
    },
    async (request) => spec.check(deps, workspaceOf(request), idOf(request.params)),
  );
  app.delete(
    `${base}/:${spec.item}`,
    {
      config: admin,
      schema: { tags, description: spec.describe.remove, params, response: { 200: deletedAnswer } },
    },
    async (request) => spec.remove(deps, workspaceOf(request), idOf(request.params)),
  );
}
