CREATE TABLE "payment_fingerprints" (
	"user_id" uuid NOT NULL,
	"fingerprint" text NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_fingerprints_user_id_fingerprint_pk" PRIMARY KEY("user_id","fingerprint")
);
--> statement-breakpoint
ALTER TABLE "payment_fingerprints" ADD CONSTRAINT "payment_fingerprints_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_fingerprints_fingerprint_index" ON "payment_fingerprints" USING btree ("fingerprint");