import type {
  MarketplaceModel,
  MarketplaceSearchQuery,
  MarketplaceSearchResponse,
} from '@fabric/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { MarketplaceModelRow } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { notFound } from '../lib/http-errors.ts';
import type { BuiltInModel } from '../models/built-in-models.ts';
import type { ModelStore } from '../models/model-store.ts';
import type { Repositories } from '../repositories/index.ts';
import type { NewMarketplaceModel } from '../repositories/marketplace.repository.ts';

export const MODEL_NOT_FOUND_MESSAGE = 'Model not found';
const DEFAULT_PAGE_SIZE = 20;

export function toMarketplaceModel(row: MarketplaceModelRow): MarketplaceModel {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category,
    job_types: row.jobTypes,
    format: row.format,
    size_bytes: row.sizeBytes,
    sha256: row.sha256,
    license: row.license,
    source: row.source,
    min_memory_bytes: row.minMemoryBytes,
    price_multiplier: row.priceMultiplier,
    is_test_model: row.isTestModel,
    created_at: row.createdAt.toISOString(),
  };
}

/** The model marketplace: what users search and pick, and what devices download. */
export function createMarketplaceService(dependencies: {
  repositories: Repositories;
  store: ModelStore;
  clock: Clock;
  logger: FastifyBaseLogger;
  builtIns: () => BuiltInModel[];
}) {
  const { repositories, store, clock } = dependencies;

  /**
   * Copies the file into the store (checked against `entry.sha256`), then lists it with the size
   * the store measured: a file that does not match is never listed.
   */
  async function register(
    source: string,
    entry: Omit<NewMarketplaceModel, 'sizeBytes'>,
  ): Promise<MarketplaceModel> {
    const stored = await store.importFile(source, entry.sha256);
    const row = await repositories.marketplace.upsert(
      { ...entry, sizeBytes: stored.sizeBytes },
      clock(),
    );
    return toMarketplaceModel(row);
  }

  return {
    register,

    async search(query: MarketplaceSearchQuery): Promise<MarketplaceSearchResponse> {
      const page = Number(query.page ?? 1);
      const pageSize = Number(query.page_size ?? DEFAULT_PAGE_SIZE);
      const { rows, total } = await repositories.marketplace.search({
        query: query.query,
        category: query.category,
        limit: pageSize,
        offset: (page - 1) * pageSize,
      });
      return { models: rows.map(toMarketplaceModel), total, page, page_size: pageSize };
    },

    async get(id: string): Promise<MarketplaceModel> {
      const row = await repositories.marketplace.findById(id);
      if (!row) throw notFound(MODEL_NOT_FOUND_MESSAGE);
      return toMarketplaceModel(row);
    },

    /** The stored file of a listed model, for an enrolled device; 404 otherwise. */
    async file(sha256: string): Promise<{ path: string; sizeBytes: number }> {
      const sizeBytes = (await repositories.marketplace.existsWithSha256(sha256))
        ? await store.sizeOf(sha256)
        : undefined;
      if (sizeBytes === undefined) throw notFound(MODEL_NOT_FOUND_MESSAGE);
      return { path: store.pathOf(sha256), sizeBytes };
    },

    /** At start: what the marketplace ships with is listed and its file is in this store. */
    async ensureBuiltIns(): Promise<void> {
      for (const builtIn of dependencies.builtIns()) {
        const listed = await repositories.marketplace.findById(builtIn.entry.id);
        const isStored = (await store.sizeOf(builtIn.entry.sha256)) !== undefined;
        if (listed?.sha256 === builtIn.entry.sha256 && isStored) continue;
        await register(builtIn.file, builtIn.entry);
        dependencies.logger.info({ model: builtIn.entry.id }, 'Registered a built-in model');
      }
    },
  };
}

export type MarketplaceService = ReturnType<typeof createMarketplaceService>;
