import { ChangeCache, type Tag } from '../../../db/cache.js';
import type { ChangeFeed } from '../../../db/changes.js';
import type { Db } from '../../../db/client.js';
import type { User } from '../../../db/schema/index.js';
import type { z } from '../../../http/zod.js';
import type { currentUserSchema } from './schemas.js';
import { currentUser } from './service.js';

type CurrentUser = z.infer<typeof currentUserSchema>;

/**
 * user/me is asked on every page load and client start; its answer is kept in memory until a row
 * it shows changes (the user, the profile, the default workspace or organization) on any server.
 */
export function cachedCurrentUser(
  db: Db,
  changes: ChangeFeed,
): (user: User) => CurrentUser | Promise<CurrentUser> {
  const cache = new ChangeCache<CurrentUser>(changes, { ttlMs: 10_000, maxEntries: 10_000 });
  // Synchronous when in memory: the route answers without a promise.
  return (user) => cache.get(String(user.id)) ?? load(user);

  async function load(user: User): Promise<CurrentUser> {
    const key = String(user.id);
    const mark = cache.mark();
    const answer = await currentUser(db, user);
    const tags: Tag[] = [`users:${user.id}`, `user_profiles:${user.id}`];
    if (answer.default_account) {
      tags.push(
        `accounts:${answer.default_account.id}`,
        `organizations:${answer.default_account.organization.id}`,
      );
    }
    if (answer.default_organization) tags.push(`organizations:${answer.default_organization.id}`);
    cache.set(key, Object.freeze(answer), tags, mark);
    return answer;
  }
}
