CREATE TABLE "customer_flags" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"kind" text NOT NULL,
	"beneficiary_id" text NOT NULL,
	"case_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "screening_cases" (
	"id" text PRIMARY KEY NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"state" text NOT NULL,
	"entries" jsonb NOT NULL,
	"evidence" jsonb NOT NULL,
	"held_transfer_ids" jsonb NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"decided_by_email" text,
	"decision_reason" text,
	"blocking_report_due_on" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "customer_flags_key" ON "customer_flags" USING btree ("customer_id","kind","beneficiary_id");--> statement-breakpoint
CREATE UNIQUE INDEX "screening_cases_open_subject" ON "screening_cases" USING btree ("subject_type","subject_id") WHERE "screening_cases"."state" = 'OPEN';--> statement-breakpoint
CREATE INDEX "screening_cases_subject_idx" ON "screening_cases" USING btree ("subject_type","subject_id");--> statement-breakpoint
CREATE INDEX "screening_cases_state_idx" ON "screening_cases" USING btree ("state","created_at");