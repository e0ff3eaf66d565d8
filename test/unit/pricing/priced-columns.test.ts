/**
 * The one mapper for the eight priced columns: the copy from quote to transfer
 * takes exactly those columns, the claim names are the spec 5.4 ones, and each amount travels
 * with its currency.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { envelopeTermsOfColumns, pricedColumnsOf, pricedMoney } from "@/lib/payments/pricing/priced-columns";

const quoteRow = {
  id: "quo_1",
  corridor: "ES-MX",
  originAmount: "100.000000",
  originCurrency: "EUR",
  destinationAmount: "2010.500000",
  destinationCurrency: "MXN",
  fxRate: "20.105000",
  principalFee: "2.990000",
  partnerFee: "1.000000",
  totalCustomerCost: "103.990000",
};

test("pricedColumnsOf copies the eight priced columns and nothing else", () => {
  const copied = pricedColumnsOf(quoteRow);
  assert.deepEqual(Object.keys(copied).sort(), [
    "destinationAmount",
    "destinationCurrency",
    "fxRate",
    "originAmount",
    "originCurrency",
    "partnerFee",
    "principalFee",
    "totalCustomerCost",
  ]);
  const { id: _id, corridor: _corridor, ...priced } = quoteRow;
  assert.deepEqual(copied, priced);
});

test("envelopeTermsOfColumns names them as the signed-quote claims", () => {
  assert.deepEqual(envelopeTermsOfColumns(quoteRow), {
    send_amount: "100.000000",
    send_currency: "EUR",
    receive_amount: "2010.500000",
    receive_currency: "MXN",
    fx_rate: "20.105000",
    principal_fee: "2.990000",
    partner_fee: "1.000000",
    total_consumer_cost: "103.990000",
  });
});

test("pricedMoney: amount and currency together; fees and total in the origin currency", () => {
  const m = pricedMoney(quoteRow);
  assert.deepEqual(m.send, { amount: "100.000000", currency: "EUR" });
  assert.deepEqual(m.receive, { amount: "2010.500000", currency: "MXN" });
  assert.deepEqual(m.principalFee, { amount: "2.990000", currency: "EUR" });
  assert.deepEqual(m.partnerFee, { amount: "1.000000", currency: "EUR" });
  assert.deepEqual(m.totalCustomerCost, { amount: "103.990000", currency: "EUR" });
});
