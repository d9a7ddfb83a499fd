import { ArrowRightIcon } from 'lucide-react';
import { Link } from 'react-router';

import { paths } from '@/app/paths';
import { LogoMark } from '@/components/logo';
import { Button } from '@/components/ui/button';

/** Placeholder until the authenticated shell lands: root will route to clusters or get-started. */
export function HomePage() {
  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-6 px-4 text-center">
      <title>Cumulus</title>
      <LogoMark className="size-12" />
      <div className="space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">Cumulus</h1>
        <p className="text-muted-foreground max-w-md text-sm">
          A control plane and console for Dask compute: clusters, batch jobs and software environments.
        </p>
      </div>
      <Button asChild variant="outline">
        <Link to={paths.componentSandbox}>
          Component sandbox
          <ArrowRightIcon aria-hidden="true" />
        </Link>
      </Button>
    </main>
  );
}
