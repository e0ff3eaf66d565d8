ALTER TABLE "sanctions_entries" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "sanctions_aliases" ADD COLUMN "quality" text;--> statement-breakpoint
-- Issue 19: names are now folded to one matching form (lib/screening/names.ts: NFKC, default-ignorable
-- code points removed, confusables and other scripts to Latin). Subjects stored before it are
-- rescreened once with the new form: the same batches as a new list version (sanctions.rescreen),
-- under a pseudo list version that names the form. A fresh database has no subject: the jobs end at once.
INSERT INTO "jobs" ("id", "kind", "payload", "state", "run_at", "attempts", "max_attempts", "dedupe_key", "created_at") VALUES
  ('job_matchingform2customer', 'sanctions.rescreen', '{"listVersionId":"matching-form-2","subjectType":"customer","afterId":null}', 'pending', now(), 0, 25, 'sanctions.rescreen:matching-form-2:customer:start', now()),
  ('job_matchingform2beneficiary', 'sanctions.rescreen', '{"listVersionId":"matching-form-2","subjectType":"beneficiary","afterId":null}', 'pending', now(), 0, 25, 'sanctions.rescreen:matching-form-2:beneficiary:start', now())
ON CONFLICT DO NOTHING;
