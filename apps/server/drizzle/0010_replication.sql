ALTER TABLE "jobs" ADD COLUMN "candidate_lease_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "excluded_owner_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "replication_deadline_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "replication" text;--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "results_refused" integer DEFAULT 0 NOT NULL;