import { randomInt } from 'node:crypto';
import {
  ENROLLMENT_CODE_ALPHABET,
  ENROLLMENT_CODE_LENGTH,
  ENROLLMENT_CODE_TTL_MINUTES,
  ERROR_CODES,
  type EnrollmentCodeResponse,
  type RegisterNodeResponse,
  type enrollNodeRequestSchema,
} from '@fabric/contract';
import type { z } from 'zod';
import { addSeconds, type Clock } from '../lib/clock.ts';
import { HttpError } from '../lib/http-errors.ts';
import { hashSecretToken } from '../lib/secret-token.ts';
import type { Repositories } from '../repositories/index.ts';
import type { DeviceService } from './device.service.ts';

export type EnrollNodeInput = z.output<typeof enrollNodeRequestSchema>;

export const ENROLLMENT_CODE_MESSAGES = {
  unknown: 'This enrollment code is not valid. Check it, or create a new one in Add Node.',
  used: 'This enrollment code was already used. Create a new one in Add Node.',
  expired: 'This enrollment code has expired. Create a new one in Add Node.',
} as const;

/** XXXX-XXXX-XXXX, easier to read out and type than one run of 12 characters. */
function formatCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

function refused(reason: keyof typeof ENROLLMENT_CODE_MESSAGES): HttpError {
  return new HttpError(
    401,
    ENROLLMENT_CODE_MESSAGES[reason],
    ERROR_CODES.invalidToken,
    'enrollment_code',
  );
}

/**
 * One-time enrollment codes: a provider creates one in Add Node and the agent enrolls the device
 * with it (`--code`), so the provider's password never reaches the device.
 */
export function createEnrollmentCodeService(options: {
  repositories: Repositories;
  devices: DeviceService;
  clock: Clock;
}) {
  const { repositories, devices, clock } = options;

  return {
    async create(ownerId: string): Promise<EnrollmentCodeResponse> {
      const code = Array.from(
        { length: ENROLLMENT_CODE_LENGTH },
        () => ENROLLMENT_CODE_ALPHABET[randomInt(ENROLLMENT_CODE_ALPHABET.length)],
      ).join('');
      const expiresAt = addSeconds(clock(), ENROLLMENT_CODE_TTL_MINUTES * 60);
      await repositories.enrollmentCodes.insert({
        ownerId,
        codeHash: hashSecretToken(code),
        expiresAt,
      });
      return { code: formatCode(code), expires_at: expiresAt.toISOString() };
    },

    /** Enrolls the device for the code's owner; the code works once (401 naming it otherwise). */
    async enroll(
      input: EnrollNodeInput,
    ): Promise<{ response: RegisterNodeResponse; isNew: boolean }> {
      const { enrollment_code: code, ...device } = input;
      const redeemed = await repositories.enrollmentCodes.redeem(hashSecretToken(code), clock());
      if (redeemed.outcome !== 'redeemed') throw refused(redeemed.outcome);
      const owner = await repositories.users.findById(redeemed.ownerId);
      // A closed account's codes die with it.
      if (!owner || owner.deletedAt || owner.role !== 'node_provider') throw refused('unknown');
      try {
        const enrolled = await devices.register(owner.id, device);
        await repositories.enrollmentCodes.recordNode(redeemed.id, enrolled.response.node.id);
        return enrolled;
      } catch (error) {
        // Nothing was enrolled (e.g. the device belongs to another provider): the code still works.
        await repositories.enrollmentCodes.release(redeemed.id);
        throw error;
      }
    },
  };
}

export type EnrollmentCodeService = ReturnType<typeof createEnrollmentCodeService>;
