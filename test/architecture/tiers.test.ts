/** The deep tier's list names real files, and the quick tier (npm test) runs none of them. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { DEEP_FILES, tierOf } from '../support/tiers.js';

describe('the test tiers', () => {
  it('every deep file exists, once', () => {
    expect(DEEP_FILES.filter((f) => !existsSync(join(projectRoot, f)))).toEqual([]);
    expect(new Set(DEEP_FILES).size).toBe(DEEP_FILES.length);
  });

  it('FENCECHECK_TESTS is quick (the default), deep or all; anything else is refused', () => {
    expect([undefined, '', 'quick', 'deep', 'all'].map(tierOf)).toEqual(['quick', 'quick', 'quick', 'deep', 'all']);
    expect(() => tierOf('fast')).toThrow(/quick, deep or all, got 'fast'/);
  });
});
