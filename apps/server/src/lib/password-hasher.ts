import argon2 from 'argon2';

export interface PasswordHashingOptions {
  /** KiB of memory per hash. */
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP Password Storage Cheat Sheet: argon2id, 19 MiB of memory, 2 iterations, 1 lane. */
export const DEFAULT_PASSWORD_HASHING: PasswordHashingOptions = {
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** True when a stored hash was made with other parameters and should be replaced on next login. */
  needsRehash(hash: string): boolean;
  /** Spends the same time as a real verification, so unknown emails cannot be told apart by timing. */
  verifyAgainstDummy(password: string): Promise<void>;
}

export function createPasswordHasher(options: PasswordHashingOptions): PasswordHasher {
  const argonOptions = { type: argon2.argon2id, ...options } as const;
  let dummyHash: Promise<string> | undefined;

  return {
    hash: (password) => argon2.hash(password, argonOptions),
    async verify(hash, password) {
      try {
        return await argon2.verify(hash, password);
      } catch {
        // A malformed stored hash must not let anyone in, nor crash the request.
        return false;
      }
    },
    needsRehash: (hash) => argon2.needsRehash(hash, argonOptions),
    async verifyAgainstDummy(password) {
      dummyHash ??= argon2.hash('fabric-dummy-password', argonOptions);
      await argon2.verify(await dummyHash, password);
    },
  };
}
