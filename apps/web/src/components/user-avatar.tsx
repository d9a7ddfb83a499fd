import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import type { CurrentUser } from '@/data/user/current-user-query';
import { cn } from '@/lib/utils';

/** "Ada Lovelace" -> "AL"; a username -> its first two letters. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length >= 2) return `${words[0]![0]}${words.at(-1)![0]}`.toUpperCase();
  return name.trim().slice(0, 2).toUpperCase() || '?';
}

export function UserAvatar({ user, className }: { user: CurrentUser; className?: string }) {
  const name = user.fullName || user.username;
  return (
    // Decorative: the name beside it says the same.
    <Avatar aria-hidden="true" className={cn('size-8', className)}>
      {user.profile.avatarUrl ? <AvatarImage src={user.profile.avatarUrl} alt="" /> : null}
      <AvatarFallback className={cn('bg-primary/15 text-primary text-xs font-medium', className)}>
        {initials(name)}
      </AvatarFallback>
    </Avatar>
  );
}
