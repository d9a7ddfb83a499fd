import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

/**
 * A route whose page is loaded on first visit, in its own chunk:
 * `{ path: paths.team, ...lazyPage(() => import('@/features/team/team/TeamPage'), 'TeamPage') }`.
 */
export function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load())[name] }) };
}
