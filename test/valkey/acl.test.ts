/**
 * The least-privilege ACL users of docs/valkey.md ("Least-privilege ACL users"), tested as written
 * ("a least-privilege user also needs +role and +time; the docs do not say so"): this
 * test reads the block from the docs, creates exactly those users on a valkey-server the harness
 * did not start, and runs each command with its user — it passes, and the server's ACL LOG holds
 * nothing but the CLIENT SETINFO ioredis sends and ignores. Without +role, and the limiter without
 * +time, they are not run (exit 2) naming the missing command.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { projectRoot } from '../../src/core/project-root.js';
import { startUserValkey, stopUserValkeys, type UserValkey } from '../support/user-valkey.js';
import { fencecheckCli } from '../support/cli.js';

interface DocUser {
  /** The command line after `fencecheck`, with URL for the endpoint. */
  readonly argv: readonly string[];
  /** The ACL SETUSER arguments after the user name, with PASSWORD. */
  readonly user: string;
  readonly rules: readonly string[];
}

/** The block after the `<!-- acl-users … -->` marker: `# fencecheck …` lines, each followed by its ACL SETUSER. */
function docUsers(): DocUser[] {
  const doc = readFileSync(join(projectRoot, 'docs/valkey.md'), 'utf8');
  const block = /<!-- acl-users:[^\n]*-->\n```\n([\s\S]*?)\n```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/valkey.md has no acl-users block');
  const lines = block.split('\n');
  const out: DocUser[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const cmd = /^# fencecheck (.+)$/.exec(lines[i]!)?.[1];
    const acl = /^ACL SETUSER (\S+) (.+)$/.exec(lines[i + 1] ?? '');
    if (!cmd || !acl) throw new Error(`acl-users block, line ${i + 1}: expected '# fencecheck …' then 'ACL SETUSER …'`);
    out.push({ argv: cmd.split(/\s+/), user: acl[1]!, rules: acl[2]!.split(/\s+/) });
  }
  return out;
}

const PASSWORD = 'acl-test-Vb4-pw';
let server: UserValkey;
let admin: Redis;

beforeAll(async () => {
  server = await startUserValkey({ password: 'admin-Gq8-pw' });
  admin = server.admin();
  await admin.connect();
}, 60_000);
afterAll(async () => {
  admin?.disconnect();
  await stopUserValkeys();
});

const USERS = docUsers();

async function createUser(u: DocUser, drop: readonly string[] = []): Promise<void> {
  await admin.call('ACL', 'DELUSER', u.user);
  await admin.call('ACL', 'SETUSER', u.user, ...u.rules.filter((r) => !drop.includes(r)).map((r) => r.replace('PASSWORD', PASSWORD)));
}

async function run(u: DocUser) {
  const url = `redis://${u.user}:${PASSWORD}@127.0.0.1:${server.port}`;
  await admin.call('ACL', 'LOG', 'RESET');
  const r = await fencecheckCli(
    u.argv.map((a) => (a === 'URL' ? url : a)),
    { FENCECHECK_VALKEY_URL: url },
  );
  const log = (await admin.call('ACL', 'LOG')) as unknown[][];
  const denied = new Set(
    log.map((entry) => {
      const m = new Map<string, unknown>();
      for (let i = 0; i < entry.length; i += 2) m.set(String(entry[i]), entry[i + 1]);
      return `${String(m.get('reason'))}:${String(m.get('object'))}`;
    }),
  );
  return { ...r, denied: [...denied].filter((d) => d !== 'command:client|setinfo') };
}

it('the docs list a user for every command that runs on an endpoint you own', () => {
  expect(USERS.map((u) => u.argv[0])).toEqual(['props', 'limiter', 'conform', 'trace', 'gate', 'lua-check']);
  for (const u of USERS) expect(u.rules.slice(0, 1)).toEqual(['on']);
});

describe.each(USERS)('fencecheck $argv.0 with its documented user', (u) => {
  it('passes, and the ACL LOG holds no refusal but CLIENT SETINFO', async () => {
    await createUser(u);
    const r = await run(u);
    // trace replay of M1's counterexample finds the violation it records: exit 1 is its pass.
    expect(r.code, r.out + r.err).toBe(u.argv[0] === 'trace' ? 1 : 0);
    expect(r.denied).toEqual([]);
  }, 300_000);
});

describe('what the docs did not say', () => {
  it('without +role the start-up is refused: not run (2), naming role', async () => {
    const props = USERS.find((u) => u.argv[0] === 'props')!;
    await createUser(props, ['+role']);
    const r = await run(props);
    expect(r.code, r.out + r.err).toBe(2);
    expect(r.out + r.err).toMatch(/NOPERM.*'role'/);
  }, 120_000);

  it("without +time the limiter's script is refused: not run (2), naming time", async () => {
    const limiter = USERS.find((u) => u.argv[0] === 'limiter')!;
    await createUser(limiter, ['+time']);
    const r = await run(limiter);
    expect(r.code, r.out + r.err).toBe(2);
    expect(r.out + r.err).toMatch(/'time'/);
  }, 300_000);
});
