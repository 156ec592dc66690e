import { and, eq, gt, inArray, isNull, lt, ne, or } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import { refreshTokens } from '../db/schema.ts';

export interface NewRefreshToken {
  id: string;
  userId: string;
  familyId: string;
  tokenHash: string;
  expiresAt: Date;
}

export type RotationResult =
  | { outcome: 'rotated'; userId: string; familyId: string }
  /** A retired token came back: someone holds a copy. Its family has been revoked. */
  | { outcome: 'reused'; userId: string; familyId: string }
  | { outcome: 'invalid' };

export function createRefreshTokenRepository(db: Database) {
  return {
    async insert(token: NewRefreshToken): Promise<void> {
      await db.insert(refreshTokens).values(token);
    },

    /**
     * Retires the token with `tokenHash` and stores its successor, in one transaction. The
     * conditional UPDATE is the lock: of two concurrent uses of one token (in any process) only
     * one can match `replaced_at IS NULL`; the other is treated as reuse.
     */
    rotate(
      tokenHash: string,
      successor: Omit<NewRefreshToken, 'userId' | 'familyId'>,
      now: Date,
    ): Promise<RotationResult> {
      return db.transaction(async (tx) => {
        const [retired] = await tx
          .update(refreshTokens)
          .set({ replacedAt: now, replacedById: successor.id })
          .where(
            and(
              eq(refreshTokens.tokenHash, tokenHash),
              isNull(refreshTokens.replacedAt),
              isNull(refreshTokens.revokedAt),
              gt(refreshTokens.expiresAt, now),
            ),
          )
          .returning({ userId: refreshTokens.userId, familyId: refreshTokens.familyId });

        if (retired) {
          await tx.insert(refreshTokens).values({ ...successor, ...retired });
          return { outcome: 'rotated', ...retired };
        }

        const [known] = await tx
          .select({
            userId: refreshTokens.userId,
            familyId: refreshTokens.familyId,
            replacedAt: refreshTokens.replacedAt,
          })
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, tokenHash))
          .limit(1);
        if (known?.replacedAt == null) return { outcome: 'invalid' };

        await tx
          .update(refreshTokens)
          .set({ revokedAt: now })
          .where(and(eq(refreshTokens.familyId, known.familyId), isNull(refreshTokens.revokedAt)));
        return { outcome: 'reused', userId: known.userId, familyId: known.familyId };
      });
    },

    /** Revokes every token of the family `tokenHash` belongs to; nothing happens for an unknown token. */
    async revokeFamilyOf(tokenHash: string, now: Date): Promise<void> {
      const family = db
        .select({ familyId: refreshTokens.familyId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash));
      await db
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(and(inArray(refreshTokens.familyId, family), isNull(refreshTokens.revokedAt)));
    },

    /** Signs the user out everywhere, except the sign-in `keepFamilyId` when given. */
    async revokeAllOfUser(userId: string, now: Date, keepFamilyId?: string): Promise<void> {
      await db
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(
          and(
            eq(refreshTokens.userId, userId),
            isNull(refreshTokens.revokedAt),
            keepFamilyId === undefined ? undefined : ne(refreshTokens.familyId, keepFamilyId),
          ),
        );
    },

    /** Housekeeping: expired tokens can no longer be used, and old revoked ones prove nothing. */
    async deleteExpiredBefore(cutoff: Date): Promise<void> {
      await db
        .delete(refreshTokens)
        .where(or(lt(refreshTokens.expiresAt, cutoff), lt(refreshTokens.revokedAt, cutoff)));
    },
  };
}

export type RefreshTokenRepository = ReturnType<typeof createRefreshTokenRepository>;
