CREATE TABLE "reference_rate_sets" (
	"source" text NOT NULL,
	"base" text NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"rates" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reference_rate_sets_source_published_at_pk" PRIMARY KEY("source","published_at")
);
