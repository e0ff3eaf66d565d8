CREATE TABLE "ledger_periods" (
	"period" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"changed_by" text,
	"changed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "manual_journals" (
	"id" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"memo" text NOT NULL,
	"reference" text,
	"lines" jsonb NOT NULL,
	"proposed_by" text NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statement_balances" (
	"id" text PRIMARY KEY NOT NULL,
	"statement_id" text NOT NULL,
	"account" text NOT NULL,
	"ledger_account" text NOT NULL,
	"currency" text NOT NULL,
	"balance_date" text NOT NULL,
	"closing_minor" bigint NOT NULL,
	"state" text NOT NULL,
	"explanation" text,
	"explained_by" text,
	"explained_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "statement_balances_day" UNIQUE("account","currency","balance_date")
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_key";--> statement-breakpoint
ALTER TABLE "journal_entries" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "partner_id" text;--> statement-breakpoint
ALTER TABLE "ledger_periods" ADD CONSTRAINT "ledger_periods_changed_by_operators_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manual_journals" ADD CONSTRAINT "manual_journals_proposed_by_operators_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manual_journals" ADD CONSTRAINT "manual_journals_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_balances" ADD CONSTRAINT "statement_balances_explained_by_operators_id_fk" FOREIGN KEY ("explained_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "manual_journals_state_idx" ON "manual_journals" USING btree ("state","created_at");--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_key" UNIQUE NULLS NOT DISTINCT("code","currency","transfer_id","partner_id");--> statement-breakpoint
-- Issue 24 item 4: a journal entry dated in a closed month is refused here too, whatever path
-- wrote it (postEntry refuses first, with ledger.periodClosed).
CREATE FUNCTION ledger_refuse_closed_period() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM ledger_periods WHERE period = to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM') AND state = 'CLOSED') THEN
    RAISE EXCEPTION 'ledger period % is closed', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM');
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER journal_entries_open_period BEFORE INSERT ON "journal_entries" FOR EACH ROW EXECUTE FUNCTION ledger_refuse_closed_period();
