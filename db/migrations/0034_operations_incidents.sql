CREATE TABLE "operations_incidents" (
	"id" text PRIMARY KEY NOT NULL,
	"condition" text NOT NULL,
	"subject" text NOT NULL,
	"summary" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"opening_webhook_sent_at" timestamp with time zone,
	"opening_email_sent_at" timestamp with time zone,
	"resolution_webhook_sent_at" timestamp with time zone,
	"resolution_email_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "correlation_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "operations_incidents_open_idx" ON "operations_incidents" USING btree ("condition","subject") WHERE "operations_incidents"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "operations_incidents_opened_idx" ON "operations_incidents" USING btree ("opened_at");