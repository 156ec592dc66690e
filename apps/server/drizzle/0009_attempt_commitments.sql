ALTER TABLE "job_attempts" ADD COLUMN "committed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "job_attempts" ADD COLUMN "committed_result" jsonb;--> statement-breakpoint
ALTER TABLE "job_attempts" ADD COLUMN "commitment" jsonb;--> statement-breakpoint
ALTER TABLE "job_attempts" ADD COLUMN "challenge" jsonb;