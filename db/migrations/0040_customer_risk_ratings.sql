CREATE TABLE "customer_risk_rating_history" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"previous_rating" text,
	"rating" text NOT NULL,
	"computed_rating" text NOT NULL,
	"score" integer NOT NULL,
	"reasons" jsonb NOT NULL,
	"override" jsonb,
	"cause" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_risk_ratings" (
	"customer_id" text PRIMARY KEY NOT NULL,
	"rating" text NOT NULL,
	"computed_rating" text NOT NULL,
	"score" integer NOT NULL,
	"reasons" jsonb NOT NULL,
	"override" jsonb,
	"reviewed_at" timestamp with time zone,
	"computed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_risk_rating_history" ADD CONSTRAINT "customer_risk_rating_history_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_risk_ratings" ADD CONSTRAINT "customer_risk_ratings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_risk_rating_history_customer_idx" ON "customer_risk_rating_history" USING btree ("customer_id","created_at");--> statement-breakpoint
-- Hand-written: a rating's history is append-only, like the audit log.
CREATE OR REPLACE FUNCTION customer_risk_rating_history_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'customer_risk_rating_history is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER customer_risk_rating_history_append_only BEFORE UPDATE OR DELETE ON "customer_risk_rating_history" FOR EACH ROW EXECUTE FUNCTION customer_risk_rating_history_refuse_change();
