import {
  BookOpenIcon,
  ChartColumnIcon,
  CloudIcon,
  CreditCardIcon,
  LayoutDashboardIcon,
  ListChecksIcon,
  type LucideIcon,
  MailIcon,
  MessageCircleIcon,
  NotebookPenIcon,
  PackageIcon,
  RocketIcon,
  ShieldIcon,
  UsersIcon,
} from 'lucide-react';

import type { CurrentUser } from '@/data/user/current-user-query';
import type { Links } from '@/hooks/use-links';
import { paths } from '@/lib/paths';

export type NavEntry = {
  title: string;
  to: string;
  icon: LucideIcon;
  visible?: (user: CurrentUser) => boolean;
};

// The sidebar's entries, in their order.
export const NAV_ENTRIES: NavEntry[] = [
  { title: 'Get Started', to: paths.getStarted, icon: RocketIcon },
  { title: 'Dashboard', to: paths.clusters, icon: LayoutDashboardIcon },
  {
    title: 'Notebooks',
    to: paths.notebooks,
    icon: NotebookPenIcon,
    visible: (user) => user.shouldSeeNotebookPage,
  },
  { title: 'Software', to: paths.software, icon: PackageIcon },
  { title: 'Cloud', to: paths.setup, icon: CloudIcon },
  { title: 'Billing', to: paths.billing, icon: CreditCardIcon },
  { title: 'Usage', to: paths.usage, icon: ChartColumnIcon },
  { title: 'Team', to: paths.team, icon: UsersIcon },
];

export const STAFF_NAV_ENTRIES: NavEntry[] = [
  { title: 'Batch Jobs', to: paths.batchJobs, icon: ListChecksIcon },
  { title: 'Staff', to: paths.staff, icon: ShieldIcon },
];

export type SupportLink = { title: string; href: string; icon: LucideIcon; newTab: boolean };

/** Docs, community and Contact an Engineer, each only where this server configures one. */
export function supportLinks(links: Links): SupportLink[] {
  const found: SupportLink[] = [];
  if (links.docsUrl) found.push({ title: 'Docs', href: links.docsUrl, icon: BookOpenIcon, newTab: true });
  if (links.communityUrl)
    found.push({
      title: links.communityLabel,
      href: links.communityUrl,
      icon: MessageCircleIcon,
      newTab: true,
    });
  if (links.supportMailto)
    found.push({ title: 'Contact an Engineer', href: links.supportMailto, icon: MailIcon, newTab: false });
  return found;
}

/** An entry is active when its path equals or prefixes the current path (by whole segments). */
export function isActive(entryPath: string, pathname: string): boolean {
  return pathname === entryPath || pathname.startsWith(`${entryPath}/`);
}
