import { MICRO_DOLLARS_PER_DOLLAR } from '@fabric/contract';

// Money is integer micro-dollars inside the server; these turn it into the API's dollar forms.

const MICRO_DOLLARS_PER_CENT = MICRO_DOLLARS_PER_DOLLAR / 100;

export function dollarsToMicroDollars(dollars: number): number {
  return Math.round(dollars * MICRO_DOLLARS_PER_DOLLAR);
}

/** A dollar amount as a number (job costs). */
export function microDollarsToDollars(microDollars: number): number {
  return microDollars / MICRO_DOLLARS_PER_DOLLAR;
}

/** "12.34", rounded half away from zero to the cent (node earnings are decimal strings). */
export function formatMicroDollars(microDollars: number): string {
  const cents = Math.round(Math.abs(microDollars) / MICRO_DOLLARS_PER_CENT);
  const sign = microDollars < 0 && cents > 0 ? '-' : '';
  return `${sign}${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
