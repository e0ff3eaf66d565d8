CREATE SEQUENCE "public"."service_quote_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "partners" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"pricing_mode" text DEFAULT 'SERVICE_PRICED' NOT NULL,
	"jwks" jsonb DEFAULT '{"keys":[]}'::jsonb NOT NULL,
	"webhook_url" text,
	"webhook_secret" text,
	"return_origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"deep_link_base" text,
	"highest_quote_seq" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"kyc_status" text DEFAULT 'NOT_STARTED' NOT NULL,
	"status_operational_hint" text,
	"remediation_hint" text,
	"profile" jsonb,
	"identity_key" text,
	"preferred_language" text,
	"screening_result" text,
	"linked_customer_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"password_hash" text,
	"event_sequence" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_identifiers" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"type" text NOT NULL,
	"value" text NOT NULL,
	"verified_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registrations" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"identifier" text NOT NULL,
	"identifier_type" text NOT NULL,
	"state" text NOT NULL,
	"otp_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "otps" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"identifier" text NOT NULL,
	"purpose" text NOT NULL,
	"code_hash" text,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "otp_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"identifier" text NOT NULL,
	"purpose" text NOT NULL,
	"otp" text,
	"message" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"identifier" text NOT NULL,
	"subscription_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "failure_events" (
	"id" text PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"family_id" text NOT NULL,
	"access_token_hash" text NOT NULL,
	"refresh_token_hash" text NOT NULL,
	"access_expires_at" timestamp with time zone NOT NULL,
	"refresh_expires_at" timestamp with time zone NOT NULL,
	"state" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_nonces" (
	"device_id" text NOT NULL,
	"nonce" text NOT NULL,
	"used_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_registrations" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"challenge" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"kid" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"device_name" text,
	"status" text NOT NULL,
	"registered_at" timestamp with time zone NOT NULL,
	"deactivated_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 25 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"dedupe_key" text,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"sequence" bigint NOT NULL,
	"event_type" text NOT NULL,
	"body" jsonb NOT NULL,
	"delivery_state" text DEFAULT 'pending' NOT NULL,
	"delivered_at" timestamp with time zone,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"url" text NOT NULL,
	"attempted_at" timestamp with time zone NOT NULL,
	"status_code" integer,
	"latency_ms" integer NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"state" text NOT NULL,
	"locked_until" timestamp with time zone NOT NULL,
	"response_status" integer,
	"response_body" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
CREATE TABLE "kyc_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"purpose" text NOT NULL,
	"state" text NOT NULL,
	"locale" text NOT NULL,
	"capture" jsonb,
	"outcome" text,
	"opened_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webview_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"session_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "beneficiaries" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"date_of_birth" text,
	"nationality" text,
	"country_of_residence" text NOT NULL,
	"relationship_to_customer" text NOT NULL,
	"state" text NOT NULL,
	"screening_result" text,
	"last_used_at" timestamp with time zone,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_methods" (
	"id" text PRIMARY KEY NOT NULL,
	"beneficiary_id" text NOT NULL,
	"method_type" text NOT NULL,
	"corridor" text NOT NULL,
	"destination_identifier_encrypted" text NOT NULL,
	"destination_identifier_masked" text NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"added_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disclosures" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"quote_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"version" text NOT NULL,
	"language" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"beneficiary_id" text NOT NULL,
	"pricing_mode" text NOT NULL,
	"jti" text NOT NULL,
	"quote_seq" bigint NOT NULL,
	"corridor" text NOT NULL,
	"corridor_data_version" text NOT NULL,
	"payout_method" text NOT NULL,
	"corridor_type" text NOT NULL,
	"origin_amount" text NOT NULL,
	"origin_currency" text NOT NULL,
	"destination_amount" text NOT NULL,
	"destination_currency" text NOT NULL,
	"fx_rate" text NOT NULL,
	"principal_fee" text NOT NULL,
	"partner_fee" text NOT NULL,
	"total_customer_cost" text NOT NULL,
	"signed_quote" text NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"transfer_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "funding_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"transfer_id" text NOT NULL,
	"state" text NOT NULL,
	"method" text,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transfer_state_history" (
	"id" text PRIMARY KEY NOT NULL,
	"transfer_id" text NOT NULL,
	"seq" integer NOT NULL,
	"state" text NOT NULL,
	"reason_code" text NOT NULL,
	"transitioned_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"quote_id" text NOT NULL,
	"beneficiary_id" text NOT NULL,
	"state" text NOT NULL,
	"prior_state" text,
	"state_changed_at" timestamp with time zone NOT NULL,
	"origin_amount" text NOT NULL,
	"origin_currency" text NOT NULL,
	"destination_amount" text NOT NULL,
	"destination_currency" text NOT NULL,
	"fx_rate" text NOT NULL,
	"principal_fee" text NOT NULL,
	"partner_fee" text NOT NULL,
	"total_customer_cost" text NOT NULL,
	"corridor" text NOT NULL,
	"payout_method" text NOT NULL,
	"purpose_of_transfer" text NOT NULL,
	"payout_method_id" text,
	"submitted_at" timestamp with time zone,
	"fast_check_expected_by" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"challenge" text,
	"challenge_expires_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"cancellation" jsonb,
	"refund" jsonb,
	"rejection_reason" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"private_jwk" jsonb NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" text PRIMARY KEY NOT NULL,
	"operator_id" text NOT NULL,
	"operator_email" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"reason" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operators" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"password_hash" text NOT NULL,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partner_api_keys" ADD CONSTRAINT "partner_api_keys_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_identifiers" ADD CONSTRAINT "login_identifiers_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_identifiers" ADD CONSTRAINT "login_identifiers_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_registrations" ADD CONSTRAINT "device_registrations_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_sessions" ADD CONSTRAINT "kyc_sessions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_sessions" ADD CONSTRAINT "kyc_sessions_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "beneficiaries" ADD CONSTRAINT "beneficiaries_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_methods" ADD CONSTRAINT "payout_methods_beneficiary_id_beneficiaries_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."beneficiaries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "partner_api_keys_hash_idx" ON "partner_api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "partner_api_keys_partner_idx" ON "partner_api_keys" USING btree ("partner_id");--> statement-breakpoint
