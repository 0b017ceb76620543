/** One `npm run bench` section: prints its own figures (ratios within one run, not absolute gates). */
export interface BenchSection {
  readonly name: string;
  readonly title: string;
  run(print: (line: string) => void, options: BenchOptions): Promise<void>;
}

/** Options of `npm run bench -- SECTION [--runs N]`, for the sections that repeat their items. */
export interface BenchOptions {
  /** How many times each item runs (stability, timing); each section has its own default. */
  readonly runs?: number;
}

/** The comma-separated names in an environment variable (none set: an empty list, meaning all). */
export function envList(name: string): string[] {
  return (process.env[name] ?? '').split(',').filter(Boolean);
}
