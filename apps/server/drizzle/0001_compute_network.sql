CREATE TYPE "public"."attempt_outcome" AS ENUM('completed', 'failed', 'rejected', 'expired', 'released', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."job_status" AS ENUM('queued', 'running', 'completed', 'failed', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."job_type" AS ENUM('matrix_multiply', 'fibonacci', 'prime_sieve', 'neural_network_training', 'transformer_inference', 'llm_inference');--> statement-breakpoint
CREATE TABLE "job_attempts" (
	"lease_id" uuid PRIMARY KEY NOT NULL,
	"job_id" uuid NOT NULL,
	"node_id" uuid NOT NULL,
	"attempt_number" integer NOT NULL,
	"challenge_seed" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"outcome" "attempt_outcome",
	"error" text,
	"usage_wall_ms" bigint,
	"usage_cpu_ms" bigint,
	"usage_peak_memory_bytes" bigint
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sequence" bigint GENERATED ALWAYS AS IDENTITY (sequence name "jobs_sequence_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" uuid NOT NULL,
	"job_type" "job_type" NOT NULL,
	"params" jsonb NOT NULL,
	"priority" smallint DEFAULT 0 NOT NULL,
	"status" "job_status" DEFAULT 'queued' NOT NULL,
	"queue_reason" text,
	"assigned_node_id" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"excluded_node_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"current_lease_id" uuid,
	"lease_expires_at" timestamp with time zone,
	"progress" double precision DEFAULT 0 NOT NULL,
	"progress_message" text,
	"result" jsonb,
	"error" text,
	"usage_wall_ms" bigint,
	"usage_cpu_ms" bigint,
	"usage_peak_memory_bytes" bigint,
	"estimated_cost_micros" bigint,
	"actual_cost_micros" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "jobs_priority_range" CHECK ("jobs"."priority" IN (0, 1)),
	CONSTRAINT "jobs_progress_range" CHECK ("jobs"."progress" >= 0 AND "jobs"."progress" <= 1)
);
--> statement-breakpoint
CREATE TABLE "nodes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"device_id" text NOT NULL,
	"name" text,
	"hardware_info" jsonb,
	"supported_job_types" text[] DEFAULT '{}'::text[] NOT NULL,
	"agent_version" text,
	"device_token_hash" text,
	"is_online" boolean DEFAULT false NOT NULL,
	"last_heartbeat_at" timestamp with time zone,
	"paused_at" timestamp with time zone,
	"jobs_completed" integer DEFAULT 0 NOT NULL,
	"unenrolled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "nodes_device_token_hash_unique" UNIQUE("device_token_hash")
);
--> statement-breakpoint
ALTER TABLE "job_attempts" ADD CONSTRAINT "job_attempts_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_attempts" ADD CONSTRAINT "job_attempts_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_assigned_node_id_nodes_id_fk" FOREIGN KEY ("assigned_node_id") REFERENCES "public"."nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nodes" ADD CONSTRAINT "nodes_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "job_attempts_job_id_index" ON "job_attempts" USING btree ("job_id","started_at");--> statement-breakpoint
CREATE INDEX "job_attempts_node_id_index" ON "job_attempts" USING btree ("node_id","started_at");--> statement-breakpoint
CREATE INDEX "jobs_owner_created_index" ON "jobs" USING btree ("owner_id","created_at","sequence");--> statement-breakpoint
CREATE INDEX "jobs_owner_status_index" ON "jobs" USING btree ("owner_id","status","created_at","sequence");--> statement-breakpoint
CREATE INDEX "jobs_queue_index" ON "jobs" USING btree ("priority" DESC NULLS LAST,"created_at","sequence") WHERE "jobs"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "jobs_running_lease_expiry_index" ON "jobs" USING btree ("lease_expires_at") WHERE "jobs"."status" = 'running';--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_one_running_per_node" ON "jobs" USING btree ("assigned_node_id") WHERE "jobs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "jobs_assigned_node_finished_index" ON "jobs" USING btree ("assigned_node_id","finished_at");--> statement-breakpoint
CREATE UNIQUE INDEX "nodes_enrolled_device_id_unique" ON "nodes" USING btree ("device_id") WHERE "nodes"."unenrolled_at" IS NULL;--> statement-breakpoint
CREATE INDEX "nodes_owner_id_index" ON "nodes" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "nodes_online_last_heartbeat_index" ON "nodes" USING btree ("last_heartbeat_at") WHERE "nodes"."is_online";