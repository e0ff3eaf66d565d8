import assert from "node:assert/strict";
import { test } from "node:test";
import { businessDayAt } from "@/lib/payments/delivery/business-calendar";

test("businessDayAt: the account's local day, rolled forward over its weekends and public holidays", () => {
  const berlin = { country: "DE", timeZone: "Europe/Berlin" };
  assert.equal(businessDayAt(berlin, new Date("2026-11-27T22:30:00Z")), "2026-11-27", "Friday 23:30 in Berlin");
  assert.equal(businessDayAt(berlin, new Date("2026-11-27T23:30:00Z")), "2026-11-30", "already Saturday in Berlin: Monday");
  assert.equal(businessDayAt(berlin, new Date("2026-12-24T23:30:00Z")), "2026-12-28", "Christmas, Boxing Day (Saturday), Sunday");
  // Mexico City: the same instant is still Friday there; 2026-11-16 is Revolution Day (third Monday of November).
  const mexico = { country: "MX", timeZone: "America/Mexico_City" };
  assert.equal(businessDayAt(mexico, new Date("2026-11-28T03:00:00Z")), "2026-11-27");
  assert.equal(businessDayAt(mexico, new Date("2026-11-14T18:00:00Z")), "2026-11-17");
});
