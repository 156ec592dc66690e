// Prints the prime count of every PRIME_SIEVE_CHECK_SPAN-number span below limit + 1 as JSON: the
// commitment an honest agent sends for prime_sieve(limit). The server tests' fixture for 10^11
// (apps/server/test/support/fixtures) came from `npx tsx packages/compute/scripts/prime-span-counts.ts
// 100000000000` (about 3.5 CPU-minutes here); its entries add up to π(10^11) = 4,118,054,813.
import { countPrimesWithSpans } from '../src/index.ts';

const limit = Number(process.argv[2] ?? '100000000000');
const { result, spanCounts } = countPrimesWithSpans({ limit });
process.stderr.write(`π(${limit}) = ${result.count}\n`);
process.stdout.write(`${JSON.stringify(spanCounts)}\n`);
