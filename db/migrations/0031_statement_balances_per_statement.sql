ALTER TABLE "statement_balances" DROP CONSTRAINT "statement_balances_day";--> statement-breakpoint
ALTER TABLE "statement_balances" ADD COLUMN "statement_created_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "statement_balances_day_idx" ON "statement_balances" USING btree ("account","currency","balance_date");--> statement-breakpoint
ALTER TABLE "statement_balances" ADD CONSTRAINT "statement_balances_statement_day" UNIQUE("statement_id","account","currency","balance_date");