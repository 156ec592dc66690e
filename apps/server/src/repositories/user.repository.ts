import { and, eq, exists, isNull } from 'drizzle-orm';
import type { Role } from '@fabric/contract';
import type { Database } from '../db/connection.ts';
import { refreshTokens, users, type UserRow } from '../db/schema.ts';

export interface NewUser {
  email: string;
  passwordHash: string;
  role: Role;
  name: string | null;
  organizationName: string | null;
  domain: string | null;
  industry: string | null;
}

export type ProfileChanges = Partial<
  Pick<UserRow, 'name' | 'organizationName' | 'domain' | 'industry'>
>;

export function createUserRepository(db: Database) {
  return {
    /** Returns undefined when the email is taken (the unique constraint decides, even across processes). */
    async insert(user: NewUser): Promise<UserRow | undefined> {
      const [row] = await db
        .insert(users)
        .values(user)
        .onConflictDoNothing({ target: users.email })
        .returning();
      return row;
    },

    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /**
     * The user behind an access token, and whether the token's sign-in (`sessionId`, a
     * refresh-token family) is still live: it has a token that was never revoked (signing out,
     * refresh-token reuse, a password change or reset revoke the family). One round trip, since
     * every authenticated request asks.
     */
    async findWithSession(
      id: string,
      sessionId: string,
    ): Promise<{ user: UserRow; isSessionLive: boolean } | undefined> {
      const liveToken = db
        .select({ id: refreshTokens.id })
        .from(refreshTokens)
        .where(
          and(
            eq(refreshTokens.familyId, sessionId),
            eq(refreshTokens.userId, id),
            isNull(refreshTokens.revokedAt),
          ),
        );
      const [row] = await db
        .select({ user: users, isSessionLive: exists(liveToken).mapWith(Boolean) })
        .from(users)
        .where(eq(users.id, id))
        .limit(1);
      return row;
    },

    /**
     * Locks the user's row for the rest of the transaction: serializes what must be counted per
     * account (its enrolled nodes) across processes.
     */
    async lockById(id: string): Promise<void> {
      await db.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
    },

    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      return row;
    },

    async updateProfile(
      id: string,
      changes: ProfileChanges,
      now: Date,
    ): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ ...changes, updatedAt: now })
        .where(eq(users.id, id))
        .returning();
      return row;
    },

    async updatePasswordHash(id: string, passwordHash: string, now: Date): Promise<void> {
      await db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, id));
    },

    async updateSettings(
      id: string,
      changes: Partial<
        Pick<
          UserRow,
          | 'emailNotifications'
          | 'jobNotifications'
          | 'creditLowAlerts'
          | 'marketingEmails'
          | 'minimumPayoutMicros'
          | 'updatedAt'
        >
      >,
    ): Promise<UserRow | undefined> {
      const [row] = await db.update(users).set(changes).where(eq(users.id, id)).returning();
      return row;
    },

    /**
     * Closes the account: the row stays (the ledger and jobs refer to it) but the email is freed
     * for a new sign-up, the password can no longer match and the profile is erased.
     */
    async close(id: string, passwordHash: string, now: Date): Promise<void> {
      await db
        .update(users)
        .set({
          email: `closed-${id}@closed.invalid`,
          passwordHash,
          name: null,
          organizationName: null,
          domain: null,
          industry: null,
          emailNotifications: false,
          marketingEmails: false,
          deletedAt: now,
          updatedAt: now,
        })
        .where(eq(users.id, id));
    },

    /** Tests only: removes a user that owns nothing. */
    async delete(id: string): Promise<void> {
      await db.delete(users).where(eq(users.id, id));
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
