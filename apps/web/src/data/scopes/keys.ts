export const scopeKeys = {
  all: ['scopes'] as const,
  valid: () => [...scopeKeys.all, 'valid'] as const,
  staffOrganizations: (startsWith: string) => [...scopeKeys.all, 'staff-organizations', startsWith] as const,
};
