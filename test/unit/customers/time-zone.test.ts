/** The customer's time zone from the residence address (lib/identity/customers/time-zone.ts). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { residenceAddressOf, timeZoneOfAddress } from "@/lib/identity/customers/time-zone";
import { disclosureTexts } from "@/lib/platform/i18n/disclosure-texts";
import { rightsStatement } from "@/lib/platform/i18n/consumer-rights";
import { receiptLines } from "@/lib/platform/i18n/receipt-messages";

test("a Texas address is Central time; El Paso, Texas is Mountain time", () => {
  assert.equal(timeZoneOfAddress({ country: "USA", region: "TX", city: "Austin" }), "America/Chicago");
  assert.equal(timeZoneOfAddress({ country: "USA", region: "Texas", city: "Round Rock" }), "America/Chicago");
  assert.equal(timeZoneOfAddress({ country: "USA", region: "US-TX" }), "America/Chicago");
  assert.equal(timeZoneOfAddress({ country: "USA", region: "TX", city: "El Paso" }), "America/Denver");
  assert.equal(timeZoneOfAddress({ country: "USA", region: "CA", city: "San Francisco" }), "America/Los_Angeles");
});

test("other multi-zone countries by region or city", () => {
  assert.equal(timeZoneOfAddress({ country: "BRA", region: "AM", city: "Manaus" }), "America/Manaus");
  assert.equal(timeZoneOfAddress({ country: "BRA", region: "SP", city: "São Paulo" }), "America/Sao_Paulo");
  assert.equal(timeZoneOfAddress({ country: "CAN", region: "BC", city: "Vancouver" }), "America/Vancouver");
  assert.equal(timeZoneOfAddress({ country: "AUS", region: "WA" }), "Australia/Perth");
  // A region the tables do not know does not hide a city they do.
  assert.equal(timeZoneOfAddress({ country: "MEX", region: "BC", city: "Tijuana" }), "America/Tijuana");
  assert.equal(timeZoneOfAddress({ country: "RUS", city: "Novosibirsk" }), "Asia/Novosibirsk");
});

test("a single-zone country: the country suffices", () => {
  assert.equal(timeZoneOfAddress({ country: "FRA" }), "Europe/Paris");
  assert.equal(timeZoneOfAddress({ country: "IND", city: "Nowhere in particular" }), "Asia/Kolkata");
  // Two zones with the same offsets all year count as one.
  assert.equal(timeZoneOfAddress({ country: "DEU", city: "Büsingen am Hochrhein" }), "Europe/Berlin");
});

test("unknown: UTC", () => {
  assert.equal(timeZoneOfAddress(null), "UTC");
  assert.equal(timeZoneOfAddress({}), "UTC");
  assert.equal(timeZoneOfAddress({ country: "XXX" }), "UTC");
  // A multi-zone country without a region or city we know cannot be guessed.
  assert.equal(timeZoneOfAddress({ country: "USA" }), "UTC");
  assert.equal(timeZoneOfAddress({ country: "USA", region: "ZZ", city: "Nowhere" }), "UTC");
});

test("the residence address is read from the stored profile", () => {
  const profile = { residenceAddress: { addressLine1: "100 Congress Ave", city: "Austin", region: "TX", postalCode: "78701", country: "USA" } };
  assert.equal(timeZoneOfAddress(residenceAddressOf(profile)), "America/Chicago");
  assert.equal(residenceAddressOf(null), null);
  assert.equal(residenceAddressOf({ residenceAddress: "Austin" }), null);
});

// The texts the customer reads take the zone: the reported "11:00 PM UTC" for a Texas customer.
const TEXAS = timeZoneOfAddress({ country: "USA", region: "TX", city: "Austin" });
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");
const provider = { name: "Remesas Uno", phone: null, website: null, regulator: null };

test("a disclosure writes the guarantee's end and the date available in the customer's time", () => {
  const text = disclosureTexts("en", {
    originAmount: "100.00",
    originCurrency: "USD",
    destinationAmount: "1875.00",
    destinationCurrency: "MXN",
    fees: "2.99",
    rate: "18.75",
    total: "102.99",
    expiresAt: "2026-11-28T23:00:00.000Z",
    dateAvailable: "2026-11-30T23:00:00.000Z",
    timeZone: TEXAS,
    recipientName: "Ana Lopez",
    provider,
  });
  assert.ok(plain(text).includes("This price is guaranteed until November 28, 2026 at 5:00 PM CST (UTC−06:00)."), text);
  assert.ok(plain(text).includes("by November 30, 2026 at 5:00 PM CST (UTC−06:00) if you pay now."), text);
});

test("a receipt writes when it was paid, the date available and the cancellation right in the customer's time", () => {
  const lines = receiptLines(
    {
      transferId: "trf_1",
      fundedAt: "2026-11-28T23:00:00.000Z",
      recipientName: "Ana Lopez",
      originAmount: "100.00",
      originCurrency: "USD",
      principalFee: "2.99",
      partnerFee: "0.00",
      taxes: "0.00",
      totalCustomerCost: "102.99",
      fxRate: "18.75",
      destinationAmount: "1875.00",
      destinationCurrency: "MXN",
      dateAvailable: "2026-11-29T15:00:00.000Z",
    },
    "en",
    TEXAS,
  );
  const row = (label: string) => plain(lines.find(([k]) => k === label)?.[1] ?? "");
  assert.equal(row("Paid on"), "November 28, 2026 at 5:00 PM CST (UTC−06:00)");
  assert.equal(row("Date available"), "November 29, 2026 at 9:00 AM CST (UTC−06:00)");
  const rights = plain(rightsStatement("fr", new Date("2026-11-28T23:30:00.000Z"), provider, TEXAS));
  assert.ok(rights.includes("jusqu’au 28 novembre 2026 à 17:30 UTC−06:00 (30 minutes après le paiement)"), rights);
});
