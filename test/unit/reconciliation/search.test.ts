/** The bank credit search's filters: read from the query string, a bad value refused naming it. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { creditSearchOf } from "@/lib/payments/reconciliation/search";

describe("bank credit search filters", () => {
  test("values are trimmed; empty ones are no filter", () => {
    assert.deepEqual(creditSearchOf({ amount: " 102.9 ", payer: " Ana ", reference: "", from: "2026-11-01", to: "2026-11-30", state: "MATCHED" }), {
      amount: "102.9",
      payer: "Ana",
      from: "2026-11-01",
      to: "2026-11-30",
      state: "MATCHED",
    });
    assert.deepEqual(creditSearchOf({}), {});
  });

  test("a bad amount, date, range or state is 400 validation.fieldInvalid naming the field", () => {
    for (const [raw, field] of [
      [{ amount: "1,5" }, "amount"],
      [{ amount: "-3" }, "amount"],
      [{ from: "2026-13-45" }, "from"],
      [{ to: "yesterday" }, "to"],
      [{ from: "2026-11-30", to: "2026-11-01" }, "to"],
      [{ state: "LOST" }, "state"],
    ] as const) {
      assert.throws(
        () => creditSearchOf(raw),
        (e: Error & { code?: string; details?: { issues?: { field: string }[] } }) =>
          e.code === "validation.fieldInvalid" && e.details?.issues?.[0]?.field === field,
        JSON.stringify(raw),
      );
    }
  });
});
