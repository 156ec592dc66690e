const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

const STEPS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['minute', 60],
  ['hour', 60 * 60],
  ['day', 24 * 60 * 60],
];

const WEEK_SECONDS = 7 * 24 * 60 * 60;

/** "just now", "5 minutes ago", "yesterday", "3 days ago"; null from a week on (show the date). */
export function formatRelativeTime(iso: string, now: Date = new Date()): string | null {
  const seconds = (now.getTime() - new Date(iso).getTime()) / 1000;
  if (!Number.isFinite(seconds) || seconds >= WEEK_SECONDS) return null;
  if (seconds < 60) return 'just now';
  let unit: Intl.RelativeTimeFormatUnit = 'minute';
  let size = 60;
  for (const [stepUnit, stepSize] of STEPS) {
    if (seconds >= stepSize) {
      unit = stepUnit;
      size = stepSize;
    }
  }
  return relative.format(-Math.floor(seconds / size), unit);
}
