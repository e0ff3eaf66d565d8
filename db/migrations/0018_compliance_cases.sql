CREATE TABLE "compliance_alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"case_id" text,
	"customer_id" text NOT NULL,
	"kind" text NOT NULL,
	"shadow" boolean DEFAULT false NOT NULL,
	"transfer_id" text,
	"beneficiary_id" text,
	"screening_case_id" text,
	"evaluation_id" text,
	"summary" text NOT NULL,
	"raised_by" text NOT NULL,
	"raised_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "compliance_case_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"case_id" text NOT NULL,
	"author_id" text NOT NULL,
	"author_email" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "compliance_cases" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"state" text NOT NULL,
	"outcome" text,
	"assignee_id" text,
	"assignee_email" text,
	"detected_at" timestamp with time zone NOT NULL,
	"due_on" text NOT NULL,
	"narrative" text,
	"closed_at" timestamp with time zone,
	"closed_by" text,
	"closed_by_email" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_risk_flags" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"flag" text NOT NULL,
	"case_id" text,
	"set_by_email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "suspicious_activity_reports" (
	"id" text PRIMARY KEY NOT NULL,
	"case_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"status" text NOT NULL,
	"subject" jsonb NOT NULL,
	"amounts" jsonb NOT NULL,
	"transfer_ids" jsonb NOT NULL,
	"activity_from" timestamp with time zone NOT NULL,
	"activity_to" timestamp with time zone NOT NULL,
	"typologies" jsonb NOT NULL,
	"narrative" text NOT NULL,
	"detected_at" timestamp with time zone NOT NULL,
	"due_on" text NOT NULL,
	"authority_reference" text,
	"filed_at" timestamp with time zone,
	"filed_by_email" text,
	"drafted_by_email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "compliance_alerts" ADD CONSTRAINT "compliance_alerts_case_id_compliance_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."compliance_cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_alerts" ADD CONSTRAINT "compliance_alerts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_alerts" ADD CONSTRAINT "compliance_alerts_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_alerts" ADD CONSTRAINT "compliance_alerts_beneficiary_id_beneficiaries_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."beneficiaries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_alerts" ADD CONSTRAINT "compliance_alerts_screening_case_id_screening_cases_id_fk" FOREIGN KEY ("screening_case_id") REFERENCES "public"."screening_cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_case_notes" ADD CONSTRAINT "compliance_case_notes_case_id_compliance_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."compliance_cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_cases" ADD CONSTRAINT "compliance_cases_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compliance_cases" ADD CONSTRAINT "compliance_cases_assignee_id_operators_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_risk_flags" ADD CONSTRAINT "customer_risk_flags_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_risk_flags" ADD CONSTRAINT "customer_risk_flags_case_id_compliance_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."compliance_cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suspicious_activity_reports" ADD CONSTRAINT "suspicious_activity_reports_case_id_compliance_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."compliance_cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suspicious_activity_reports" ADD CONSTRAINT "suspicious_activity_reports_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "compliance_alerts_case_idx" ON "compliance_alerts" USING btree ("case_id","raised_at");--> statement-breakpoint
CREATE INDEX "compliance_alerts_customer_idx" ON "compliance_alerts" USING btree ("customer_id","raised_at");--> statement-breakpoint
CREATE INDEX "compliance_alerts_transfer_idx" ON "compliance_alerts" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "compliance_case_notes_case_idx" ON "compliance_case_notes" USING btree ("case_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "compliance_cases_open_customer" ON "compliance_cases" USING btree ("customer_id") WHERE "compliance_cases"."state" <> 'CLOSED';--> statement-breakpoint
CREATE INDEX "compliance_cases_customer_idx" ON "compliance_cases" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "compliance_cases_state_due_idx" ON "compliance_cases" USING btree ("state","due_on");--> statement-breakpoint
CREATE INDEX "compliance_cases_assignee_idx" ON "compliance_cases" USING btree ("assignee_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_risk_flags_key" ON "customer_risk_flags" USING btree ("customer_id","flag");--> statement-breakpoint
CREATE UNIQUE INDEX "suspicious_activity_reports_case_idx" ON "suspicious_activity_reports" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "suspicious_activity_reports_status_due_idx" ON "suspicious_activity_reports" USING btree ("status","due_on");--> statement-breakpoint
CREATE INDEX "suspicious_activity_reports_customer_idx" ON "suspicious_activity_reports" USING btree ("customer_id");--> statement-breakpoint
-- Hand-written (issue 22): notes are append-only, like the audit log.
CREATE OR REPLACE FUNCTION compliance_case_notes_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'compliance_case_notes is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER compliance_case_notes_append_only BEFORE UPDATE OR DELETE ON "compliance_case_notes" FOR EACH ROW EXECUTE FUNCTION compliance_case_notes_refuse_change();
--> statement-breakpoint
-- Suspicious-activity reports are kept (at least five years; no purge): never deleted, and a FILED report never changes.
CREATE OR REPLACE FUNCTION suspicious_activity_reports_keep() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'suspicious_activity_reports are kept: no delete';
  END IF;
  IF OLD.status = 'FILED' THEN
    RAISE EXCEPTION 'suspicious_activity_reports: a filed report does not change';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER suspicious_activity_reports_kept BEFORE UPDATE OR DELETE ON "suspicious_activity_reports" FOR EACH ROW EXECUTE FUNCTION suspicious_activity_reports_keep();
