import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/core/project-root.js';
import { DIAGRAM_PATH, diagramDocument, machineMermaid } from '../../../src/systems/fencing/model/diagram.js';
import { SPEC_GUARD_NAMES } from '../../../models/fencing/index.js';

describe('the Mermaid diagram of the machine', () => {
  it('is committed up to date (regenerate with `fencecheck diagram`)', () => {
    expect(readFileSync(join(projectRoot, DIAGRAM_PATH), 'utf8')).toBe(diagramDocument());
  });

  it('shows both regions, the one-way door and every named guard', () => {
    const text = machineMermaid();
    expect(text).toMatch(/^stateDiagram-v2/);
    expect(text).toContain('compatible --> enabled: Enable');
    expect(text).not.toMatch(/enabled --> /);
    expect(text).toContain('B --> C: AdvanceTarget [AdvanceTarget_ModeDisabled ∧ AdvanceTarget_FleetAtTarget ∧ AdvanceToC_Gate]');
    for (const g of SPEC_GUARD_NAMES) expect(text, g).toContain(g);
  });
});
