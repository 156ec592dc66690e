import { byJobType } from '@fabric/contract';

/** What each type accepts in params, and what `{}` means, from the job-type table. */
export const JOB_PARAMS_HINTS = byJobType((definition) => definition.paramsHint);
