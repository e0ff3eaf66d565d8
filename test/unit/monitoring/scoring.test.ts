/** Rule set documents and their scoring: pure, no database. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { scoreRuleSet } from "@/lib/compliance/monitoring/evaluate";
import { defaultPack, parseRuleSet } from "@/lib/compliance/monitoring/rule-set";
import { Decimal } from "@/lib/platform/money/decimal";

const fields = {
  "transfer.originAmount": new Decimal("950"),
  "corridor.reviewThreshold": new Decimal("1000"),
  "destination.country": "MX",
  "beneficiary.ageHours": new Decimal("720"),
  "customer.status": "VALID",
} as const;

const structuringRead = { "senderBandCount(24h, 0, 1000)": "2", "senderBandSum(24h, 0, 1000)": "1900" };

function context(doc: ReturnType<typeof defaultPack>, aggregates: Record<string, string>) {
  const zero = Object.fromEntries(
    [
      "senderTransferCount(24h)",
      "senderTransferSum(24h)",
      "senderTransferCount(7d)",
      "destinationDistinctSenders(7d)",
      "senderBeneficiariesCreated(7d)",
      "senderNewBeneficiariesPaid(7d)",
      "customersSharingDevice()",
      "customersSharingPhone()",
      "customersSharingEmail()",
      "customersSharingAddress()",
      "senderFundedThenCancelled(7d)",
      "beneficiaryPriorTransfers()",
      "beneficiaryTransferSum(7d)",
      ...["senderBandCount", "senderBandSum", "linkedBandCount", "linkedBandSum"].flatMap((a) => [`${a}(24h, 0, 1000)`, `${a}(7d, 0, 1000)`]),
    ].map((k) => [k, "1"]),
  );
  return { fields: { ...fields }, parameters: doc.parameters, lists: doc.lists, aggregates: { ...zero, ...aggregates } };
}

test("a typology with a block threshold blocks at it; without one it reviews; a snoozed rule does not score", () => {
  const pack = defaultPack();
  assert.equal(scoreRuleSet(pack, context(pack, structuringRead), new Set()).outcome, "review");
  const blocking = { ...pack, typologies: pack.typologies.map((t) => (t.id === "structuring" ? { ...t, block: 100 } : t)) };
  const blocked = scoreRuleSet(blocking, context(blocking, structuringRead), new Set());
  assert.equal(blocked.outcome, "block");
  assert.deepEqual(blocked.typologies, [{ typology: "structuring", score: 100, outcome: "block" }]);
  const snoozed = scoreRuleSet(blocking, context(blocking, structuringRead), new Set(["structuring"]));
  assert.equal(snoozed.outcome, "pass");
  assert.deepEqual(snoozed.suppressed, ["structuring"]);
  assert.equal(scoreRuleSet(pack, context(pack, { "senderBandCount(24h, 0, 1000)": "1", "senderBandSum(24h, 0, 1000)": "950" }), new Set()).outcome, "pass");
});

test("a document naming an unknown parameter, list, rule or aggregate is refused with the place", () => {
  const pack = defaultPack();
  const bad = JSON.parse(JSON.stringify(pack));
  bad.rules[0].when.all[1].any[0].all[1].right.mul[0].param = "nope";
  bad.typologies[0].rules = { ghost: 1 };
  const result = parseRuleSet(JSON.stringify(bad));
  const text = result.ok ? "" : result.problems.join("\n");
  assert.match(text, /rules\.0\.when: unknown parameter nope/);
  assert.match(text, /typologies\.0\.rules\.ghost: unknown rule ghost/);
  const magic = JSON.parse(JSON.stringify(pack));
  const velocity = pack.rules.findIndex((r) => r.id === "velocity_count_24h");
  magic.rules[velocity].when.left.aggregate = "senderMagic";
  const refused = parseRuleSet(magic);
  assert.match(refused.ok ? "" : refused.problems.join("\n"), new RegExp(`^rules\\.${velocity}\\.when: `));
  assert.equal(parseRuleSet("{not json").ok, false);
});
