import * as React from 'react';
import { Link } from 'react-router';

import { DocumentTitle } from '@/components/document-title';
import {
  Breadcrumb,
  BreadcrumbItem,
  BreadcrumbLink,
  BreadcrumbList,
  BreadcrumbPage,
  BreadcrumbSeparator,
} from '@/components/ui/breadcrumb';
import { Separator } from '@/components/ui/separator';
import { SidebarTrigger } from '@/components/ui/sidebar';
import { type Breadcrumb as Crumb, useCurrentPageMeta } from '@/lib/page-meta';

function CrumbItem({ crumb, last }: { crumb: Crumb; last: boolean }) {
  if (last) return <BreadcrumbPage>{crumb.label}</BreadcrumbPage>;
  if (crumb.to) {
    return (
      <BreadcrumbLink asChild>
        <Link to={crumb.to} onClick={crumb.onClick}>
          {crumb.label}
        </Link>
      </BreadcrumbLink>
    );
  }
  if (crumb.onClick) {
    return (
      <BreadcrumbLink asChild>
        <button type="button" onClick={crumb.onClick}>
          {crumb.label}
        </button>
      </BreadcrumbLink>
    );
  }
  return <span>{crumb.label}</span>;
}

/** The sticky top bar: sidebar toggle and the page's breadcrumbs (set by usePageMeta). */
export function TopBar() {
  const meta = useCurrentPageMeta();
  const crumbs = meta ? (meta.breadcrumbs ?? [{ label: meta.title }]) : [];

  return (
    <header className="bg-background/80 supports-[backdrop-filter]:bg-background/60 sticky top-0 z-20 flex h-14 shrink-0 items-center gap-2 border-b px-4 backdrop-blur">
      <DocumentTitle title={meta?.title} />
      <SidebarTrigger className="-ml-1" aria-label="Toggle sidebar (Ctrl+B)" />
      <Separator orientation="vertical" className="mr-2 data-[orientation=vertical]:h-4" />
      <Breadcrumb>
        <BreadcrumbList>
          {crumbs.map((crumb, index) => (
            <React.Fragment key={`${crumb.to ?? ''}/${crumb.label}`}>
              {index > 0 ? <BreadcrumbSeparator /> : null}
              <BreadcrumbItem>
                <CrumbItem crumb={crumb} last={index === crumbs.length - 1} />
              </BreadcrumbItem>
            </React.Fragment>
          ))}
        </BreadcrumbList>
      </Breadcrumb>
    </header>
  );
}
