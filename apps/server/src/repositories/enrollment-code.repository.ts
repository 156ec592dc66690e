import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import { enrollmentCodes } from '../db/schema.ts';

export type RedeemResult =
  | { outcome: 'redeemed'; id: string; ownerId: string }
  | { outcome: 'used' | 'expired' | 'unknown' };

export function createEnrollmentCodeRepository(db: Database) {
  return {
    async insert(code: { ownerId: string; codeHash: string; expiresAt: Date }): Promise<void> {
      await db.insert(enrollmentCodes).values(code);
    },

    /**
     * Uses the code up. The conditional UPDATE makes it single-use even when two devices present
     * it at the same moment, in one process or several.
     */
    async redeem(codeHash: string, now: Date): Promise<RedeemResult> {
      const [redeemed] = await db
        .update(enrollmentCodes)
        .set({ usedAt: now })
        .where(
          and(
            eq(enrollmentCodes.codeHash, codeHash),
            isNull(enrollmentCodes.usedAt),
            gt(enrollmentCodes.expiresAt, now),
          ),
        )
        .returning({ id: enrollmentCodes.id, ownerId: enrollmentCodes.ownerId });
      if (redeemed) return { outcome: 'redeemed', ...redeemed };

      const [known] = await db
        .select({ usedAt: enrollmentCodes.usedAt })
        .from(enrollmentCodes)
        .where(eq(enrollmentCodes.codeHash, codeHash))
        .limit(1);
      if (!known) return { outcome: 'unknown' };
      return { outcome: known.usedAt ? 'used' : 'expired' };
    },

    /** The enrollment went through: remember which node the code made. */
    async recordNode(id: string, nodeId: string): Promise<void> {
      await db.update(enrollmentCodes).set({ nodeId }).where(eq(enrollmentCodes.id, id));
    },

    /** The enrollment failed after the code was redeemed (e.g. the device is someone else's): give it back. */
    async release(id: string): Promise<void> {
      await db
        .update(enrollmentCodes)
        .set({ usedAt: null })
        .where(and(eq(enrollmentCodes.id, id), isNull(enrollmentCodes.nodeId)));
    },

    async deleteExpiredBefore(cutoff: Date): Promise<void> {
      await db.delete(enrollmentCodes).where(lt(enrollmentCodes.expiresAt, cutoff));
    },
  };
}
