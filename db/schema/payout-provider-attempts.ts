import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, decimalFormat, tstz } from "./columns";
import { transfers } from "./transfers";

/** ProviderAttemptState: the states its machine moves (`lib/payments/payouts/provider-attempt-state-machine.ts`). */
export const PROVIDER_ATTEMPT_STATES = [
  "WAITING_COVER",
  "QUEUED",
  "SUBMITTED",
  "PAID",
  "FAILED",
  "REJECTED",
  "REPAIRED",
  "ABANDONED",
  "LATE_PAID",
  "REVERSED",
  "RETURNED",
  "RETURN_REFUNDED",
] as const;

export type ProviderAttemptState = (typeof PROVIDER_ATTEMPT_STATES)[number];

/**
 * One try at paying a transfer through one payout provider (the bank file, the aggregator's API):
 * what was asked, what the provider answered, and how it ended. A transfer has one row per try,
 * numbered by `seq`; failover adds the next. The routed payout (lib/payments/payouts/routed.ts) moves
 * `state` through its machine (lib/payments/payouts/provider-attempt-state-machine.ts).
 */
export const payoutProviderAttempts = pgTable(
  "payout_provider_attempts",
  {
    id: text("id").primaryKey(),
    transferId: text("transfer_id")
      .notNull()
      .references(() => transfers.id),
    /** 1 for the first try, one more per failover or repaired resend. */
    seq: integer("seq").notNull(),
    /** The routing table's provider id ("bank-file", "aggregator"). */
    provider: text("provider").notNull(),
    state: text("state").$type<ProviderAttemptState>().notNull(),
    /** The destination amount the provider is asked to pay, and its currency (its prefunding is drawn in it). */
    amount: text("amount").notNull(),
    currency: text("currency").notNull(),
    /** What was sent (the destination masked: the full identifier stays in the encrypted payout method). */
    request: jsonb("request").$type<Record<string, unknown>>(),
    /** The provider's last answer (submit, status webhook, cancel), as it gave it. */
    answer: jsonb("answer").$type<Record<string, unknown>>(),
    /** TIMEOUT, PROVIDER_DOWN, the bank's ISO reason (AC01, ...), or what refused a late payment. */
    outcomeCode: text("outcome_code"),
    /** The provider's id of the payment (the aggregator's reference, the pain.001 file id). */
    providerReference: text("provider_reference"),
    createdAt: createdAt(),
    stateChangedAt: tstz("state_changed_at").notNull(),
  },
  (t) => [
    uniqueIndex("payout_provider_attempts_transfer_seq_idx").on(t.transferId, t.seq),
    // Health (24 h success, the circuit breaker) reads a provider's recent tries.
    index("payout_provider_attempts_provider_idx").on(t.provider, t.createdAt),
    // Cover: what each provider has in flight; the held payouts a top-up releases.
    index("payout_provider_attempts_state_idx").on(t.state, t.provider, t.currency),
    index("payout_provider_attempts_reference_idx").on(t.providerReference),
    decimalFormat("payout_provider_attempts_amount_format", t.amount),
  ],
);
