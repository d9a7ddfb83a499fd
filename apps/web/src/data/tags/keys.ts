export const tagKeys = {
  all: ['tags'] as const,
  alertContents: (tags: string) => [...tagKeys.all, 'alert-contents', tags] as const,
};
