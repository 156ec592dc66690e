import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  JOB_TYPES,
  MODEL_CATEGORIES,
  MODEL_FORMATS,
  modelIdSchema,
  sha256Schema,
  type JobType,
  type ModelCategory,
  type ModelFormat,
} from '@fabric/contract';
import { ConfigError, loadConfig } from '../config/env.ts';
import { openDatabase } from '../db/connection.ts';
import { createModelStore } from '../models/model-store.ts';
import { createRepositories } from '../repositories/index.ts';

// npm run models:register -w @fabric/server -- --id ID --file PATH_OR_URL --sha256 HEX ...
// Registers a model or dataset in the marketplace the way the server's built-ins are: the file is
// copied into the model store and kept only when its sha256 is the one given. It opens the
// database of the environment (DATABASE_URL, or the PGlite folder in DATA_DIR, which only one
// process can hold: stop the server first when it runs on PGlite).

const USAGE = `Usage: npm run models:register -w @fabric/server -- \\
  --id tinyllama-1.1b-chat-q4 --file <path or https URL> --sha256 <64 hex digits> \\
  --name "TinyLlama 1.1B Chat (Q4_K_M)" --category llm --job-type llm_inference --format gguf \\
  --license apache-2.0 [--description TEXT] [--source TEXT] [--min-memory-mb 1024] \\
  [--price-multiplier 1] [--test-model]`;

function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
): T {
  if (value !== undefined && (allowed as readonly string[]).includes(value)) return value as T;
  throw new Error(`--${flag} must be one of ${allowed.join(', ')}`);
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '') throw new Error(`--${flag} is required`);
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      id: { type: 'string' },
      file: { type: 'string' },
      sha256: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      category: { type: 'string' },
      'job-type': { type: 'string', multiple: true },
      format: { type: 'string' },
      license: { type: 'string' },
      source: { type: 'string' },
      'min-memory-mb': { type: 'string' },
      'price-multiplier': { type: 'string' },
      'test-model': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const id = modelIdSchema.parse(required(values.id, 'id'));
  const sha256 = sha256Schema.parse(required(values.sha256, 'sha256'));
  const file = required(values.file, 'file');
  const source = /^https?:\/\//i.test(file) ? file : path.resolve(file);
  const category = oneOf<ModelCategory>(values.category, MODEL_CATEGORIES, 'category');
  const format = oneOf<ModelFormat>(values.format, MODEL_FORMATS, 'format');
  const jobTypes = (values['job-type'] ?? []).map((type) =>
    oneOf<JobType>(type, JOB_TYPES, 'job-type'),
  );
  if (jobTypes.length === 0) throw new Error('--job-type is required (once per type)');
  const minMemoryMb = Number(values['min-memory-mb'] ?? '256');
  const priceMultiplier = Number(values['price-multiplier'] ?? '1');
  if (!Number.isFinite(minMemoryMb) || minMemoryMb < 0) {
    throw new Error('--min-memory-mb must be a number of megabytes');
  }
  if (!Number.isFinite(priceMultiplier) || priceMultiplier <= 0) {
    throw new Error('--price-multiplier must be a number above 0');
  }

  const config = loadConfig();
  const connection = await openDatabase(
    config.databaseUrl
      ? { driver: 'postgres', url: config.databaseUrl }
      : { driver: 'pglite', dataDir: path.join(config.dataDir, 'pglite') },
  );
  try {
    await connection.migrate();
    const store = createModelStore({ directory: config.modelStoreDir });
    const stored = await store.importFile(source, sha256);
    await createRepositories(connection.db).marketplace.upsert(
      {
        id,
        name: required(values.name, 'name'),
        description: values.description ?? '',
        category,
        jobTypes,
        format,
        sizeBytes: stored.sizeBytes,
        sha256,
        license: required(values.license, 'license'),
        source: values.source ?? file,
        minMemoryBytes: Math.round(minMemoryMb * 1024 * 1024),
        priceMultiplier,
        isTestModel: values['test-model'] ?? false,
      },
      new Date(),
    );
    console.log(`Registered ${id} (${stored.sizeBytes} bytes, sha256 ${sha256})`);
  } finally {
    await connection.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError || error instanceof Error ? error.message : String(error),
  );
  console.error(USAGE);
  process.exit(1);
});
