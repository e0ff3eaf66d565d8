ALTER TABLE "kyc_photos" ADD COLUMN "kind" text DEFAULT 'DOCUMENT' NOT NULL;--> statement-breakpoint
ALTER TABLE "kyc_photos" DROP CONSTRAINT "kyc_photos_pkey";--> statement-breakpoint
ALTER TABLE "kyc_photos" ADD CONSTRAINT "kyc_photos_pkey" PRIMARY KEY("kyc_session_id","kind");--> statement-breakpoint
ALTER TABLE "kyc_sessions" ADD COLUMN "verification" jsonb;--> statement-breakpoint
ALTER TABLE "kyc_sessions" ADD COLUMN "vendor_check_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "kyc_sessions_vendor_check_idx" ON "kyc_sessions" USING btree ("vendor_check_id");
