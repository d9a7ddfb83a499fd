import type * as React from 'react';

import { DocumentTitle } from '@/components/document-title';
import { PublicHeader } from '@/components/public-header';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

type AuthCardProps = {
  title: React.ReactNode;
  /** The browser tab's title; defaults to `title` when that is text. */
  pageTitle?: string;
  description?: React.ReactNode;
  /** Links under the card body: forgot password, back to sign in, terms... */
  footer?: React.ReactNode;
  className?: string;
  children?: React.ReactNode;
};

/** Layout for the public auth screens: public header, then one 312px card centered on the page. */
function AuthCard({ title, pageTitle, description, footer, className, children }: AuthCardProps) {
  return (
    <div data-slot="auth-layout" className="relative isolate flex min-h-svh flex-col overflow-hidden">
      <DocumentTitle title={pageTitle ?? (typeof title === 'string' ? title : null)} />
      {/* A faint sky glow behind the card; decorative only. */}
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-[28rem] bg-[radial-gradient(ellipse_at_top,oklch(0.72_0.13_234/12%),transparent_65%)]"
      />
      <PublicHeader />
      <main className="flex flex-1 items-start justify-center px-4 pt-[12vh] pb-16">
        <Card data-slot="auth-card" className={cn('w-[312px] max-w-full gap-5 py-6 shadow-xl', className)}>
          <CardHeader className="gap-1.5">
            <CardTitle role="heading" aria-level={1} className="text-xl tracking-tight">
              {title}
            </CardTitle>
            {description ? <CardDescription>{description}</CardDescription> : null}
          </CardHeader>
          {children ? <CardContent className="grid gap-4">{children}</CardContent> : null}
          {footer ? (
            <CardFooter className="text-muted-foreground flex-col items-stretch gap-2 text-center text-sm">
              {footer}
            </CardFooter>
          ) : null}
        </Card>
      </main>
    </div>
  );
}

export { AuthCard };
