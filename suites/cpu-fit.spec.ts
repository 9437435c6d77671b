// interfaces.md §2.1.1 CPU: "A device satisfies an application's requiredResources.cpu only if ONE entry has at least
// the required cores and, when the application lists one or more architectures, that entry's architecture is one of
// them. Cores of separate entries MUST NOT be summed." Observed through placements (fixtures/placement.ts, errata).
import { test, expect } from '../fixtures/wfmck.ts';
import { req } from '../fixtures/req.ts';
import { placementFor, type Placement } from '../fixtures/placement.ts';
import { cpuFits, type CpuRequirement } from '../spec/rules/cpu-fit.ts';
import type { Cpu } from '../spec/types.ts';

/** Each case's decision must be what the rule of spec/rules/cpu-fit.ts says: placed exactly when one entry fits. */
async function expectDecisions(placement: Placement, cases: [Cpu[], CpuRequirement][], rule: string): Promise<void> {
  for (const [cpus, required] of cases) {
    const { placed, evidence } = await placement.decide(cpus, required);
    const fits = cpuFits(cpus, required);
    expect(
      placed,
      `§2.1.1 ${rule}: ${fits ? 'a fitting entry exists, yet it was refused' : 'no single entry fits, yet it was placed'} (${evidence})`,
    ).toBe(fits);
  }
}

test.describe('§2.1.1 CPU: placement by requiredResources.cpu', () => {
  test(
    'CPU-FIT-ONE-ENTRY an application is placed only where one cpus entry alone has the required cores',
    req('CPU-FIT-ONE-ENTRY'),
    async ({ device, hooks, profile }) => {
      const placement = await placementFor(await device(), hooks, profile.desiredState === 'v1');
      await expectDecisions(
        placement,
        [
          [
            [
              { cores: 1.5, architecture: 'amd64' },
              { cores: 1, architecture: 'amd64' },
            ],
            { cores: 2 },
          ],
          [
            [
              { cores: 1.5, architecture: 'amd64' },
              { cores: 1, architecture: 'amd64' },
            ],
            { cores: 1.5 },
          ],
          [[{ cores: 0.5 }, { cores: 3 }], { cores: 2.5 }],
        ],
        'one entry with at least the required cores',
      );
    },
  );

  test(
    'CPU-FIT-ARCH with listed architectures, the entry that fits has one of them',
    req('CPU-FIT-ARCH'),
    async ({ device, hooks, profile }) => {
      const placement = await placementFor(await device(), hooks, profile.desiredState === 'v1');
      await expectDecisions(
        placement,
        [
          [
            [
              { cores: 4, architecture: 'arm64' },
              { cores: 1, architecture: 'amd64' },
            ],
            { cores: 2, architectures: ['amd64'] },
          ],
          [[{ cores: 4 }], { cores: 2, architectures: ['arm'] }],
          [
            [
              { cores: 4, architecture: 'arm64' },
              { cores: 1, architecture: 'amd64' },
            ],
            { cores: 2, architectures: ['amd64', 'arm64'] },
          ],
        ],
        'the fitting entry has a listed architecture',
      );
    },
  );

  test(
    'CPU-NO-SUM cores of separate cpus entries are never summed to fit an application',
    req('CPU-NO-SUM'),
    async ({ device, hooks, profile }) => {
      const placement = await placementFor(await device(), hooks, profile.desiredState === 'v1');
      await expectDecisions(
        placement,
        [
          [
            [
              { cores: 2, architecture: 'amd64' },
              { cores: 2, architecture: 'amd64' },
            ],
            { cores: 3 },
          ],
          [
            [
              { cores: 1, architecture: 'arm64' },
              { cores: 1, architecture: 'arm64' },
              { cores: 1, architecture: 'arm64' },
            ],
            { cores: 2, architectures: ['arm64'] },
          ],
          [
            [
              { cores: 2, architecture: 'amd64' },
              { cores: 2, architecture: 'amd64' },
            ],
            { cores: 2 },
          ],
        ],
        'never the sum of entries',
      );
    },
  );
});
