import type * as React from 'react';

import { PersonAvatar } from '@/features/team/avatars';
import { cn } from '@/lib/utils';

/** Who a row is: avatar, name and a second line (username, or an invite's state). */
export function PersonCell({
  name,
  secondary,
  avatarUrl = null,
  invited = false,
}: {
  name: string;
  secondary?: React.ReactNode;
  avatarUrl?: string | null;
  invited?: boolean;
}) {
  return (
    // A minimum width keeps names readable on a phone: the table scrolls sideways instead.
    <div className="flex min-w-44 items-center gap-3">
      <PersonAvatar name={name} avatarUrl={avatarUrl} invited={invited} />
      <span className="grid min-w-0 leading-tight">
        <span className="truncate font-medium">{name}</span>
        {secondary ? (
          <span
            className={cn(
              'flex items-center gap-1.5 truncate text-xs',
              invited ? 'text-warning/90' : 'text-muted-foreground',
            )}
          >
            {secondary}
          </span>
        ) : null}
      </span>
    </div>
  );
}
