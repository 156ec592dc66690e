/** The source of "now" for every expiry and rate-limit decision; tests pass one they can advance. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}

/** "45 seconds", "1 minute", "14 minutes": for messages that say when to retry. */
export function describeWait(seconds: number): string {
  const wholeSeconds = Math.max(1, Math.ceil(seconds));
  if (wholeSeconds < 60) return wholeSeconds === 1 ? '1 second' : `${wholeSeconds} seconds`;
  const minutes = Math.ceil(wholeSeconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
