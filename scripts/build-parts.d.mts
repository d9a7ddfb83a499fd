export interface Part {
  name: string;
  workspace: string;
  output: string;
  sources: string[];
}
export const PARTS: Part[];
export function newestSource(root: string, sources: string[]): number;
export function staleness(root: string, part: Part): string | null;
