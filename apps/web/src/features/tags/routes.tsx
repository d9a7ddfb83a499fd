import type { RouteObject } from 'react-router';

import { lazyPage } from '@/lib/lazy-page';
import { paths } from '@/lib/paths';

/** The public alert preview (/tag-alert-content-preview). */
export const tagRoutes: RouteObject[] = [
  {
    path: paths.tagAlertContentPreview,
    ...lazyPage(() => import('@/features/tags/TagAlertContentPreviewPage'), 'TagAlertContentPreviewPage'),
  },
];
