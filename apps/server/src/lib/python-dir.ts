import { fileURLToPath } from 'node:url';

/** The repository's python/ directory (the agent and the preloads), from both src/lib and dist/lib. */
export const PYTHON_DIR = fileURLToPath(new URL('../../../../python', import.meta.url));
