ALTER TABLE "jobs" ALTER COLUMN "job_type" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_job_type_known" CHECK (job_type IN ('matrix_multiply', 'fibonacci', 'prime_sieve', 'neural_network_training', 'transformer_inference', 'llm_inference'));--> statement-breakpoint
DROP TYPE "public"."job_type";