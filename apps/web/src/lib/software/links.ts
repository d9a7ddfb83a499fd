import { generatePath } from 'react-router';

import { paths } from '@/lib/paths';

/** An environment's page, naming its workspace so the link works for anyone in it. */
export const aliasLink = (alias: { id: number; accountSlug: string }) =>
  generatePath(paths.softwareAlias, { aliasId: String(alias.id), accountSlug: alias.accountSlug });

export const buildLink = (ref: { aliasId: number; accountSlug: string; buildId: number }, tab?: string) =>
  `${generatePath(paths.softwareBuild, {
    aliasId: String(ref.aliasId),
    accountSlug: ref.accountSlug,
    buildId: String(ref.buildId),
  })}${tab ? `?tab=${tab}` : ''}`;
