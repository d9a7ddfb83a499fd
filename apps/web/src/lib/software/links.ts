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

/** "1.2 GiB", "340.5 MiB", "—" for nothing. */
export function formatBytes(bytes: number | null | undefined): string {
  if (!bytes) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}
