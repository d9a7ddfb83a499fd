export const interactionKeys = {
  all: ['interactions'] as const,
  types: () => [...interactionKeys.all, 'types'] as const,
  list: () => [...interactionKeys.all, 'list'] as const,
  flags: () => [...interactionKeys.all, 'flags'] as const,
  banners: () => [...interactionKeys.all, 'banners'] as const,
  getStarted: () => [...interactionKeys.all, 'get-started'] as const,
};
