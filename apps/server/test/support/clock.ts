import type { Clock } from '../../src/lib/clock.ts';

export interface ManualClock {
  now: Clock;
  advanceBy(milliseconds: number): void;
}

/** A clock that only moves when told to, so expiry is tested without waiting. */
export function createManualClock(start = new Date()): ManualClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advanceBy(milliseconds) {
      current += milliseconds;
    },
  };
}
