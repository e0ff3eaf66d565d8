CREATE TABLE "journal_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"source_key" text NOT NULL,
	"kind" text NOT NULL,
	"memo" text NOT NULL,
	"transfer_id" text,
	"transfer_state_history_id" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "journal_entries_source_key" UNIQUE("source_key")
);
--> statement-breakpoint
CREATE TABLE "journal_lines" (
	"id" text PRIMARY KEY NOT NULL,
	"entry_id" text NOT NULL,
	"line_no" integer NOT NULL,
	"account_id" text NOT NULL,
	"debit_minor" bigint NOT NULL,
	"credit_minor" bigint NOT NULL,
	CONSTRAINT "journal_lines_entry_line" UNIQUE("entry_id","line_no"),
	CONSTRAINT "journal_lines_one_side" CHECK (("journal_lines"."debit_minor" > 0 and "journal_lines"."credit_minor" = 0) or ("journal_lines"."debit_minor" = 0 and "journal_lines"."credit_minor" > 0))
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"currency" text NOT NULL,
	"transfer_id" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ledger_accounts_key" UNIQUE NULLS NOT DISTINCT("code","currency","transfer_id")
);
--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "funded_from" text;--> statement-breakpoint
CREATE INDEX "journal_entries_transfer_idx" ON "journal_entries" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "journal_entries_created_idx" ON "journal_entries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "journal_lines_account_idx" ON "journal_lines" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "ledger_accounts_transfer_idx" ON "ledger_accounts" USING btree ("transfer_id");