import type { ModelCategory } from '@fabric/contract';
import { and, asc, count, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import { marketplaceModels, type MarketplaceModelRow } from '../db/schema.ts';

export type NewMarketplaceModel = Omit<MarketplaceModelRow, 'createdAt' | 'updatedAt'>;

/** `%`, `_` and `\` match themselves in a search, not as LIKE wildcards. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The marketplace's catalogue: search, one entry, and what the operator registers. */
export function createMarketplaceRepository(db: Database) {
  return {
    async search(filter: {
      query: string | undefined;
      category: ModelCategory | undefined;
      limit: number;
      offset: number;
    }): Promise<{ rows: MarketplaceModelRow[]; total: number }> {
      const conditions: SQL[] = [];
      if (filter.category) conditions.push(eq(marketplaceModels.category, filter.category));
      const words = (filter.query ?? '').trim();
      if (words !== '') {
        const pattern = likePattern(words);
        const matches = or(
          ilike(marketplaceModels.id, pattern),
          ilike(marketplaceModels.name, pattern),
          ilike(marketplaceModels.description, pattern),
        );
        if (matches) conditions.push(matches);
      }
      const where = conditions.length > 0 ? and(...conditions) : undefined;
      const rows = await db
        .select()
        .from(marketplaceModels)
        .where(where)
        .orderBy(
          asc(marketplaceModels.category),
          asc(marketplaceModels.name),
          asc(marketplaceModels.id),
        )
        .limit(filter.limit)
        .offset(filter.offset);
      const [counted] = await db.select({ total: count() }).from(marketplaceModels).where(where);
      return { rows, total: counted?.total ?? 0 };
    },

    async findById(id: string): Promise<MarketplaceModelRow | undefined> {
      const [row] = await db
        .select()
        .from(marketplaceModels)
        .where(eq(marketplaceModels.id, id))
        .limit(1);
      return row;
    },

    async existsWithSha256(sha256: string): Promise<boolean> {
      const [row] = await db
        .select({ id: marketplaceModels.id })
        .from(marketplaceModels)
        .where(eq(marketplaceModels.sha256, sha256))
        .limit(1);
      return row !== undefined;
    },

    /** Adds the entry, or replaces the one with its id (a new version of the file). */
    async upsert(model: NewMarketplaceModel, now: Date): Promise<MarketplaceModelRow> {
      const { id, ...rest } = model;
      const [row] = await db
        .insert(marketplaceModels)
        .values({ ...model, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: marketplaceModels.id, set: { ...rest, updatedAt: now } })
        .returning();
      if (!row) throw new Error(`Marketplace entry ${id} was not written`);
      return row;
    },
  };
}
