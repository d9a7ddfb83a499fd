import type { Breadcrumb } from '@/lib/page-meta';
import { paths } from '@/lib/paths';

/** Team > {organization} > ...: the Team area's breadcrumbs. */
export function teamCrumbs(organizationName: string | null, ...rest: Breadcrumb[]): Breadcrumb[] {
  return [
    { label: 'Team', to: paths.team },
    ...(organizationName ? [{ label: organizationName, to: paths.team }] : []),
    ...rest,
  ];
}

export const membersCrumb: Breadcrumb = { label: 'Members', to: `${paths.team}?tab=team` };
