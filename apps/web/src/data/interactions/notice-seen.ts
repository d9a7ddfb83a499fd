import { useInteractionTypesQuery } from '@/data/interactions/interaction-types-query';
import { useInteractionsQuery } from '@/data/interactions/interactions-query';

/** Notices shown once. */
export type InteractionTypeName =
  | 'warned-about-ecs'
  | 'user-info-on-sign-in'
  | 'unsubscribe'
  | 'api-token-message'
  | 'spot-default-changed'
  | 'requested-activation';

/**
 * Whether a notice has been seen (section 4): its type is missing or expired, or an interaction
 * of that type exists. If the interactions cannot be read, every notice counts as seen.
 */
export function useNoticeSeen(name: InteractionTypeName): boolean {
  const types = useInteractionTypesQuery();
  const interactions = useInteractionsQuery();
  if (types.isError || interactions.isError) return true;
  if (!types.data || !interactions.data) return true;
  const type = types.data.find((candidate) => candidate.name === name);
  if (!type || type.expired) return true;
  return interactions.data.some((interaction) => interaction.interactionType === name);
}
