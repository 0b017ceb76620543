/**
 * The drive's command line against a server given by --url: a production-mode reference server (no
 * control endpoint) gets only the real-time checks, the others are "not run", never passed; bad
 * input and usage are one line and their exit codes; an unreachable server is "could not run".
 */
import { describe, expect, it } from 'vitest';
import { driveMain } from '../../src/systems/init-limiter/drive/main.js';
import { stallPayloadBytes } from '../../src/systems/init-limiter/drive/index.js';
import { withServer } from './server-support.js';

async function run(argv: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await driveMain(argv, (l) => lines.push(...l.split('\n')));
  return { code, lines };
}

describe('drive --url', () => {
  it('runs the real-time checks against a server without a control endpoint and says the rest were not run', async () => {
    const data = { flags: 64, valueBytes: Math.ceil(stallPayloadBytes() / 64) };
    await withServer({ limiter: { maxConcurrent: 1, sendTimeoutMs: 3_000, chunkBytes: 65_536, slackMs: 500 }, data, heartbeatMs: 0 }, async (s) => {
      const { code, lines } = await run(['--url', s.url, '--check', 'shed-stream-closed', '--check', 'stall-cut-at-cap', '--check', 'serialize-per-version']);
      expect(code).toBe(0);
      expect(lines.find((l) => l.includes('shed-stream-closed'))).toMatch(/^held/);
      expect(lines.find((l) => l.includes('stall-cut-at-cap'))).toMatch(/^held/);
      expect(lines.find((l) => l.includes('serialize-per-version'))).toMatch(/^not-run .*needs the control endpoint/);
      expect(lines.at(-1)).toBe('2 held, 0 broken, 1 not run (no control endpoint: only the real-time checks ran)');
    });
  });

  it('a check whose assumed configuration the server contradicts is not run', async () => {
    await withServer({ limiter: { maxConcurrent: 3 } }, async (s) => {
      const { code, lines } = await run(['--url', s.url, '--check', 'up-to-date-exempt']);
      expect(code).toBe(0);
      expect(lines[0]).toMatch(/^not-run .*needs maxConcurrent 1 \(the server has 3\)/);
    });
  });

  it.each([
    [['--url', 'ftp://127.0.0.1:1'], 3, /^only http:\/\/ URLs are supported/],
    [['--url', 'not a url'], 3, /^not a URL/],
    [['--check', 'no-such-check'], 3, /^unknown check no-such-check/],
    [['--patch', 'mutants/init-limiter/impl/nope.ts'], 3, /^mutants\/init-limiter\/impl\/nope\.ts: cannot load it/],
    [['--patch', 'mutants/pause/impl/P1.ts'], 3, /system 'init-limiter'/],
    [['--url', 'http://127.0.0.1:1'], 2, /^could not run: http:\/\/127\.0\.0\.1:1/],
    [['--frobnicate'], 64, /Unknown option '--frobnicate'/],
    [['--url', 'http://127.0.0.1:1', '--patch', 'x.ts'], 64, /--patch applies to the reference server/],
  ])('%j → exit %i, one clear line', async (argv, want, line) => {
    const { code, lines } = await run(argv);
    expect(code).toBe(want);
    expect(lines[0]).toMatch(line);
  });
});
