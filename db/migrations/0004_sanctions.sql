CREATE TABLE "sanctions_list_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"list" text NOT NULL,
	"content_hash" text NOT NULL,
	"source" text NOT NULL,
	"entry_count" integer NOT NULL,
	"alias_count" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sanctions_entries" (
	"version_id" text NOT NULL,
	"entry_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"programs" jsonb NOT NULL,
	"dates_of_birth" jsonb NOT NULL,
	"nationalities" jsonb NOT NULL,
	"countries" jsonb NOT NULL,
	"remarks" text,
	CONSTRAINT "sanctions_entries_version_id_entry_id_pk" PRIMARY KEY("version_id","entry_id")
);
--> statement-breakpoint
CREATE TABLE "sanctions_aliases" (
	"version_id" text NOT NULL,
	"entry_id" text NOT NULL,
	"alias_id" text NOT NULL,
	"alias_type" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "sanctions_aliases_version_id_alias_id_pk" PRIMARY KEY("version_id","alias_id")
);
--> statement-breakpoint
CREATE TABLE "screening_results" (
	"id" text PRIMARY KEY NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"result" text NOT NULL,
	"list_versions" jsonb NOT NULL,
	"evidence" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sanctions_entries" ADD CONSTRAINT "sanctions_entries_version_id_sanctions_list_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."sanctions_list_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sanctions_aliases" ADD CONSTRAINT "sanctions_aliases_version_id_sanctions_list_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."sanctions_list_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sanctions_list_versions_hash_idx" ON "sanctions_list_versions" USING btree ("list","content_hash");--> statement-breakpoint
CREATE INDEX "sanctions_aliases_entry_idx" ON "sanctions_aliases" USING btree ("version_id","entry_id");--> statement-breakpoint
CREATE INDEX "screening_results_subject_idx" ON "screening_results" USING btree ("subject_type","subject_id","created_at");