CREATE TABLE "marketplace_models" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"category" text NOT NULL,
	"job_types" text[] NOT NULL,
	"format" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"license" text NOT NULL,
	"source" text NOT NULL,
	"min_memory_bytes" bigint NOT NULL,
	"price_multiplier" double precision DEFAULT 1 NOT NULL,
	"is_test_model" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "marketplace_models_price_positive" CHECK ("marketplace_models"."price_multiplier" > 0)
);
--> statement-breakpoint
CREATE INDEX "marketplace_models_sha256_index" ON "marketplace_models" USING btree ("sha256");