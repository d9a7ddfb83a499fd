import { MailIcon } from 'lucide-react';

import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { initials } from '@/components/user-avatar';
import { cn } from '@/lib/utils';

/** Avatar groups show at most this many. */
export const AVATAR_GROUP_MAX = 4;

// A stable hue per name, so a workspace keeps its colour everywhere it appears.
const HUES = [234, 190, 158, 280, 320, 30, 60, 260];
function hueOf(name: string): number {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return HUES[hash % HUES.length]!;
}

type WorkspaceAvatarProps = {
  workspace: { name: string; avatarUrl?: string | null };
  size?: 'sm' | 'md' | 'lg';
  className?: string;
};

const SIZES = { sm: 'size-7 text-[10px]', md: 'size-8 text-xs', lg: 'size-10 text-sm' } as const;

/** A workspace's picture, or its initials on a colour of its own. */
export function WorkspaceAvatar({ workspace, size = 'md', className }: WorkspaceAvatarProps) {
  const hue = hueOf(workspace.name);
  return (
    // Decorative: a name beside it (or in its group's name) says the same.
    <Avatar aria-hidden="true" className={cn('rounded-md', SIZES[size], className)}>
      {workspace.avatarUrl ? <AvatarImage src={workspace.avatarUrl} alt="" /> : null}
      <AvatarFallback
        className="rounded-md font-semibold"
        style={{
          background: `oklch(0.32 0.07 ${hue})`,
          color: `oklch(0.9 0.06 ${hue})`,
        }}
      >
        {initials(workspace.name)}
      </AvatarFallback>
    </Avatar>
  );
}

type PersonAvatarProps = {
  /** A member: their name and picture. An invite: only the address. */
  name: string;
  avatarUrl?: string | null;
  invited?: boolean;
  className?: string;
};

export function PersonAvatar({ name, avatarUrl, invited = false, className }: PersonAvatarProps) {
  return (
    // Decorative: the name beside it says the same.
    <Avatar aria-hidden="true" className={cn('size-8', className)}>
      {avatarUrl ? <AvatarImage src={avatarUrl} alt="" /> : null}
      <AvatarFallback
        className={cn(
          'text-xs font-medium',
          invited ? 'bg-muted text-muted-foreground border border-dashed' : 'bg-primary/15 text-primary',
        )}
      >
        {invited ? <MailIcon className="size-3.5" aria-hidden="true" /> : initials(name)}
      </AvatarFallback>
    </Avatar>
  );
}

/** Up to four workspace avatars, overlapping, then "+N"; every name in the tooltip. */
export function WorkspaceAvatarGroup({
  workspaces,
}: {
  workspaces: Array<{ id: number; name: string; avatarUrl?: string | null }>;
}) {
  if (workspaces.length === 0) return <span className="text-muted-foreground text-sm">None</span>;
  const shown = workspaces.slice(0, AVATAR_GROUP_MAX);
  const more = workspaces.length - shown.length;
  const names = workspaces.map((workspace) => workspace.name).join(', ');
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          className="focus-visible:ring-ring/50 flex w-fit cursor-default items-center -space-x-1 rounded-md outline-none focus-visible:ring-[3px]"
        >
          {/* Named by its text, not aria-label: a name must hold what it shows (WCAG 2.5.3). */}
          <span className="sr-only">Workspaces: {names}</span>
          {shown.map((workspace) => (
            <WorkspaceAvatar
              key={workspace.id}
              workspace={workspace}
              size="sm"
              className="ring-card ring-2"
            />
          ))}
          {more > 0 ? (
            <span
              aria-hidden="true"
              className="bg-muted text-muted-foreground ring-card relative flex size-7 items-center justify-center rounded-md text-[10px] font-medium ring-2"
            >
              +{more}
            </span>
          ) : null}
        </button>
      </TooltipTrigger>
      <TooltipContent>{names}</TooltipContent>
    </Tooltip>
  );
}
