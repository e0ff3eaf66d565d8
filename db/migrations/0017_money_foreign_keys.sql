-- Issue 21: foreign keys on the money tables. Rows written before them are checked first: a row
-- naming a parent that does not exist stops the migration here with the list of such rows
-- (table.column, row id -> missing id; the first 20 per column), instead of failing on the first
-- constraint. Repair or delete them, then start again; nothing below has been applied.
DO $$
DECLARE
  fk record;
  orphans integer;
  sample text;
  report text := '';
BEGIN
  FOR fk IN SELECT * FROM (VALUES
    ('quotes', 'partner_id', 'partners'),
    ('quotes', 'subscription_id', 'subscriptions'),
    ('quotes', 'beneficiary_id', 'beneficiaries'),
    ('funding_sessions', 'transfer_id', 'transfers'),
    ('transfer_state_history', 'transfer_id', 'transfers'),
    ('transfers', 'partner_id', 'partners'),
    ('transfers', 'subscription_id', 'subscriptions'),
    ('transfers', 'customer_id', 'customers'),
    ('transfers', 'quote_id', 'quotes'),
    ('transfers', 'beneficiary_id', 'beneficiaries'),
    ('transfers', 'payout_method_id', 'payout_methods'),
    ('journal_entries', 'transfer_id', 'transfers'),
    ('journal_entries', 'transfer_state_history_id', 'transfer_state_history'),
    ('journal_lines', 'entry_id', 'journal_entries'),
    ('journal_lines', 'account_id', 'ledger_accounts'),
    ('ledger_accounts', 'transfer_id', 'transfers'),
    ('bank_credits', 'transfer_id', 'transfers'),
    ('payment_status_records', 'transfer_id', 'transfers'),
    ('payout_file_items', 'transfer_id', 'transfers'),
    ('network_cancellation_state_history', 'network_cancellation_id', 'network_cancellations'),
    ('network_cancellations', 'transfer_id', 'transfers'),
    ('refund_state_history', 'refund_id', 'refunds'),
    ('refunds', 'transfer_id', 'transfers'),
    ('refunds', 'subscription_id', 'subscriptions')
  ) AS v(child, col, parent) LOOP
    EXECUTE format(
      'WITH o AS (SELECT c.id, c.%2$I AS missing FROM %1$I c'
      ' WHERE c.%2$I IS NOT NULL AND NOT EXISTS (SELECT 1 FROM %3$I p WHERE p.id = c.%2$I))'
      ' SELECT (SELECT count(*) FROM o),'
      ' (SELECT string_agg(f.id || '' -> '' || f.missing, '', '') FROM (SELECT * FROM o ORDER BY id LIMIT 20) f)',
      fk.child, fk.col, fk.parent) INTO orphans, sample;
    IF orphans > 0 THEN
      report := report || format(E'\n  %s.%s (%s rows without a %s row): %s%s', fk.child, fk.col, orphans, fk.parent,
        sample, CASE WHEN orphans > 20 THEN ', ...' ELSE '' END);
    END IF;
  END LOOP;
  IF report <> '' THEN
    RAISE EXCEPTION 'migration 0017_money_foreign_keys stopped: rows refer to missing parents%', report
      USING HINT = 'Repair or delete these rows, then start again; no foreign key has been added.';
  END IF;
END
$$;
--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_beneficiary_id_beneficiaries_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."beneficiaries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "funding_sessions" ADD CONSTRAINT "funding_sessions_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_state_history" ADD CONSTRAINT "transfer_state_history_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_beneficiary_id_beneficiaries_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."beneficiaries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_payout_method_id_payout_methods_id_fk" FOREIGN KEY ("payout_method_id") REFERENCES "public"."payout_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_history_fk" FOREIGN KEY ("transfer_state_history_id") REFERENCES "public"."transfer_state_history"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_credits" ADD CONSTRAINT "bank_credits_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_status_records" ADD CONSTRAINT "payment_status_records_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_file_items" ADD CONSTRAINT "payout_file_items_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_cancellation_state_history" ADD CONSTRAINT "network_cancellation_state_history_fk" FOREIGN KEY ("network_cancellation_id") REFERENCES "public"."network_cancellations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_cancellations" ADD CONSTRAINT "network_cancellations_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_state_history" ADD CONSTRAINT "refund_state_history_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;