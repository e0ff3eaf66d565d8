CREATE TABLE "prefunding_statements" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"currency" text NOT NULL,
	"reference" text NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"statement_minor" bigint NOT NULL,
	"ledger_minor" bigint NOT NULL,
	"difference_minor" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "prefunding_statements_key" UNIQUE("provider","currency","reference")
);
--> statement-breakpoint
CREATE INDEX "prefunding_statements_latest_idx" ON "prefunding_statements" USING btree ("provider","currency","as_of");