/**
 * The layers of fencecheck, lowest first. A module imports only its own layer and the layers below
 * it; the seam names no system; no system imports another. `npm test` runs this
 * (test/architecture/dependencies.test.ts), so a deliberate upward import or cycle turns it red.
 *
 * A system is one name across the top-level folders: src/systems/<name>/, models/<name>/,
 * mutants/<name>/, properties/<name>/ (tla/, evidence/ and test/ hold no imported code).
 */
const SYSTEM_ROOTS = '(?:src/systems|models|mutants|properties)';

/** Layer name → the paths it owns. Order is the import order: each may import only those before it. */
const LAYERS = [
  ['core', '^src/core/'],
  ['luacheck', '^src/luacheck/'],
  ['valkey', '^src/valkey/'],
  ['fleet', '^src/fleet/'],
  ['tlc', '^src/tlc/'],
  ['seam', '^src/seam/'],
  ['systems', `^${SYSTEM_ROOTS}/`],
  ['registry', '^src/registry/'],
  ['mutants', '^src/mutants/'],
  ['trace', '^src/trace/'],
  ['report', '^src/report/'],
  // A stage's judging: what `fencecheck stage NAME` runs for verify, and each command prints.
  ['stages', '^src/stages/'],
  ['verify', '^src/verify/'],
  ['bench', '^bench/'],
  ['cli', '^src/cli/'],
];

const upward = LAYERS.slice(0, -1).map(([name, path], i) => ({
  name: `${name}-imports-only-downward`,
  comment: `${name} may import only ${LAYERS.slice(0, i + 1).map(([n]) => n).join(', ')}`,
  severity: 'error',
  from: { path },
  to: { path: LAYERS.slice(i + 1).map(([, p]) => p) },
}));

module.exports = {
  forbidden: [
    // A cycle that runs through a type-only import is mutual type recursion (a server's environment
    // names its parts, a part's signature takes the environment): nothing to order at load time.
    // Every cycle of real imports is an error.
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'a cycle between modules',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    ...upward,
    {
      name: 'no-system-imports-another',
      severity: 'error',
      comment: 'a system is its own folders; what two systems share belongs to a lower layer',
      from: { path: `^${SYSTEM_ROOTS}/([^/]+)/` },
      to: { path: `^${SYSTEM_ROOTS}/[^/]+/`, pathNot: `^${SYSTEM_ROOTS}/$1/` },
    },
    {
      name: 'no-unlayered-source',
      severity: 'error',
      comment: 'every source file belongs to a layer (a file directly in src/ has none)',
      from: { path: '^src/[^/]+\\.ts$' },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test|reports)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mts', '.js', '.mjs', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
