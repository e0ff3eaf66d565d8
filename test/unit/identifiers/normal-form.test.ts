/**
 * The normal form identifiers are compared in (lib/identity/identifiers/normal-form.ts), on spellings a
 * customer or an evader types: one address, postal code, phone number or mailbox written several
 * ways is one key; different ones stay different.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  addressKey,
  identifierMatchKey,
  normalAddressLine,
  normalEmail,
  normalPhone,
  normalPostalCode,
  searchMatchKey,
} from "@/lib/identity/identifiers/normal-form";

const same = (xs: string[], fold: (x: string) => string | null) => {
  const keys = new Set(xs.map(fold));
  assert.equal(keys.size, 1, `${JSON.stringify(xs)} → ${JSON.stringify([...keys])}`);
};

test("US addresses: case, punctuation, spacing, street types (USPS Publication 28) and unit designators folded", () => {
  same(["12 Harbour Road", "12 Harbour Rd.", "12 HARBOUR RD", " 12  harbour-road ", "12 Harbor Rd"], (l) => normalAddressLine(l, "USA"));
  same(
    ["100 North Congress Avenue, Suite 4", "100 N. Congress Ave Ste 4", "100 n congress av #4", "100 North Congress Av. Apt. #4", "100 N Congress Ave Unit 4"],
    (l) => normalAddressLine(l, "USA"),
  );
  assert.notEqual(normalAddressLine("12 Harbour Rd", "USA"), normalAddressLine("14 Harbour Rd", "USA"));
  assert.notEqual(normalAddressLine("12 Harbour Rd Apt 4", "USA"), normalAddressLine("12 Harbour Rd Apt 5", "USA"));
});

test("French and Spanish addresses: their street types, unit words, accents and articles", () => {
  same(["12, Avenue des Champs-Élysées", "12 av. des Champs Elysees", "12 AVENUE CHAMPS ELYSEES"], (l) => normalAddressLine(l, "FRA"));
  same(["5 boulevard Saint-Germain, bâtiment B", "5 Bd St Germain Bat. B", "5 BLVD SAINT GERMAIN BAT B"], (l) => normalAddressLine(l, "FRA"));
  same(["Calle Mayor, nº 5, piso 2", "C/ Mayor 5 Piso 2", "CL MAYOR N 5 PLANTA 2", "calle de Mayor 5, planta 2"], (l) => normalAddressLine(l, "ESP"));
  same(["Avenida de la Constitución 20", "Avda. Constitucion 20", "AV CONSTITUCION 20"], (l) => normalAddressLine(l, "ESP"));
});

test("postal codes per country; the address key joins country, postal code and both lines", () => {
  assert.deepEqual(
    [normalPostalCode("78701-4212", "USA"), normalPostalCode("78 701", "USA"), normalPostalCode("8001", "ESP"), normalPostalCode("75008", "FRA")],
    ["78701", "78701", "08001", "75008"],
  );
  assert.deepEqual(
    [normalPostalCode("sw1a 1aa", "GBR"), normalPostalCode("K1A-0B1", "CAN"), normalPostalCode("1012 ab", "NLD")],
    ["SW1A1AA", "K1A0B1", "1012AB"],
  );
  const key = addressKey({ addressLine1: "12 Harbour Rd.", addressLine2: "Apartment 4", postalCode: "78701-4212", country: "USA" });
  assert.equal(key, addressKey({ addressLine1: "12 HARBOUR ROAD #4", postalCode: "78701", country: "USA" }));
  assert.notEqual(key, addressKey({ addressLine1: "12 Harbour Road #4", postalCode: "78702", country: "USA" }));
  assert.equal(addressKey({ addressLine1: " ,. ", country: "USA" }), null);
});

test("phones in E.164 (libphonenumber-js); e-mails case-folded, with Gmail's dots and plus tags and googlemail.com folded", () => {
  same(["+1 (415) 555-0123", "+14155550123", "+1.415.555.0123"], (p) => normalPhone(p));
  assert.equal(normalPhone("(415) 555-0123", "US"), "+14155550123");
  assert.equal(normalPhone("06 12 34 56 78", "FR"), "+33612345678");
  assert.equal(normalPhone("12345"), null);
  same(["Jane.Doe@gmail.com", "janedoe+remit@gmail.com", "j.a.n.e.d.o.e@GoogleMail.com"], normalEmail);
  same(["Jane.Doe+x@Outlook.com", "jane.doe@outlook.com"], normalEmail);
  // Elsewhere a dot or a plus tag may name another mailbox: only the case is folded.
  assert.notEqual(normalEmail("jane.doe@example.com"), normalEmail("janedoe@example.com"));
  assert.notEqual(normalEmail("jane+a@example.com"), normalEmail("jane@example.com"));
  assert.equal(normalEmail("Jane.Doe@Example.com"), "jane.doe@example.com");
  assert.equal(identifierMatchKey({ type: "EMAIL", value: "jane.doe+1@gmail.com" }), "janedoe@gmail.com");
  assert.deepEqual(
    [searchMatchKey("JaneDoe@gmail.com"), searchMatchKey("+1 415 555 0123"), searchMatchKey("Rivera")],
    ["janedoe@gmail.com", "+14155550123", null],
  );
});
