import type * as React from 'react';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

/** A card of the Cloud page: its title and what it is for, then its content (a grid unless `plain`). */
export function SetupCard({
  title,
  description,
  plain = false,
  children,
}: {
  title: React.ReactNode;
  description: React.ReactNode;
  plain?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className={cn(!plain && 'grid gap-4')}>{children}</CardContent>
    </Card>
  );
}
