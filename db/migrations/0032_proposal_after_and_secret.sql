ALTER TABLE "proposals" ADD COLUMN "proposed" jsonb;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "secret_for_proposer" text;