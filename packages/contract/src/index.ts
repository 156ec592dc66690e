export * from './constants.ts';
export * from './errors.ts';
export * from './fields.ts';
export * from './api.ts';
export * from './auth.ts';
export * from './nodes.ts';
export * from './jobs.ts';
export * from './job-params.ts';
export {
  JOB_TYPES,
  type JobType,
  JOB_TYPE_DEFINITIONS,
  byJobType,
  jobTypeDefinition,
  type JobTypeDefinition,
} from './job-types/index.ts';
export * from './job-proofs.ts';
export * from './job-types/neural-network-training.ts';
export * from './agent.ts';
export * from './payment.ts';
export * from './marketplace.ts';
export * from './health.ts';
export * from './pricing.ts';
export * from './notifications.ts';
export * from './cost-model.ts';
