-- Issue 19: customers.identity_key is now built with the new matching form (lib/screening/names.ts);
-- keys stored before it folded letters such as "ł", "ø" or "ß" differently, so a new profile of the
-- same person would not be linked. One walk recomputes them (customers.recomputeIdentityKeys, in id
-- batches). A fresh database has no customer: the job ends at once.
INSERT INTO "jobs" ("id", "kind", "payload", "state", "run_at", "attempts", "max_attempts", "dedupe_key", "created_at") VALUES
  ('job_identitykeymatchingform2', 'customers.recomputeIdentityKeys', '{"afterId":null}', 'pending', now(), 0, 25, 'customers.recomputeIdentityKeys:matching-form-2:start', now())
ON CONFLICT DO NOTHING;
