import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fencecheck checkout this module belongs to (src/..): all project paths resolve from here. */
export const projectRoot: string = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
