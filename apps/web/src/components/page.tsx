import type * as React from 'react';

import { cn } from '@/lib/utils';

/** The content column of a console page: width, padding and vertical rhythm. */
function Page({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="page"
      className={cn('mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-6 md:px-8 md:py-8', className)}
      {...props}
    />
  );
}

type PageHeaderProps = {
  title: React.ReactNode;
  description?: React.ReactNode;
  /** Buttons or menus shown on the right (below the title on narrow screens). */
  actions?: React.ReactNode;
  className?: string;
};

function PageHeader({ title, description, actions, className }: PageHeaderProps) {
  return (
    <header
      data-slot="page-header"
      className={cn('flex flex-wrap items-end justify-between gap-4', className)}
    >
      <div className="min-w-0 space-y-1">
        <h1 className="truncate text-2xl font-semibold tracking-tight">{title}</h1>
        {description ? <p className="text-muted-foreground text-sm">{description}</p> : null}
      </div>
      {/* On a phone the actions take their own full-width line, so a picker in them can shrink. */}
      {actions ? (
        <div className="flex max-w-full min-w-0 shrink-0 items-center gap-2 max-sm:w-full">{actions}</div>
      ) : null}
    </header>
  );
}

/** A titled block inside a page (the Profile page's sections, for instance). */
function PageSection({
  id,
  title,
  description,
  actions,
  className,
  children,
}: React.PropsWithChildren<PageHeaderProps & { id?: string }>) {
  return (
    <section id={id} data-slot="page-section" className={cn('flex scroll-mt-20 flex-col gap-4', className)}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h2 className="text-base font-semibold tracking-tight">{title}</h2>
          {description ? <p className="text-muted-foreground text-sm">{description}</p> : null}
        </div>
        {actions ? <div className="flex shrink-0 items-center gap-2">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

export { Page, PageHeader, PageSection };
