CREATE TABLE "operator_reset_links" (
	"id" text PRIMARY KEY NOT NULL,
	"operator_id" text NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proposals" (
	"id" text PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"summary" text NOT NULL,
	"reason" text NOT NULL,
	"state" text NOT NULL,
	"proposed_by" text NOT NULL,
	"proposed_by_email" text NOT NULL,
	"lapses_at" timestamp with time zone NOT NULL,
	"decided_by" text,
	"decided_by_email" text,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_enrolled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "recovery_codes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "password_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "session_epoch" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "operator_reset_links" ADD CONSTRAINT "operator_reset_links_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "operator_reset_links_token_idx" ON "operator_reset_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "operator_reset_links_operator_idx" ON "operator_reset_links" USING btree ("operator_id");--> statement-breakpoint
CREATE UNIQUE INDEX "proposals_open_subject" ON "proposals" USING btree ("action","subject_type","subject_id") WHERE "proposals"."state" = 'PROPOSED';--> statement-breakpoint
CREATE INDEX "proposals_state_idx" ON "proposals" USING btree ("state","created_at");