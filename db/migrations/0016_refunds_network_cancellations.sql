CREATE TABLE "network_cancellation_state_history" (
	"id" text PRIMARY KEY NOT NULL,
	"network_cancellation_id" text NOT NULL,
	"seq" integer NOT NULL,
	"state" text NOT NULL,
	"trigger" text NOT NULL,
	"transitioned_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "network_cancellations" (
	"id" text PRIMARY KEY NOT NULL,
	"transfer_id" text NOT NULL,
	"state" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"expected_by" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refund_state_history" (
	"id" text PRIMARY KEY NOT NULL,
	"refund_id" text NOT NULL,
	"seq" integer NOT NULL,
	"state" text NOT NULL,
	"trigger" text NOT NULL,
	"transitioned_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"transfer_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"state" text NOT NULL,
	"refund_method" text NOT NULL,
	"initiated_at" timestamp with time zone NOT NULL,
	"estimated_completion_by" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"bank_reference" text,
	"failure_reason" text,
	"state_changed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "network_cancellation_state_history_seq_idx" ON "network_cancellation_state_history" USING btree ("network_cancellation_id","seq");--> statement-breakpoint
CREATE INDEX "network_cancellations_transfer_idx" ON "network_cancellations" USING btree ("transfer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "network_cancellations_pending_idx" ON "network_cancellations" USING btree ("transfer_id") WHERE "network_cancellations"."state" = 'PENDING';--> statement-breakpoint
CREATE UNIQUE INDEX "refund_state_history_seq_idx" ON "refund_state_history" USING btree ("refund_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_transfer_idx" ON "refunds" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "refunds_state_idx" ON "refunds" USING btree ("state","initiated_at");--> statement-breakpoint
-- Issue 21 item 3: refunds and network cancellations leave the transfer's jsonb for their own rows
-- (and machines). Existing rows move here before the column goes; each gets one history row
-- (trigger "migrated") for the state it had. Ids derive from the transfer id: a rerun of a partial
-- copy cannot duplicate (the unique index on refunds.transfer_id would refuse it anyway).
INSERT INTO "refunds" ("id", "transfer_id", "subscription_id", "state", "refund_method", "initiated_at", "estimated_completion_by", "completed_at", "bank_reference", "failure_reason", "state_changed_at", "created_at")
SELECT 'rfd_' || substr(md5(t."id"), 1, 24), t."id", t."subscription_id", t."refund"->>'refundStatus', coalesce(t."refund"->>'refundMethod', 'ORIGINAL_PAYMENT_METHOD'),
  (t."refund"->>'refundInitiatedAt')::timestamptz, (t."refund"->>'estimatedRefundCompletionBy')::timestamptz, (t."refund"->>'refundCompletedAt')::timestamptz,
  t."refund"->>'bankReference', t."refund"->>'failureReason',
  coalesce((t."refund"->>'refundCompletedAt')::timestamptz, (t."refund"->>'refundInitiatedAt')::timestamptz), (t."refund"->>'refundInitiatedAt')::timestamptz
FROM "transfers" t WHERE t."refund" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "refund_state_history" ("id", "refund_id", "seq", "state", "trigger", "transitioned_at")
SELECT 'rfh_' || substr(md5(r."id"), 1, 24), r."id", 1, r."state", 'migrated', r."state_changed_at" FROM "refunds" r
WHERE NOT EXISTS (SELECT 1 FROM "refund_state_history" h WHERE h."refund_id" = r."id");
--> statement-breakpoint
INSERT INTO "network_cancellations" ("id", "transfer_id", "state", "requested_at", "expected_by", "resolved_at", "created_at")
SELECT 'ncx_' || substr(md5(t."id"), 1, 24), t."id", m."state", (t."cancellation"->>'cancelRequestedAt')::timestamptz,
  coalesce((t."cancellation"->>'networkCancellationExpectedBy')::timestamptz, (t."cancellation"->>'cancelRequestedAt')::timestamptz + interval '60 seconds'),
  CASE WHEN m."state" = 'PENDING' THEN NULL ELSE coalesce((t."cancellation"->>'canceledAt')::timestamptz, t."state_changed_at") END,
  (t."cancellation"->>'cancelRequestedAt')::timestamptz
FROM "transfers" t
JOIN (VALUES ('NETWORK_CANCELLATION_PENDING', 'PENDING'), ('NETWORK_CANCELLATION_SUCCESS', 'SUCCEEDED'), ('NETWORK_ALREADY_PAID', 'ALREADY_PAID'),
  ('NETWORK_IN_PROGRESS_RETRY_ALLOWED', 'RETRY_ALLOWED')) AS m("outcome", "state") ON m."outcome" = t."cancellation"->>'cancellationOutcome';
--> statement-breakpoint
INSERT INTO "network_cancellation_state_history" ("id", "network_cancellation_id", "seq", "state", "trigger", "transitioned_at")
SELECT 'nch_' || substr(md5(n."id"), 1, 24), n."id", 1, n."state", 'migrated', coalesce(n."resolved_at", n."requested_at") FROM "network_cancellations" n
WHERE NOT EXISTS (SELECT 1 FROM "network_cancellation_state_history" h WHERE h."network_cancellation_id" = n."id");
--> statement-breakpoint
-- The transfer keeps what the customer asked; the network's answer is the request row's state.
UPDATE "transfers" SET "cancellation" = "cancellation" - 'cancellationOutcome' - 'canceledAt' - 'networkCancellationExpectedBy'
WHERE "cancellation"->>'cancellationOutcome' LIKE 'NETWORK\_%';
--> statement-breakpoint
ALTER TABLE "transfers" DROP COLUMN "refund";