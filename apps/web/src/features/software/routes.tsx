import type { RouteObject } from 'react-router';

import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

/** Signed-in routes of this area (composed in app/router.tsx). */
export const softwareRoutes: RouteObject[] = [
  { path: paths.software, ...lazyPage(() => import('@/features/software/SoftwarePage'), 'SoftwarePage') },
  { path: paths.softwareAlias, ...lazyPage(() => import('@/features/software/AliasPage'), 'AliasPage') },
  { path: paths.softwareBuild, ...lazyPage(() => import('@/features/software/BuildPage'), 'BuildPage') },
  {
    path: paths.softwareAliasLegacy,
    ...lazyPage(() => import('@/features/software/LegacyRedirect'), 'SoftwareLegacyRedirect'),
  },
  {
    path: paths.softwareBuildLegacy,
    ...lazyPage(() => import('@/features/software/LegacyRedirect'), 'SoftwareLegacyRedirect'),
  },
];
