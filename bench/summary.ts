import type autocannon from 'autocannon';

/** One row of a benchmark table. */
export function summarize(name: string, result: autocannon.Result) {
  return {
    scenario: name,
    'req/s (mean)': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    '2xx': result['2xx'],
    'non-2xx': result.non2xx,
    errors: result.errors,
  };
}