CREATE INDEX "customers_identity_key_idx" ON "customers" USING btree ("identity_key");--> statement-breakpoint
CREATE INDEX "subscriptions_customer_idx" ON "subscriptions" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "subscriptions_partner_idx" ON "subscriptions" USING btree ("partner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "login_identifiers_partner_value_idx" ON "login_identifiers" USING btree ("partner_id","value");--> statement-breakpoint
CREATE INDEX "login_identifiers_subscription_idx" ON "login_identifiers" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "otps_lookup_idx" ON "otps" USING btree ("partner_id","identifier","purpose","created_at");--> statement-breakpoint
CREATE INDEX "otp_outbox_lookup_idx" ON "otp_outbox" USING btree ("partner_id","identifier","created_at");--> statement-breakpoint
CREATE INDEX "failure_events_scope_idx" ON "failure_events" USING btree ("scope","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_access_hash_idx" ON "sessions" USING btree ("access_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_refresh_hash_idx" ON "sessions" USING btree ("refresh_token_hash");--> statement-breakpoint
CREATE INDEX "sessions_family_idx" ON "sessions" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "sessions_subscription_idx" ON "sessions" USING btree ("subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_nonces_idx" ON "device_nonces" USING btree ("device_id","nonce");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_active_kid_idx" ON "devices" USING btree ("kid") WHERE status = 'ACTIVE';--> statement-breakpoint
CREATE INDEX "devices_kid_idx" ON "devices" USING btree ("kid");--> statement-breakpoint
CREATE INDEX "devices_subscription_idx" ON "devices" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("state","run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_dedupe_idx" ON "jobs" USING btree ("dedupe_key") WHERE state in ('pending', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX "events_subscription_sequence_idx" ON "events" USING btree ("subscription_id","sequence");--> statement-breakpoint
CREATE INDEX "events_pending_idx" ON "events" USING btree ("subscription_id","delivery_state","sequence");--> statement-breakpoint
CREATE INDEX "events_partner_idx" ON "events" USING btree ("partner_id","occurred_at");--> statement-breakpoint
CREATE INDEX "webhook_attempts_event_idx" ON "webhook_attempts" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhook_attempts_partner_idx" ON "webhook_attempts" USING btree ("partner_id","attempted_at");--> statement-breakpoint
CREATE INDEX "kyc_sessions_customer_idx" ON "kyc_sessions" USING btree ("customer_id","state");--> statement-breakpoint
CREATE INDEX "webview_tokens_session_idx" ON "webview_tokens" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "beneficiaries_list_idx" ON "beneficiaries" USING btree ("subscription_id","last_used_at","created_at");--> statement-breakpoint
CREATE INDEX "payout_methods_beneficiary_idx" ON "payout_methods" USING btree ("beneficiary_id");--> statement-breakpoint
CREATE INDEX "disclosures_quote_idx" ON "disclosures" USING btree ("quote_id");--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_jti_idx" ON "quotes" USING btree ("jti");--> statement-breakpoint
CREATE INDEX "quotes_subscription_idx" ON "quotes" USING btree ("subscription_id","created_at");--> statement-breakpoint
CREATE INDEX "funding_sessions_transfer_idx" ON "funding_sessions" USING btree ("transfer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "transfer_state_history_seq_idx" ON "transfer_state_history" USING btree ("transfer_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_quote_idx" ON "transfers" USING btree ("quote_id");--> statement-breakpoint
CREATE INDEX "transfers_subscription_idx" ON "transfers" USING btree ("subscription_id","created_at");--> statement-breakpoint
CREATE INDEX "transfers_state_idx" ON "transfers" USING btree ("state");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE UNIQUE INDEX "operators_email_idx" ON "operators" USING btree ("email");