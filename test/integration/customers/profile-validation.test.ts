/** POST /v1/core/profile input rules (spec 2.2, decisions section 4): one bad input per rule. */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  call,
  assertError,
  assertIssue,
  assertIssues,
  gbrProfile,
  newCustomer,
  readProfile,
  serverNow,
  submitProfile,
  usaProfile,
  type Customer,
  type ProfileBody,
} from "../support";

// Rejected submissions change nothing, so one customer serves every rejection; accepted ones use
// their own customer (a PENDING profile can be resubmitted, but keep the cases independent).
let shared: Customer;
before(async () => {
  shared = await newCustomer();
});
after(async () => {
  // Nothing rejected was stored.
  const res = await readProfile(shared);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.profile, null, res.text);
});

const reject = (body: unknown) => submitProfile(shared, body);
async function accept(body: unknown) {
  const c = await newCustomer();
  const res = await submitProfile(c, body);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { status: "PENDING", kycRequired: true, nextStep: "START_KYC" });
  const read = await readProfile(c);
  assert.equal(read.status, 200, read.text);
  return read.body.profile as Record<string, any>;
}

function without(body: ProfileBody, path: string): ProfileBody {
  const copy = structuredClone(body);
  const parts = path.split(".");
  let obj: any = copy;
  for (const p of parts.slice(0, -1)) obj = obj[p];
  delete obj[parts.at(-1)!];
  return copy;
}

/** YYYY-MM-DD of `d` shifted by `years` and `days` (UTC). */
function dateOf(d: Date, years: number, days = 0): string {
  const x = new Date(Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate() + days));
  return x.toISOString().slice(0, 10);
}

describe("required fields", () => {
  for (const field of [
    "firstName",
    "lastName",
    "dateOfBirth",
    "nationality",
    "residenceCountry",
    "residenceAddress",
    "residenceAddress.addressLine1",
    "residenceAddress.city",
    "residenceAddress.country",
  ]) {
    test(`missing ${field} → 400 validation.fieldMissing on ${field}`, async () => {
      assertIssue(await reject(without(usaProfile(), field)), field, "validation.fieldMissing");
    });
  }

  test("optional fields may be left out (middleNames, gender, placeOfBirth, addressLine2, postalCode)", async () => {
    const body = without(usaProfile(), "residenceAddress.postalCode");
    const echoed = await accept(body);
    assert.equal(echoed.middleNames, undefined);
    assert.equal(echoed.placeOfBirth, undefined);
  });

  test("an empty body lists every missing required field", async () => {
    assertIssues(await reject({}), "validation.fieldMissing", [
      { field: "firstName", code: "validation.fieldMissing" },
      { field: "lastName", code: "validation.fieldMissing" },
      { field: "dateOfBirth", code: "validation.fieldMissing" },
      { field: "nationality", code: "validation.fieldMissing" },
      { field: "residenceCountry", code: "validation.fieldMissing" },
      { field: "residenceAddress", code: "validation.fieldMissing" },
    ]);
  });
});

describe("names", () => {
  test("a Cyrillic first name → 400 validation.fieldFormatInvalid on firstName", async () => {
    assertIssue(await reject(usaProfile({ firstName: "Иван" })), "firstName", "validation.fieldFormatInvalid");
  });

  test("a CJK last name → 400 validation.fieldFormatInvalid on lastName", async () => {
    assertIssue(await reject(usaProfile({ lastName: "王" })), "lastName", "validation.fieldFormatInvalid");
  });

  test("digits in a name → 400 validation.fieldFormatInvalid", async () => {
    assertIssue(await reject(usaProfile({ firstName: "Ana1" })), "firstName", "validation.fieldFormatInvalid");
  });

  test('Latin names with diacritics, hyphens and apostrophes are accepted: "José Núñez-García", "Zoë O\'Brien"', async () => {
    const jose = await accept(usaProfile({ firstName: "José", lastName: "Núñez-García" }));
    assert.equal(jose.firstName, "José");
    assert.equal(jose.lastName, "Núñez-García");
    const zoe = await accept(usaProfile({ firstName: "Zoë", lastName: "O'Brien" }));
    assert.equal(zoe.firstName, "Zoë");
    assert.equal(zoe.lastName, "O'Brien");
  });

  test("decomposed diacritics (NFD combining marks) are accepted", async () => {
    const echoed = await accept(usaProfile({ firstName: "Jose\u0301" }));
    assert.equal(echoed.firstName.normalize("NFC"), "José");
  });

  test("middleNames with a bad element → 400 on middleNames[1]", async () => {
    assertIssue(await reject(usaProfile({ middleNames: ["María", "Иван"] })), "middleNames[1]", "validation.fieldFormatInvalid");
  });

  test("middleNames are accepted and echoed", async () => {
    const echoed = await accept(usaProfile({ middleNames: ["María", "Luisa"] }));
    assert.deepEqual(echoed.middleNames, ["María", "Luisa"]);
  });
});

