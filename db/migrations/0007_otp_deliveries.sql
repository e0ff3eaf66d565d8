CREATE TABLE "otp_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"channel" text NOT NULL,
	"provider" text NOT NULL,
	"recipient" text NOT NULL,
	"purpose" text NOT NULL,
	"language" text NOT NULL,
	"code_encrypted" text,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"failed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "otp_deliveries_state_idx" ON "otp_deliveries" USING btree ("state","created_at");