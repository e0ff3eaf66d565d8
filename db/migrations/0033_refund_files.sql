CREATE TABLE "refund_files" (
	"id" text PRIMARY KEY NOT NULL,
	"currency" text NOT NULL,
	"transaction_count" integer NOT NULL,
	"control_sum" text NOT NULL,
	"xml_encrypted" text NOT NULL,
	"file_name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bank_credits" ADD COLUMN "payer_account_encrypted" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "refund_file_id" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_refund_file_id_refund_files_id_fk" FOREIGN KEY ("refund_file_id") REFERENCES "public"."refund_files"("id") ON DELETE no action ON UPDATE no action;