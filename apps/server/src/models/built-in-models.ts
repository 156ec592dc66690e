import { createRequire } from 'node:module';
import path from 'node:path';
import type { NewMarketplaceModel } from '../repositories/marketplace.repository.ts';

// What the marketplace holds from its first start, registered through the same path an
// operator's model takes (copied into the store, checked against its sha256).

/** The folder of @fabric/compute's shipped datasets. */
function datasetsDirectory(): string {
  const computeEntry = createRequire(import.meta.url).resolve('@fabric/compute');
  return path.join(path.dirname(computeEntry), '..', 'datasets');
}

export interface BuiltInModel {
  /** The entry as listed; its size is the one the store measures. */
  entry: Omit<NewMarketplaceModel, 'sizeBytes'>;
  /** Where the file is read from at first start. */
  file: string;
}

export function builtInModels(): BuiltInModel[] {
  return [
    {
      file: path.join(datasetsDirectory(), 'digits.csv.gz'),
      entry: {
        id: 'digits',
        name: 'Handwritten digits (8×8)',
        description:
          'The UCI optical recognition of handwritten digits test set: 1,797 images of 8×8 ' +
          'pixels (values 0–16) with their digit 0–9. The default dataset of Neural Network ' +
          'Training.',
        category: 'dataset',
        jobTypes: ['neural_network_training'],
        format: 'csv.gz',
        sha256: '46abec6b12486ad9e51943373abcf22bbea1b5a51a1619b361570d8893f1464a',
        license: 'CC BY 4.0',
        source:
          'E. Alpaydin, C. Kaynak (1998), UCI Machine Learning Repository; the copy in Debian’s python3-sklearn',
        minMemoryBytes: 64 * 1024 * 1024,
        priceMultiplier: 1,
        isTestModel: false,
      },
    },
  ];
}
