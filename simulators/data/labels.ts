// §2.1 labels (every value type, organisation-domain keys) and the root `x-<unique-name>-extensions` block.
import type { Faker } from '@faker-js/faker';
import type { DeviceCapabilities, LabelValue } from '../../spec/types.ts';

/** Always one label of each value type §2.1 allows, so every fleet exercises all five, plus a few extra. */
export function labels(faker: Faker): Record<string, LabelValue> {
  const domain = faker.internet.domainName();
  const out: Record<string, LabelValue> = {
    [`${domain}/site`]: faker.location.city(),
    [`${domain}/line`]: faker.number.int({ min: 1, max: 40 }),
    [`${domain}/certified`]: faker.datatype.boolean(),
    [`${domain}/zones`]: faker.helpers.multiple(() => faker.location.direction(), { count: { min: 1, max: 3 } }),
    [`${domain}/calibration`]: faker.helpers.multiple(() => faker.number.float({ min: 0, max: 100, fractionDigits: 2 }), {
      count: { min: 1, max: 4 },
    }),
  };
  if (faker.datatype.boolean(0.5)) out[`${domain}/cell`] = faker.string.alphanumeric({ length: 4, casing: 'upper' });
  // Every key domain-prefixed: §2.1's SHOULD is the kit's own duty (the device persona's strict clean control judges it).
  if (faker.datatype.boolean(0.3)) out[`${domain}/tier`] = faker.helpers.arrayElement(['edge', 'near-edge', 'far-edge']);
  return out;
}

/** `x-<slug>-extensions` with a slug that also fits the stricter rc.3 key grammar (P10): `^x-[a-z][a-z0-9-]*-extensions$`. */
export function extensionKey(vendor: string): `x-${string}-extensions` {
  const slug = vendor
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+|-+$/g, '')
    .slice(0, 24)
    .replace(/-+$/, '');
  return `x-${slug || 'vendor'}-extensions`;
}

export function extensions(faker: Faker, vendor: string): Pick<DeviceCapabilities, `x-${string}-extensions`> {
  return {
    [extensionKey(vendor)]: {
      firmware: faker.system.semver(),
      bootloader: faker.system.semver(),
      managedSince: faker.date.past({ years: 5, refDate: '2025-01-01T00:00:00Z' }).toISOString(),
      secureBoot: faker.datatype.boolean(),
      thermal: { maxCelsius: faker.number.int({ min: 60, max: 105 }), fanless: faker.datatype.boolean() },
    },
  };
}