describe("date of birth", () => {
  test("under 18 → 400 validation.fieldFormatInvalid on dateOfBirth with details.rule MIN_AGE_18", async () => {
    const now = await serverNow();
    const res = await reject(usaProfile({ dateOfBirth: dateOf(now, -18, 1) })); // 18 tomorrow
    const error = assertIssue(res, "dateOfBirth", "validation.fieldFormatInvalid");
    assert.equal(error.details.rule, "MIN_AGE_18");
  });

  test("a ten-year-old → MIN_AGE_18", async () => {
    const now = await serverNow();
    const error = assertIssue(await reject(usaProfile({ dateOfBirth: dateOf(now, -10) })), "dateOfBirth", "validation.fieldFormatInvalid");
    assert.equal(error.details.rule, "MIN_AGE_18");
  });

  test("exactly 18 today (server clock) is accepted", async (t) => {
    const now = await serverNow();
    if (now.getUTCMonth() === 1 && now.getUTCDate() === 29) return t.skip("29 February: no such day 18 years ago");
    const dob = dateOf(now, -18);
    const echoed = await accept(usaProfile({ dateOfBirth: dob }));
    assert.equal(echoed.dateOfBirth, dob);
  });

  for (const bad of ["12/04/1990", "1990-4-12", "19900412", "1990-04-12T00:00:00Z"]) {
    test(`bad format ${bad} → 400 validation.fieldFormatInvalid on dateOfBirth`, async () => {
      assertIssue(await reject(usaProfile({ dateOfBirth: bad })), "dateOfBirth", "validation.fieldFormatInvalid");
    });
  }

  for (const impossible of ["2001-02-30", "1990-13-01", "1990-04-31", "2001-02-29"]) {
    test(`impossible date ${impossible} → 400 validation.fieldFormatInvalid on dateOfBirth`, async () => {
      assertIssue(await reject(usaProfile({ dateOfBirth: impossible })), "dateOfBirth", "validation.fieldFormatInvalid");
    });
  }

  test("29 February of a leap year is a real date", async () => {
    assert.equal((await accept(usaProfile({ dateOfBirth: "2000-02-29" }))).dateOfBirth, "2000-02-29");
  });
});

describe("countries", () => {
  test("unknown alpha-3 XYZ → 400 validation.fieldFormatInvalid on nationality", async () => {
    assertIssue(await reject(usaProfile({ nationality: "XYZ" })), "nationality", "validation.fieldFormatInvalid");
  });

  test("alpha-2 US given → 400 validation.fieldFormatInvalid on nationality", async () => {
    assertIssue(await reject(usaProfile({ nationality: "US" })), "nationality", "validation.fieldFormatInvalid");
  });

  test("alpha-2 in the address → 400 validation.fieldFormatInvalid on residenceAddress.country", async () => {
    const body = usaProfile();
    body.residenceAddress.country = "US";
    assertIssue(await reject(body), "residenceAddress.country", "validation.fieldFormatInvalid");
  });

  test("lower-case alpha-3 → 400 validation.fieldFormatInvalid on residenceCountry", async () => {
    assertIssue(await reject(usaProfile({ residenceCountry: "usa" })), "residenceCountry", "validation.fieldFormatInvalid");
  });

  for (const nationality of ["IRN", "CUB", "PRK", "SYR"]) {
    test(`sanctioned nationality ${nationality} → 400 validation.nationalityNotAccepted on nationality`, async () => {
      assertIssue(await reject(usaProfile({ nationality })), "nationality", "validation.nationalityNotAccepted");
    });
  }

  test("a foreign (non-sanctioned) nationality living in an accepted country is accepted", async () => {
    assert.equal((await accept(gbrProfile({ nationality: "BRA" }))).nationality, "BRA");
  });

  test("residence BRA → 400 validation.residenceCountryNotAccepted on residenceCountry", async () => {
    const body = usaProfile({ residenceCountry: "BRA", residenceAddress: { addressLine1: "Rua 1", city: "São Paulo", region: "SP", country: "BRA" } });
    assertIssue(await reject(body), "residenceCountry", "validation.residenceCountryNotAccepted");
  });

  test("residenceCountry ≠ residenceAddress.country → 400 validation.fieldInvalid on residenceAddress.country", async () => {
    const body = gbrProfile({ residenceCountry: "FRA" });
    assertIssue(await reject(body), "residenceAddress.country", "validation.fieldInvalid");
  });

  for (const country of ["USA", "CAN", "AUS"]) {
    test(`region missing for ${country} residence → 400 validation.fieldMissing on residenceAddress.region`, async () => {
      const body = usaProfile({ residenceCountry: country, residenceAddress: { addressLine1: "1 Main Street", city: "Somewhere", country } });
      assertIssue(await reject(body), "residenceAddress.region", "validation.fieldMissing");
    });
  }

  test("region is not needed for GBR", async () => {
    const echoed = await accept(gbrProfile());
    assert.equal(echoed.residenceAddress.region, undefined);
    assert.equal(echoed.residenceCountry, "GBR");
  });
});

