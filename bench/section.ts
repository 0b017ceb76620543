/** One `npm run bench` section: prints its own figures (ratios within one run, not absolute gates). */
export interface BenchSection {
  readonly name: string;
  readonly title: string;
  run(print: (line: string) => void): Promise<void>;
}
