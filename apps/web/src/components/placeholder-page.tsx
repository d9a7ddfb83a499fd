import type { LucideIcon } from 'lucide-react';
import { ConstructionIcon } from 'lucide-react';

import { EmptyState } from '@/components/empty-state';
import { Page, PageHeader } from '@/components/page';
import { type Breadcrumb, usePageMeta } from '@/lib/page-meta';

type PlaceholderPageProps = {
  title: string;
  breadcrumbs?: Breadcrumb[];
  description?: string;
  icon?: LucideIcon;
};

/** A page whose capability has not landed yet: its title, breadcrumbs and a plain notice. */
export function PlaceholderPage({
  title,
  breadcrumbs,
  description,
  icon = ConstructionIcon,
}: PlaceholderPageProps) {
  usePageMeta({ title, breadcrumbs });
  return (
    <Page>
      <PageHeader title={title} description={description} />
      <EmptyState
        icon={icon}
        title={`${title} is not available yet`}
        description="This part of the console arrives with a later release of Cumulus."
      />
    </Page>
  );
}
