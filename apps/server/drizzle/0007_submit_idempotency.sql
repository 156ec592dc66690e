ALTER TABLE "jobs" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_owner_idempotency_unique" ON "jobs" USING btree ("owner_id","idempotency_key");