CREATE TABLE "kyc_photos" (
	"kyc_session_id" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "kyc_sessions" ADD COLUMN "submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "kyc_sessions" ADD COLUMN "decision_reason" text;--> statement-breakpoint
ALTER TABLE "kyc_photos" ADD CONSTRAINT "kyc_photos_kyc_session_id_kyc_sessions_id_fk" FOREIGN KEY ("kyc_session_id") REFERENCES "public"."kyc_sessions"("id") ON DELETE no action ON UPDATE no action;