import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where scripts/build.mjs compiles the CLI (bin/build-state.mjs's BUILD_DIR): <root>/.build/src/... */
export const BUILD_DIR = '.build';

const above = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** True when this process runs the compiled CLI from .build/ rather than the TypeScript sources. */
export const runningFromBuild: boolean = basename(above) === BUILD_DIR;

/** The fencecheck checkout this module belongs to (src/..): all project paths resolve from here, compiled or not. */
export const projectRoot: string = runningFromBuild ? dirname(above) : above;
