CREATE TABLE "payment_status_records" (
	"id" text PRIMARY KEY NOT NULL,
	"end_to_end_id" text NOT NULL,
	"status" text NOT NULL,
	"reason_code" text,
	"transfer_id" text NOT NULL,
	"report_message_id" text NOT NULL,
	"imported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_file_items" (
	"id" text PRIMARY KEY NOT NULL,
	"payout_file_id" text NOT NULL,
	"transfer_id" text NOT NULL,
	"amount" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_files" (
	"id" text PRIMARY KEY NOT NULL,
	"bank_id" text NOT NULL,
	"currency" text NOT NULL,
	"partner_id" text,
	"transaction_count" integer NOT NULL,
	"control_sum" text NOT NULL,
	"xml_encrypted" text NOT NULL,
	"file_name" text NOT NULL,
	"written_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payout_file_items" ADD CONSTRAINT "payout_file_items_payout_file_id_payout_files_id_fk" FOREIGN KEY ("payout_file_id") REFERENCES "public"."payout_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_status_records_status_idx" ON "payment_status_records" USING btree ("end_to_end_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_file_items_transfer_idx" ON "payout_file_items" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "payout_file_items_file_idx" ON "payout_file_items" USING btree ("payout_file_id");--> statement-breakpoint
CREATE INDEX "payout_files_created_idx" ON "payout_files" USING btree ("created_at");