describe("structure", () => {
  test("placeOfBirth with only a city → 400 validation.fieldMissing on placeOfBirth.country", async () => {
    assertIssue(await reject(usaProfile({ placeOfBirth: { city: "Lyon" } })), "placeOfBirth.country", "validation.fieldMissing");
  });

  test("placeOfBirth with only a country → 400 validation.fieldMissing on placeOfBirth.city", async () => {
    assertIssue(await reject(usaProfile({ placeOfBirth: { country: "FRA" } })), "placeOfBirth.city", "validation.fieldMissing");
  });

  test("a complete placeOfBirth and gender are accepted and echoed", async () => {
    const echoed = await accept(usaProfile({ placeOfBirth: { city: "Lyon", country: "FRA" }, gender: "FEMALE" }));
    assert.deepEqual(echoed.placeOfBirth, { city: "Lyon", country: "FRA" });
    assert.equal(echoed.gender, "FEMALE");
  });

  test("an unknown gender → 400 validation.fieldInvalid on gender", async () => {
    assertIssue(await reject(usaProfile({ gender: "OTHER" })), "gender", "validation.fieldInvalid");
  });

  test("an unknown top-level field → 400 with issue validation.fieldUnknown on that field", async () => {
    // The summary code is validation.fieldInvalid (spec 7 summary codes); the issue names the field.
    assertIssues(await reject(usaProfile({ customerId: "cus_123" })), "validation.fieldInvalid", [{ field: "customerId", code: "validation.fieldUnknown" }]);
  });

  test("an unknown address field → validation.fieldUnknown on residenceAddress.<name>", async () => {
    const body = usaProfile();
    body.residenceAddress.street = "Main";
    assertIssues(await reject(body), "validation.fieldInvalid", [{ field: "residenceAddress.street", code: "validation.fieldUnknown" }]);
  });

  test("aliases residentialAddress, line1, line2 are accepted and echoed as residenceAddress, addressLine1, addressLine2", async () => {
    const { residenceAddress: _, ...rest } = gbrProfile();
    const body = { ...rest, residentialAddress: { line1: "221B Baker Street", line2: "Flat 2", city: "London", postalCode: "NW1 6XE", country: "GBR" } };
    const echoed = await accept(body);
    assert.deepEqual(echoed.residenceAddress, {
      addressLine1: "221B Baker Street",
      addressLine2: "Flat 2",
      city: "London",
      postalCode: "NW1 6XE",
      country: "GBR",
    });
    assert.equal(echoed.residentialAddress, undefined);
  });

  test("not JSON → 400 validation.bodyMalformed", async () => {
    const res = await call("POST", "/v1/core/profile", { token: shared.token, rawBody: "{not json", headers: { "content-type": "application/json" } });
    assertError(res, 400, "validation.bodyMalformed");
  });

  test("a wrong content type → 415 validation.contentTypeUnsupported", async () => {
    const res = await call("POST", "/v1/core/profile", {
      token: shared.token,
      rawBody: JSON.stringify(usaProfile()),
      headers: { "content-type": "text/plain" },
    });
    assertError(res, 415, "validation.contentTypeUnsupported");
  });
});
