import { and, asc, eq, isNull, ne } from "drizzle-orm";
import countries from "@/lib/i18n/iso-countries";
import { electronicFormatIBAN, isValidIBAN } from "ibantools";
import type { Tx } from "@/db";
import { beneficiaries, customers, payoutFileItems, payoutMethods, transfers } from "@/db/schema";
import { destinationCipher } from "@/lib/crypto/destination-cipher";
import { Decimal } from "@/lib/money/decimal";
import { roundToMinorUnit } from "@/lib/money/format";
import { minorUnitExponent } from "@/lib/money/currency";
import type { TransferRow } from "@/lib/transfers/records";
import type { CreditorAccount, CreditTransfer } from "./pain001";

/** At most this many transfers go into the files of one run; the next run takes the rest. */
export const MAX_TRANSFERS_PER_RUN = 500;

export interface ReadyTransfer {
  transfer: TransferRow;
  credit: CreditTransfer;
}

/**
 * Transfers ready for payout: funded (a held transfer is spended, so not funded), in no file yet,
 * locked FOR UPDATE SKIP LOCKED so two workers never put one transfer in two files. Never one whose
 * beneficiary or customer is BLOCKED: a rescreen HIT holds their transfers (issue 19), and this is
 * the last line should any path leave one funded. The destination account is decrypted here, only
 * to be written into the file.
 */
export async function lockReadyTransfers(tx: Tx, partnerId?: string): Promise<ReadyTransfer[]> {
  const rows = await tx
    .select({ transfer: transfers, beneficiary: beneficiaries, method: payoutMethods })
    .from(transfers)
    .innerJoin(beneficiaries, and(eq(beneficiaries.id, transfers.beneficiaryId), ne(beneficiaries.state, "BLOCKED")))
    .innerJoin(customers, and(eq(customers.id, transfers.customerId), ne(customers.status, "BLOCKED")))
    .leftJoin(payoutMethods, eq(payoutMethods.id, transfers.payoutMethodId))
    .leftJoin(payoutFileItems, eq(payoutFileItems.transferId, transfers.id))
    .where(and(eq(transfers.state, "funded"), isNull(payoutFileItems.id), partnerId ? eq(transfers.partnerId, partnerId) : undefined))
    .orderBy(asc(transfers.stateChangedAt), asc(transfers.id))
    .limit(MAX_TRANSFERS_PER_RUN)
    .for("update", { of: transfers, skipLocked: true });
  if (rows.length === 0) return [];
  const cipher = await destinationCipher(tx);
  return rows.map(({ transfer, beneficiary, method }) => {
    const currency = transfer.destinationCurrency;
    const exponent = minorUnitExponent(currency);
    const account = method ? creditorAccount(cipher.decrypt(method.destinationIdentifierEncrypted, method.id), method.methodType) : undefined;
    const country = countries.alpha3ToAlpha2(beneficiary.countryOfResidence);
    return {
      transfer,
      credit: {
        endToEndId: transfer.id,
        amount: roundToMinorUnit(new Decimal(transfer.destinationAmount), currency).toFixed(exponent),
        creditorName: `${beneficiary.firstName} ${beneficiary.lastName}`.trim(),
        ...(country ? { creditorCountry: country } : {}),
        ...(account ? { creditorAccount: account } : {}),
      },
    };
  });
}

/** An IBAN goes in CdtrAcct/Id/IBAN; any other identifier (CLABE, NUBAN, wallet) in Othr with its method type. */
function creditorAccount(identifier: string, methodType: string): CreditorAccount {
  const iban = electronicFormatIBAN(identifier);
  if (iban && isValidIBAN(iban)) return { iban };
  return { other: identifier.replace(/\s+/g, ""), scheme: methodType };
}
