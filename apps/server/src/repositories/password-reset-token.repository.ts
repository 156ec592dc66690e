import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import { passwordResetTokens } from '../db/schema.ts';

export type ConsumeResult =
  { outcome: 'consumed'; userId: string } | { outcome: 'used' | 'expired' | 'unknown' };

export type TokenStatus = 'usable' | 'used' | 'expired' | 'unknown';

export function createPasswordResetTokenRepository(db: Database) {
  async function inspect(tokenHash: string, now: Date): Promise<TokenStatus> {
    const [known] = await db
      .select({ usedAt: passwordResetTokens.usedAt, expiresAt: passwordResetTokens.expiresAt })
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.tokenHash, tokenHash))
      .limit(1);
    if (!known) return 'unknown';
    if (known.usedAt) return 'used';
    return known.expiresAt > now ? 'usable' : 'expired';
  }

  return {
    async insert(token: { userId: string; tokenHash: string; expiresAt: Date }): Promise<void> {
      await db.insert(passwordResetTokens).values(token);
    },

    /** Marks every still-unused token of the user as used: only the newest link may work. */
    async retireAllOfUser(userId: string, now: Date): Promise<void> {
      await db
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
    },

    /**
     * Uses the token up. The conditional UPDATE makes it single-use even when two requests with
     * the same token arrive at once, in one process or several.
     */
    async consume(tokenHash: string, now: Date): Promise<ConsumeResult> {
      const [consumed] = await db
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(passwordResetTokens.tokenHash, tokenHash),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, now),
          ),
        )
        .returning({ userId: passwordResetTokens.userId });
      if (consumed) return { outcome: 'consumed', userId: consumed.userId };

      const status = await inspect(tokenHash, now);
      return { outcome: status === 'usable' ? 'unknown' : status };
    },

    inspect,

    async deleteExpiredBefore(cutoff: Date): Promise<void> {
      await db.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, cutoff));
    },
  };
}

export type PasswordResetTokenRepository = ReturnType<typeof createPasswordResetTokenRepository>;
