export const deploymentKeys = {
  all: ['deployment'] as const,
};
