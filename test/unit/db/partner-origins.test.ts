/**
 * updatePartnerSettings, the one writer behind the console's partner form and PUT
 * /v1/sandbox/partner: bad return origins are refused with field paths, and
 * nothing is stored; exact origins are stored as given.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { partners } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { createPartner } from "@/lib/partners/admin";
import { updatePartnerSettings } from "@/lib/partners/settings";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;
let partnerId: string;
const now = new Date();

before(async () => {
  ({ db, close } = await freshDb());
  partnerId = (await db.transaction((tx) => createPartner(tx, { name: "Origins test", pricingMode: "SERVICE_PRICED", now }))).id;
  await db.transaction((tx) => updatePartnerSettings(tx, partnerId, { returnOrigins: ["https://partner.example"] }, now));
});
after(() => close());

async function storedOrigins(): Promise<string[]> {
  const [row] = await db.select({ origins: partners.returnOrigins }).from(partners).where(eq(partners.id, partnerId));
  return row.origins;
}

async function refusal(returnOrigins: string[]): Promise<DomainError> {
  try {
    await db.transaction((tx) => updatePartnerSettings(tx, partnerId, { returnOrigins }, now));
  } catch (err) {
    assert.ok(err instanceof DomainError, String(err));
    return err;
  }
  assert.fail(`accepted ${JSON.stringify(returnOrigins)}`);
}

test("'*' and ';'-bearing origins are refused with returnOrigins[i] and validation.fieldFormatInvalid; nothing is stored", async () => {
  for (const bad of [["*"], ["https://ok.example", "https://a.example; script-src *"], ["https://*.example.com"], ["https://a.example/path"]]) {
    const err = await refusal(bad);
    assert.equal(err.status, 400);
    assert.equal(err.code, "validation.fieldFormatInvalid");
    const issues = (err.details as { issues: { field: string; code: string }[] }).issues;
    assert.deepEqual(
      issues.map((i) => i.field),
      [`returnOrigins[${bad.length - 1}]`],
    );
    assert.deepEqual(await storedOrigins(), ["https://partner.example"]);
  }
});

test("exact origins are stored (http://localhost only because the default mode is sandbox)", async () => {
  const origins = ["https://app.partner.example", "https://partner.example:8443", "http://localhost:3000"];
  const settings = await db.transaction((tx) => updatePartnerSettings(tx, partnerId, { returnOrigins: origins }, now));
  assert.deepEqual(settings.returnOrigins, origins);
  assert.deepEqual(await storedOrigins(), origins);
  const err = await refusal(["http://partner.example"]);
  assert.equal(err.code, "validation.fieldFormatInvalid");
});
