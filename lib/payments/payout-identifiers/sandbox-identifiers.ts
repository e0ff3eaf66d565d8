/**
 * Known-good destination identifiers for the sandbox corridors (decisions 6), for tests, demos and
 * the sandbox docs. Every value passes both the submit-time format check and the fast-check for
 * its corridor (test/unit/payout-identifiers keeps them honest).
 */
import type { BankAccountFormat } from "./method-types";

export interface SandboxCorridorIdentifiers {
  /** ISO alpha-2 of the destination country. */
  destinationCountry: string;
  bankAccountFormat: BankAccountFormat;
  bankAccounts: readonly string[];
  phones: readonly string[];
  wallets: readonly string[];
  /** NUBAN only: the bank code each account's check digit was computed with. */
  nubanBankCodes?: Readonly<Record<string, string>>;
}

/** Valid mobile numbers per destination, E.164, accepted by libphonenumber-js "max" metadata. */
export const sandboxTestPhones = {
  MX: ["+525512345678", "+528112345678"],
  PH: ["+639171234567", "+639281234567"],
  NG: ["+2348031234567", "+2347061234567"],
  SN: ["+221771234567", "+221761234567"],
  CO: ["+573001234567", "+573101234567"],
} as const satisfies Record<string, readonly string[]>;

export const sandboxTestIdentifiers = {
  "US-MX": {
    destinationCountry: "MX",
    bankAccountFormat: "CLABE",
    // 002010077777777771 is Banamex's published example CLABE; the others check out with the same digit rule.
    bankAccounts: ["002010077777777771", "032180000118359719", "014027000005555558"],
    phones: sandboxTestPhones.MX,
    wallets: [],
  },
  "US-PH": {
    destinationCountry: "PH",
    bankAccountFormat: "DIGITS_10_16",
    bankAccounts: ["001234567890", "109876543210"],
    phones: sandboxTestPhones.PH,
    // Wallet identifiers carry the ISO 7064 MOD 1271-36 check characters (wallet-checksum.ts).
    wallets: ["PHWALLET0001UI", "GCASH091712345678G", "maya4f7a2c9e1bD9"],
  },
  "GB-NG": {
    destinationCountry: "NG",
    bankAccountFormat: "NUBAN",
    // 0000014579: the CBN's worked example (bank 011); 0123456785: GTBank (058).
    bankAccounts: ["0000014579", "0123456785"],
    nubanBankCodes: { "0000014579": "011", "0123456785": "058" },
    phones: sandboxTestPhones.NG,
    wallets: [],
  },
  "FR-SN": {
    destinationCountry: "SN",
    bankAccountFormat: "IBAN_SN",
    bankAccounts: ["SN08SN0100152000048500003035", "SN72SN0120100000123456789012"],
    phones: sandboxTestPhones.SN,
    wallets: [],
  },
  "ES-CO": {
    destinationCountry: "CO",
    bankAccountFormat: "DIGITS_6_20",
    bankAccounts: ["12345678901", "000123456789", "123456"],
    phones: sandboxTestPhones.CO,
    wallets: [],
  },
} as const satisfies Record<string, SandboxCorridorIdentifiers>;

export type SandboxCorridor = keyof typeof sandboxTestIdentifiers;
