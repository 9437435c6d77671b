// Realistic device identity and §2.1.1 hosting fields, drawn from a device's own Faker.
import type { Faker } from '@faker-js/faker';
import { formatQuantity, type QuantityFormat } from '../../spec/rules/quantity.ts';
import {
  CPU_ARCHITECTURES,
  INTERFACE_TYPES,
  PERIPHERAL_TYPES,
  type Cpu,
  type CpuArchitectureType,
  type Peripheral,
  type Properties,
} from '../../spec/types.ts';

export type Identity = Pick<Properties, 'id' | 'vendor' | 'modelNumber' | 'serialNumber'>;
export type HostingFields = Required<Omit<Properties, keyof Identity>>;

/** Core counts an owner typically delegates; 0.5 is half a core (§2.1.1 CPU). */
const CORES = [0.5, 1, 1, 2, 2, 4, 4, 8] as const;
/** [amount, unit] pairs in binary units (§2.1.1): what edge hardware offers to applications. */
const MEMORY: readonly (readonly [number, string])[] = [
  [256, 'Mi'],
  [512, 'Mi'],
  [768, 'Mi'],
  [1, 'Gi'],
  [1.5, 'Gi'],
  [2, 'Gi'],
  [4, 'Gi'],
  [8, 'Gi'],
  [16, 'Gi'],
  [32, 'Gi'],
  [64, 'Gi'],
];
const STORAGE: readonly (readonly [number, string])[] = [
  [512, 'Mi'],
  [4, 'Gi'],
  [8, 'Gi'],
  [16, 'Gi'],
  [32, 'Gi'],
  [64, 'Gi'],
  [128, 'Gi'],
  [256, 'Gi'],
  [500, 'Gi'],
  [1, 'Ti'],
  [1.5, 'Ti'],
  [2, 'Ti'],
];

export function identity(faker: Faker, id: string, vendor = faker.company.name()): Identity {
  const series = faker.string.alpha({ length: { min: 2, max: 4 }, casing: 'upper' });
  const suffix = faker.helpers.maybe(() => `-${faker.helpers.arrayElement(['P', 'X', 'LTE', 'R2', 'HD'])}`, { probability: 0.4 }) ?? '';
  return {
    id,
    vendor,
    modelNumber: `${series}-${faker.number.int({ min: 100, max: 9999 })}${suffix}`,
    serialNumber: faker.string.alphanumeric({ length: { min: 10, max: 16 }, casing: 'upper' }),
  };
}

export function hostingFields(faker: Faker, format: QuantityFormat): HostingFields {
  return {
    cpus: cpus(faker),
    memory: quantity(faker, MEMORY, format),
    storage: quantity(faker, STORAGE, format),
    peripherals: peripherals(faker),
    interfaces: faker.helpers.arrayElements(INTERFACE_TYPES, { min: 1, max: 4 }).map((type) => ({ type })),
    // §2.1.1: a workload-hosting device MUST report true.
    otelCollector: true,
    supportedRuntimes: faker.helpers.weightedArrayElement([
      { weight: 70, value: ['oci'] },
      { weight: 15, value: ['oci', 'custom'] },
      { weight: 15, value: ['custom'] },
    ]),
    supportedDeploymentTypes: deploymentTypes(faker),
  };
}

/** The deployment types a device (or an opaque gateway, §2.2) can receive and process locally. */
export function deploymentTypes(faker: Faker): string[] {
  return faker.helpers.weightedArrayElement([
    { weight: 40, value: ['compose'] },
    { weight: 25, value: ['helm', 'compose'] },
    { weight: 15, value: ['helm'] },
    { weight: 10, value: ['custom'] },
    { weight: 10, value: ['compose', 'custom'] },
  ]);
}

/** 1-4 entries; one board usually has one architecture, and the field is optional, so sometimes absent. */
function cpus(faker: Faker): Cpu[] {
  const architecture: CpuArchitectureType = faker.helpers.arrayElement(CPU_ARCHITECTURES);
  const named = faker.datatype.boolean(0.85);
  return Array.from({ length: faker.number.int({ min: 1, max: 4 }) }, () => {
    const cores = faker.helpers.arrayElement(CORES);
    return named ? { cores, architecture } : { cores };
  });
}

function quantity(faker: Faker, choices: readonly (readonly [number, string])[], format: QuantityFormat): string {
  const [amount, unit] = faker.helpers.arrayElement(choices);
  return formatQuantity(amount, unit, format);
}

function peripherals(faker: Faker): Peripheral[] {
  return faker.helpers.arrayElements(PERIPHERAL_TYPES, { min: 0, max: 3 }).map((type) => {
    const p: Peripheral = { type };
    if (faker.datatype.boolean(0.7)) p.manufacturer = faker.company.name();
    if (faker.datatype.boolean(0.6))
      p.model = `${faker.string.alpha({ length: 2, casing: 'upper' })}${faker.number.int({ min: 10, max: 999 })}`;
    return p;
  });
}
