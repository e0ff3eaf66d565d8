DROP INDEX "customer_risk_flags_key";--> statement-breakpoint
ALTER TABLE "customer_risk_flags" ADD COLUMN "cleared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer_risk_flags" ADD COLUMN "cleared_by_id" text;--> statement-breakpoint
ALTER TABLE "customer_risk_flags" ADD COLUMN "cleared_by_email" text;--> statement-breakpoint
ALTER TABLE "customer_risk_flags" ADD COLUMN "clear_reason" text;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_risk_flags_standing" ON "customer_risk_flags" USING btree ("customer_id","flag") WHERE "customer_risk_flags"."cleared_at" is null;--> statement-breakpoint
CREATE INDEX "customer_risk_flags_customer_idx" ON "customer_risk_flags" USING btree ("customer_id","created_at");--> statement-breakpoint
-- Hand-written (issue 22): a risk flag's history is kept. No DELETE; the one change allowed is
-- clearing a standing flag (the four cleared_* columns, once); a cleared flag never changes again.
CREATE OR REPLACE FUNCTION customer_risk_flags_keep() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'customer_risk_flags are kept: no delete';
  END IF;
  IF OLD.cleared_at IS NOT NULL THEN
    RAISE EXCEPTION 'customer_risk_flags: a cleared flag does not change';
  END IF;
  IF NEW.id <> OLD.id OR NEW.customer_id <> OLD.customer_id OR NEW.flag <> OLD.flag OR NEW.case_id IS DISTINCT FROM OLD.case_id
     OR NEW.set_by_email <> OLD.set_by_email OR NEW.created_at <> OLD.created_at THEN
    RAISE EXCEPTION 'customer_risk_flags: only clearing changes a flag';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER customer_risk_flags_kept BEFORE UPDATE OR DELETE ON "customer_risk_flags" FOR EACH ROW EXECUTE FUNCTION customer_risk_flags_keep();
