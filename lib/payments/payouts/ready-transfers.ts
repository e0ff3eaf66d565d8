import { and, asc, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import countries from "@/lib/platform/i18n/iso-countries";
import { electronicFormatIBAN, isValidIBAN } from "ibantools";
import type { Tx } from "@/db";
import { beneficiaries, customers, payoutFileItems, payoutMethods, transfers } from "@/db/schema";
import { corridorOfTransfer } from "@/lib/payments/corridors/corridors";
import { refreshForTransfers } from "@/lib/payments/corridors/versions";
import { destinationCipher } from "@/lib/platform/crypto/destination-cipher";
import type { ProfileInput } from "@/lib/identity";
import { Decimal } from "@/lib/platform/money/decimal";
import { roundToMinorUnit } from "@/lib/platform/money/format";
import { minorUnitExponent } from "@/lib/platform/money/currency";
import type { TransferRow } from "@/lib/payments/transfers/records";
import type { BeneficiaryAddress } from "@/lib/payments/beneficiaries/address";
import type { CreditorAccount, CreditTransfer, PartyAddress, UltimateDebtor } from "./pain001";

/** At most this many transfers go into the files of one run; the next run takes the rest. */
export const MAX_TRANSFERS_PER_RUN = 500;

export interface ReadyTransfer {
  transfer: TransferRow;
  credit: CreditTransfer;
  /** 1 for a funded transfer's first file; n+1 for a resend after attempt n was repaired. */
  attempt: number;
  /** The repaired attempt a resend replaces (it moves to RESENT), null on a first file. */
  repairedItemId: string | null;
}

/**
 * Transfers ready for payout: funded (a held transfer is spended, so not funded), in no file yet,
 * locked FOR UPDATE SKIP LOCKED so two workers never put one transfer in two files. Never one whose
 * beneficiary or customer is BLOCKED: a rescreen HIT holds their transfers, and this is
 * the last line should any path leave one funded. A transfer whose rejected payout was repaired
 * (still topay/reqpay, its latest attempt REPAIRED) is ready again for a resend.
 * The destination account is decrypted here, only to be written into the file.
 */
export async function lockReadyTransfers(tx: Tx, partnerId?: string, only?: readonly string[]): Promise<ReadyTransfer[]> {
  const items = payoutFileItems;
  const filed = sql`exists (select 1 from ${items} where ${items.transferId} = ${transfers.id})`;
  const repaired = sql`exists (select 1 from ${items} where ${items.transferId} = ${transfers.id} and ${items.state} = 'REPAIRED')`;
  const rows = await tx
    .select({ transfer: transfers, beneficiary: beneficiaries, method: payoutMethods, profile: customers.profile })
    .from(transfers)
    .innerJoin(beneficiaries, and(eq(beneficiaries.id, transfers.beneficiaryId), ne(beneficiaries.state, "BLOCKED")))
    .innerJoin(customers, and(eq(customers.id, transfers.customerId), ne(customers.status, "BLOCKED")))
    .leftJoin(payoutMethods, eq(payoutMethods.id, transfers.payoutMethodId))
    .where(
      only
        ? // The routed payout's bank-file try: these transfers, wherever they are with the network (a failover from the aggregator).
          and(inArray(transfers.id, [...only]), inArray(transfers.state, ["funded", "topay", "reqpay"]))
        : and(
            or(and(eq(transfers.state, "funded"), sql`not ${filed}`), and(inArray(transfers.state, ["topay", "reqpay"]), repaired)),
            partnerId ? eq(transfers.partnerId, partnerId) : undefined,
          ),
    )
    .orderBy(asc(transfers.stateChangedAt), asc(transfers.id))
    .limit(MAX_TRANSFERS_PER_RUN)
    .for("update", { of: transfers, skipLocked: true });
  if (rows.length === 0) return [];
  // Each account's scheme as the version its transfer was priced under defined the corridor's format.
  await refreshForTransfers(
    tx,
    rows.map((r) => r.transfer),
  );
  const cipher = await destinationCipher(tx);
  const resends = await tx
    .select({ id: items.id, transferId: items.transferId, attempt: items.attempt, state: items.state })
    .from(items)
    .where(
      and(
        inArray(
          items.transferId,
          rows.map((r) => r.transfer.id),
        ),
        only ? undefined : eq(items.state, "REPAIRED"),
      ),
    )
    .orderBy(desc(items.attempt));
  return rows.map(({ transfer, beneficiary, method, profile }) => {
    const currency = transfer.destinationCurrency;
    const exponent = minorUnitExponent(currency);
    const account = method ? creditorAccount(cipher.decrypt(method.destinationIdentifierEncrypted, method.id), method.methodType, transfer) : undefined;
    const country = countries.alpha3ToAlpha2(beneficiary.countryOfResidence);
    // The latest earlier file item: its next attempt number; a REPAIRED one is replaced (RESENT).
    const earlier = resends.find((r) => r.transferId === transfer.id);
    const resend = earlier?.state === "REPAIRED" ? earlier : undefined;
    const attempt = earlier ? earlier.attempt + 1 : 1;
    const originator = profile ? ultimateDebtor(transfer.customerId, profile as unknown as ProfileInput) : undefined;
    return {
      transfer,
      attempt,
      repairedItemId: resend?.id ?? null,
      credit: {
        endToEndId: transfer.id,
        instructionId: attempt === 1 ? transfer.id : `${transfer.id}/${attempt}`,
        ...(originator ? { ultimateDebtor: originator } : {}),
        amount: roundToMinorUnit(new Decimal(transfer.destinationAmount), currency).toFixed(exponent),
        creditorName: `${beneficiary.firstName} ${beneficiary.lastName}`.trim(),
        ...(country ? { creditorCountry: country } : {}),
        ...(beneficiary.address ? { creditorAddress: creditorAddress(beneficiary.address) } : {}),
        ...(account ? { creditorAccount: account } : {}),
      },
    };
  });
}

/**
 * An IBAN goes in CdtrAcct/Id/IBAN; any other identifier in Othr with its account scheme (issue
 * 24 item 8), never the payout method: the corridor's bank-account format (CLABE, NUBAN; other
 * national numbers are BBAN; the transfer's own configuration version's), a phone number MSISDN (mobile money, cash pickup), a wallet WALLET.
 */
function creditorAccount(identifier: string, methodType: string, transfer: TransferRow): CreditorAccount {
  const iban = electronicFormatIBAN(identifier);
  if (iban && isValidIBAN(iban)) return { iban };
  const other = identifier.replace(/\s+/g, "");
  if (methodType === "MOBILE_MONEY" || methodType === "CASH_PICKUP") return { other, scheme: "MSISDN" };
  if (methodType === "WALLET_TRANSFER") return { other, scheme: "WALLET" };
  const format = corridorOfTransfer(transfer)?.bankAccount.format;
  return { other, scheme: format === "CLABE" || format === "NUBAN" ? format : "BBAN" };
}

/**
 * The beneficiary's address as Cdtr/PstlAdr: structured (StrtNm, PstCd, TwnNm, CtrySubDvsn, Ctry),
 * line 2 as an AdrLine. The spec's StructuredAddress has no building number apart from the
 * street, so the first line goes whole into StrtNm rather than guessed apart.
 */
function creditorAddress(a: BeneficiaryAddress): PartyAddress | undefined {
  const country = countries.alpha3ToAlpha2(a.country);
  if (!country) return undefined;
  return { street: a.addressLine1, lines: a.addressLine2 ? [a.addressLine2] : [], town: a.city, postCode: a.postalCode, region: a.region, country };
}

/** The customer as the payment's originator: name, residence address, date and place of birth (alpha-2 countries). */
function ultimateDebtor(customerId: string, p: ProfileInput): UltimateDebtor {
  const a = p.residenceAddress;
  const country = a && countries.alpha3ToAlpha2(a.country);
  const birthCountry = p.placeOfBirth && countries.alpha3ToAlpha2(p.placeOfBirth.country);
  return {
    name: [p.firstName, ...(p.middleNames ?? []), p.lastName].filter(Boolean).join(" "),
    customerId,
    ...(country
      ? {
          // Structured (StrtNm, PstCd, TwnNm, CtrySubDvsn, Ctry): SWIFT refuses unstructured addresses from November 2026.
          address: { street: a.addressLine1, lines: a.addressLine2 ? [a.addressLine2] : [], town: a.city, postCode: a.postalCode, region: a.region, country },
        }
      : {}),
    ...(p.dateOfBirth && p.placeOfBirth && birthCountry ? { birth: { date: p.dateOfBirth, city: p.placeOfBirth.city, country: birthCountry } } : {}),
  };
}
