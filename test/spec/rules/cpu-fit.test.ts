import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CPU_ARCHITECTURES, type Cpu } from '../../../spec/types.ts';
import { cpuEntryFits, cpuFits, fittingCpuIndex } from '../../../spec/rules/cpu-fit.ts';
import { fcOptions } from '../../support/fc.ts';

const fcOpts = fcOptions(300);
/** Cores in halves, as §2.1.1 allows (0.5 is half a core). */
const coresArb = fc.integer({ min: 1, max: 64 }).map((n) => n / 2);
const cpuArb: fc.Arbitrary<Cpu> = fc.record(
  { cores: coresArb, architecture: fc.constantFrom(...CPU_ARCHITECTURES) },
  { requiredKeys: ['cores'] },
);
const requirementArb = fc.record({ cores: coresArb, architectures: fc.subarray([...CPU_ARCHITECTURES]) }, { requiredKeys: ['cores'] });

test('§2.1.1: two entries of 2 cores do not satisfy a requirement of 4 cores (cores are never summed)', () => {
  assert.equal(cpuFits([{ cores: 2 }, { cores: 2 }], { cores: 4 }), false);
  assert.equal(cpuFits([{ cores: 2 }, { cores: 4 }], { cores: 4 }), true);
  assert.equal(fittingCpuIndex([{ cores: 2 }, { cores: 4 }, { cores: 8 }], { cores: 4 }), 1);
});

test('§2.1.1: half cores count as decimal units', () => {
  assert.equal(cpuFits([{ cores: 0.5 }], { cores: 0.5 }), true);
  assert.equal(cpuFits([{ cores: 0.5 }], { cores: 1 }), false);
});

test('§2.1.1: with listed architectures, the SAME entry needs the cores and one of the architectures', () => {
  const cpus: Cpu[] = [
    { cores: 8, architecture: 'amd64' },
    { cores: 2, architecture: 'arm64' },
  ];
  assert.equal(cpuFits(cpus, { cores: 4, architectures: ['arm64'] }), false);
  assert.equal(fittingCpuIndex(cpus, { cores: 2, architectures: ['arm64', 'arm'] }), 1);
  assert.equal(fittingCpuIndex(cpus, { cores: 4, architectures: ['amd64'] }), 0);
});

test('an entry without architecture does not match a listed architecture; an empty list means any', () => {
  assert.equal(cpuEntryFits({ cores: 8 }, { cores: 1, architectures: ['amd64'] }), false);
  assert.equal(cpuEntryFits({ cores: 8 }, { cores: 1, architectures: [] }), true);
  assert.equal(cpuFits([], { cores: 1 }), false);
});

test('property: cpuFits holds exactly when one entry alone fits', () => {
  fc.assert(
    fc.property(fc.array(cpuArb, { maxLength: 6 }), requirementArb, (cpus, req) => {
      const archs = req.architectures ?? [];
      const model = cpus.some((c) => c.cores >= req.cores && (archs.length === 0 || archs.includes(c.architecture!)));
      assert.equal(cpuFits(cpus, req), model);
    }),
    fcOpts,
  );
});

/** A requirement of k/2 cores and a split of (k-1-i)/2 + (k-1-j)/2 >= k/2 cores, each part below k/2. */
const splitArb = fc
  .integer({ min: 2, max: 64 })
  .chain((k) =>
    fc.integer({ min: 0, max: k - 2 }).chain((i) => fc.tuple(fc.constant(k), fc.constant(i), fc.integer({ min: 0, max: k - 2 - i }))),
  );

test('property: splitting the only fitting entry into two parts each below the requirement makes it not fit', () => {
  fc.assert(
    fc.property(fc.array(cpuArb, { maxLength: 5 }), fc.subarray([...CPU_ARCHITECTURES]), splitArb, (others, architectures, [k, i, j]) => {
      const req = { cores: k / 2, architectures };
      const rest = others.filter((c) => !cpuEntryFits(c, req));
      const parts: Cpu[] = [(k - 1 - i) / 2, (k - 1 - j) / 2].map((cores) => ({ cores, architecture: architectures[0] ?? 'amd64' }));
      const whole: Cpu = { ...parts[0]!, cores: parts[0]!.cores + parts[1]!.cores };
      assert.equal(cpuFits([...rest, whole], req), true);
      assert.equal(cpuFits([...rest, ...parts], req), false);
    }),
    fcOpts,
  );
});

test('property: the answer ignores entry order and never shrinks when entries are added', () => {
  fc.assert(
    fc.property(fc.array(cpuArb, { maxLength: 6 }), fc.array(cpuArb, { maxLength: 3 }), requirementArb, (cpus, more, req) => {
      assert.equal(cpuFits([...cpus].reverse(), req), cpuFits(cpus, req));
      if (cpuFits(cpus, req)) assert.equal(cpuFits([...cpus, ...more], req), true);
    }),
    fcOpts,
  );
});

test('property: fittingCpuIndex names the first fitting entry', () => {
  fc.assert(
    fc.property(fc.array(cpuArb, { maxLength: 6 }), requirementArb, (cpus, req) => {
      const i = fittingCpuIndex(cpus, req);
      const before = i === -1 ? cpus : cpus.slice(0, i);
      assert.ok(before.every((c) => !cpuEntryFits(c, req)));
      if (i !== -1) assert.equal(cpuEntryFits(cpus[i]!, req), true);
    }),
    fcOpts,
  );
});

test('property: a total of cores above the requirement is not enough when every entry is below it', () => {
  fc.assert(
    fc.property(requirementArb, fc.integer({ min: 2, max: 8 }), (req, n) => {
      const below = Math.max(0.5, req.cores - 0.5);
      fc.pre(below < req.cores);
      const cpus: Cpu[] = Array.from({ length: n }, () => ({ cores: below, architecture: 'arm64' }));
      assert.equal(cpuFits(cpus, { cores: req.cores }), false);
    }),
    fcOpts,
  );
});
