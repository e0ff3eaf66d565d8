/**
 * One consistent cast for the reference's examples: the same customer, beneficiary, quote and
 * transfer appear in every operation's example, with identifiers shaped like the real ones
 * (db/ids.ts: prefix + 24 base36 characters) and times that follow one another.
 */
export const EX = {
  partnerId: "partner_demo",
  subscriptionId: "sub_4f8k2m9q7x1c5v3b6n0p2r8t",
  registrationId: "reg_9d2k7m4q1x8c5v3b6n0p2w5z",
  loginAttemptId: "la_3m8q2k7d9x1c4v6b0n5p7r2t",
  deviceRegistrationId: "dreg_6k1m9q3d7x2c8v4b5n0p1r6t",
  deviceId: "dev_2q7k4m9d1x6c3v8b0n5p2r7w",
  kid: "dev-key-2026-11",
  kycSessionId: "kyc_8m3q6k1d4x9c2v7b5n0p3r8t",
  beneficiaryId: "ben_7h3k9d2m5q8w1x4c6v0b2n7p",
  payoutMethodId: "pm_5d8k2m7q4x1c9v3b6n0p8r2t",
  quoteId: "quo_1k6m3q8d5x2c7v4b9n0p4r1t",
  transferId: "trf_8k2m5q9d3x7c1v4b6n0p9r3t",
  fundingSessionId: "fs_4q9k2m6d8x3c1v7b5n0p6r4t",
  eventId: "evt_3x7k1m8q5d2c9v4b6n0p1r5t",
  correlationId: "0b7e4c2a-5f1d-4e8b-9a63-2c4d8e1f7a90",
  idempotencyKey: "6a1f3c9e-2b7d-4f05-8e4a-9c1b5d7e3f20",
  accessToken: "at_c2d9f7e1a4b84c6e9f3a1d7b5e2c8f40",
  refreshToken: "rt_7e3b1c9d5f2a48e6b0c4d8f1a3e7b9c2",
  /** The journey's clock: registration at 09:58, the quote at 10:00, paid by 10:12. */
  at: (minute: number, second = 0) => `2026-11-21T10:${String(minute).padStart(2, "0")}:${String(second).padStart(2, "0")}.000Z`,
} as const;
