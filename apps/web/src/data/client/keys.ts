export const clientKeys = {
  all: ['client'] as const,
  install: () => [...clientKeys.all, 'install'] as const,
};
