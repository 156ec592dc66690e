import { apiPaths } from '@fabric/contract';
import { fetchText } from '@/lib/fetch-text';

/** The printable HTML statement of one UTC month ("YYYY-MM"). */
export function getStatement(month: string): Promise<string> {
  return fetchText(`${apiPaths.payment.statement}?${new URLSearchParams({ month }).toString()}`);
}
