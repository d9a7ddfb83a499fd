import { z } from 'zod';

import type { CreateSpecBody } from '@/data/software/spec-create-mutation';

export const SOURCES = ['pip', 'conda', 'container'] as const;
export type Source = (typeof SOURCES)[number];

export const createEnvironmentSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'Name is required')
      .max(200, 'Name is limited to 200 characters')
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'Use letters, digits, dots, dashes and underscores'),
    source: z.enum(SOURCES),
    text: z.string().max(1_000_000),
  })
  .superRefine((value, ctx) => {
    if (value.text.trim() === '')
      ctx.addIssue({
        code: 'custom',
        path: ['text'],
        message: value.source === 'container' ? 'Image is required' : 'Requirements are required',
      });
  });
export type CreateEnvironmentInput = z.input<typeof createEnvironmentSchema>;

/** `pandas==2.2.*` lines of a requirements file, without comments. */
export const requirementLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.split(' #')[0]!.trim())
    .filter((line) => line && !line.startsWith('#'));

/** channels and dependencies of a conda environment.yml (its flat lists; pip: sections go to pip). */
export function condaOf(text: string): { channels: string[]; dependencies: string[]; pip: string[] } {
  const out = { channels: [] as string[], dependencies: [] as string[], pip: [] as string[] };
  let section: 'channels' | 'dependencies' | 'pip' | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.split('#')[0]!.replace(/\s+$/, '');
    if (!line.trim()) continue;
    if (!/^\s/.test(line) && !line.startsWith('-')) {
      const key = line.split(':')[0]!.trim();
      section = key === 'channels' || key === 'dependencies' ? key : null;
      continue;
    }
    const item = line.trim().replace(/^-\s*/, '');
    if (section === 'dependencies' && item === 'pip:') {
      section = 'pip';
      continue;
    }
    if (section === 'pip' && /^\S/.test(line.replace(/^\s{0,2}-/, ''))) section = 'dependencies';
    if (section && item && item !== 'pip:') out[section].push(item);
  }
  return out;
}

/** The create call's body: the console always rebuilds. */
export function createEnvironmentBody(input: z.output<typeof createEnvironmentSchema>): CreateSpecBody {
  const base = {
    name: input.name,
    force_rebuild: true,
    architecture: 'x86_64' as const,
    enable_experimental_installer: true,
  };
  if (input.source === 'container') return { ...base, container: input.text.trim() };
  if (input.source === 'pip') return { ...base, raw_pip: requirementLines(input.text) };
  const conda = condaOf(input.text);
  return {
    ...base,
    raw_conda: { channels: conda.channels, dependencies: conda.dependencies },
    ...(conda.pip.length ? { raw_pip: conda.pip } : {}),
  };
}
