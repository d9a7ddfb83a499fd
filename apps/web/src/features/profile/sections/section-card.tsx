import type * as React from 'react';

import { PageSection } from '@/components/page';
import { cn } from '@/lib/utils';

/** One Profile section: a titled block with its content on a card. */
export function SectionCard({
  id,
  title,
  description,
  actions,
  className,
  children,
}: {
  id: string;
  title: string;
  description?: React.ReactNode;
  actions?: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <PageSection id={id} title={title} description={description} actions={actions}>
      <div className={cn('bg-card rounded-xl border p-4 sm:p-5', className)}>{children}</div>
    </PageSection>
  );
}
