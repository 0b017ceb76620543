/**
 * The one endpoint parser (src/core/endpoint-url.ts) and the mask that shares its rule
 * (src/core/secrets.ts), without a server: every special character a password may hold, written as
 * it is and percent-encoded, is read back exactly by the parser, and hidden by the mask in every
 * form a message or a report gives it (plain, inside JSON, HTML-escaped). fast-check prints the seed
 * and path of a failure; FC_RUNS sets the number of runs.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEndpointList, parseEndpointUrl, percentDecode, safeEndpointText } from '../../src/core/endpoint-url.js';
import { forgetSecrets, maskDeep, maskSecrets, rememberEndpointSecrets } from '../../src/core/secrets.js';

afterEach(() => forgetSecrets());

const SPECIALS = ['/', ' ', '"', "'", '<', '>', '`', '@', ':', '%', '?', '#', '\\', 'é', '🔑', '中', '&', ';', '='];

/** A password of special characters and marker letters (no newline; no `x://`: see the last test). */
const password = fc
  .array(fc.oneof(fc.constantFrom(...SPECIALS), fc.constantFrom('Zq', 'Xw', '7', 'k')), { minLength: 1, maxLength: 14 })
  .map((parts) => parts.join(''))
  .filter((p) => !/[A-Za-z0-9+.-]:\/\//.test(p));

/** The password as a user may write it unencoded (then a `%XX` would be read as an escape: excluded). */
const rawWritable = (p: string) => !/%[0-9A-Fa-f]{2}/.test(p);

const contexts = (url: string): string[] => [
  `fencecheck props: not run: cannot reach FENCECHECK_VALKEY_URL=${url} (127.0.0.1:6379): WRONGPASS invalid username-password pair`,
  JSON.stringify({ reason: `cannot reach ${url}: refused`, summary: 'x@y', other: 'a@b.c' }, null, 2),
  JSON.stringify({ reason: `cannot reach ${url}: refused`, mail: 'ops@example.com' }),
  `<td>cannot reach ${url.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')}</td>`,
  `${url},redis://:other@g:2 and more text`,
];

describe('parseEndpointUrl', () => {
  it('reads every password back, written as it is and percent-encoded, with and without a user', () => {
    fc.assert(
      fc.property(password, fc.constantFrom('', 'alice'), fc.constantFrom('redis', 'rediss', 'valkey', 'valkeys'), (pw, user, scheme) => {
        const forms = [encodeURIComponent(pw), ...(rawWritable(pw) ? [pw] : [])];
        for (const written of forms) {
          const e = parseEndpointUrl(`${scheme}://${user}:${written}@127.0.0.1:6379`);
          expect(e).toMatchObject({ host: '127.0.0.1', port: 6379, password: pw, tls: scheme === 'rediss' || scheme === 'valkeys' });
          expect(e.username).toBe(user === '' ? undefined : user);
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 300) },
    );
  });

  it('users\' endpoints: the last @ ends the userinfo; rediss:// is TLS, not user "rediss"', () => {
    expect(parseEndpointUrl('redis://:p@ss:w/rd@host:1')).toMatchObject({ host: 'host', port: 1, password: 'p@ss:w/rd' });
    expect(parseEndpointUrl('rediss://:SECRET@h:6380')).toMatchObject({ host: 'h', port: 6380, password: 'SECRET', tls: true });
    expect(parseEndpointUrl('rediss://:SECRET@h:6380').username).toBeUndefined();
    expect(parseEndpointUrl('[::1]:7000')).toMatchObject({ host: '::1', port: 7000, tls: false });
    expect(parseEndpointUrl('alice:pw@h:1/')).toMatchObject({ username: 'alice', password: 'pw' });
    expect(percentDecode('100%')).toBe('100%');
    expect(percentDecode('%41%zz%')).toBe('A%zz%');
    expect(percentDecode('%C3')).toBeUndefined();
  });

  it('refuses what is not an endpoint, and never names the password doing so', () => {
    for (const [text, why] of [
      ['garbage', /not a valkey endpoint: 'garbage'/],
      ['http://h:1', /unknown scheme 'http:\/\/'/],
      ['redis://:SECRET@h:99999', /bad port 99999 in 'redis:\/\/\*\*\*@h:99999'/],
      ['redis://SECRET@h:1', /credentials in 'redis:\/\/\*\*\*@h:1' need a ':'/],
      ['redis://:%C3SECRET@h:1', /not UTF-8/],
      ['redis://:SECRET@', /not a valkey endpoint: 'redis:\/\/\*\*\*@'/],
    ] as const) {
      expect(() => parseEndpointUrl(text)).toThrow(why);
      expect(() => parseEndpointUrl(text)).not.toThrow(/SECRET/);
    }
    expect(safeEndpointText('redis://:a@b@h:1')).toBe('redis://***@h:1');
  });

  it('a seed list splits at commas; a piece that may be part of a password is never shown', () => {
    expect(parseEndpointList('h:1, redis://:p@g:2,')).toMatchObject([
      { host: 'h', port: 1 },
      { host: 'g', port: 2, password: 'p' },
    ]);
    expect(() => parseEndpointList('redis://:SEC,RET@h:1')).toThrow(/seed 1 of 2: .*not shown: it may hold part of a password.*%2C/);
    expect(() => parseEndpointList('redis://:SEC,RET@h:1')).not.toThrow(/SEC/);
    expect(() => parseEndpointList('h:1,h:x')).toThrow(/seed 2 of 2: not a valkey endpoint: 'h:x'/);
  });
});

describe('maskSecrets: the same rule in free text', () => {
  it('hides every password in every context, without remembering it (what another process wrote)', () => {
    fc.assert(
      fc.property(password, fc.constantFrom('', 'alice'), (pw, user) => {
        const forms = [encodeURIComponent(pw), ...(rawWritable(pw) ? [pw] : [])];
        for (const written of forms) {
          const url = `redis://${user}:${written}@127.0.0.1:6379`;
          for (const text of contexts(url)) {
            const masked = maskSecrets(text);
            // The markers of the password are gone; the user name and the host stay.
            for (const marker of ['Zq', 'Xw']) if (pw.includes(marker)) expect(masked).not.toContain(marker);
            expect(masked).toContain(`${user}:***@127.0.0.1:6379`);
          }
          expect(maskSecrets(contexts(url)[1]!).includes('"summary": "x@y"')).toBe(true);
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 300) },
    );
  });

  it('a remembered password is hidden wherever it stands (scheme-less with a space, outside any URL)', () => {
    const e = parseEndpointUrl('alice:Zq pass word@h:1');
    rememberEndpointSecrets(e);
    expect(maskSecrets('FENCECHECK_VALKEY_URL=alice:Zq pass word@h:1')).toBe('FENCECHECK_VALKEY_URL=alice:***@h:1');
    expect(maskSecrets('the password was Zq pass word')).toBe('the password was ***');
    expect(maskSecrets(JSON.stringify('Zq pass word'))).toBe('"***"');
    expect(maskSecrets(encodeURIComponent('Zq pass word'))).toBe('***');
    expect(maskDeep({ a: ['x Zq pass word y'] })).toEqual({ a: ['x *** y'] });
  });

  it('keeps the old guarantees: several URLs, a scheme-less user:pass@, a whole userinfo without :, plain text', () => {
    expect(maskSecrets('x redis://alice:S1@h:1,redis://:S2@g:2 y')).toBe('x redis://alice:***@h:1,redis://:***@g:2 y');
    expect(maskSecrets('FENCECHECK_VALKEY_URL=alice:S3cr3t@h:1')).toBe('FENCECHECK_VALKEY_URL=alice:***@h:1');
    expect(maskSecrets("'redis://S3cr3t@h:1'")).toBe("'redis://***@h:1'");
    expect(maskSecrets('plain text: a@b, host:port')).toBe('plain text: a@b, host:port');
    expect(maskSecrets('redis://:p@ss:w/rd@host:1')).toBe('redis://:***@host:1');
  });

  it('a password holding "x://" (or a user name and a password that starts with "//") is hidden whole; one after a delimiter is cut there', () => {
    // Was `redis://:Xwab://***@h:1`, and `redis://alice://***@…` for the password `//` (found by the property above).
    expect(maskSecrets('redis://:Xwab://Zq@h:1')).toBe('redis://:***@h:1');
    expect(maskSecrets('redis://alice://@h:1')).toBe('redis://alice:***@h:1');
    expect(maskSecrets('redis://:Xw ab://Zq@h:1')).toBe('redis://:Xw ab://***@h:1');
    rememberEndpointSecrets(parseEndpointUrl('redis://:Xwab://Zq@h:1'));
    expect(maskSecrets('redis://:Xwab://Zq@h:1')).toBe('redis://:***@h:1');
  });
});
