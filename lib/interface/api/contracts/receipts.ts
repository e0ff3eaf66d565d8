import { z } from "zod";
import { defineContract } from "@/lib/interface/http/contract";
import { LANGUAGES } from "@/lib/platform/i18n/language";
import { Timestamp } from "../schemas";
import { EX } from "../examples/ids";
import { TransferStateSchema } from "./transfers";

const money = z.string().meta({ example: "100.000000" });

export const ReceiptSchema = z
  .object({
    transferId: z.string(),
    transferStatus: TransferStateSchema,
    fundedAt: Timestamp.meta({ description: "When the payment was received: the receipt's date." }),
    originAmount: money,
    originCurrency: z.string(),
    principalFee: money,
    partnerFee: money,
    taxes: money.meta({ description: "Taxes collected by the provider: none (0)." }),
    totalCustomerCost: money,
    totalCustomerCostCurrency: z.string(),
    fxRate: z.string(),
    destinationAmount: money,
    destinationCurrency: z.string(),
    dateAvailable: Timestamp.meta({ description: "When the money is available to the recipient (no earlier than funding)." }),
    recipientName: z.string(),
    language: z.enum(LANGUAGES).meta({ description: "The language of rightsStatement (Accept-Language, then the customer's preference, as the disclosure)." }),
    rightsStatement: z.string().meta({ description: "The cancellation and error-resolution rights and whom to contact, in `language`." }),
    provider: z
      .object({ name: z.string().nullable(), phone: z.string().nullable(), website: z.string().nullable(), regulator: z.string().nullable() })
      .meta({ id: "ProviderContact", description: "The provider's contact and its regulator (set per partner in the console)." }),
    cancellableUntil: Timestamp.meta({ description: "Funding + 30 minutes: until then a cancellation refunds everything, fees included." }),
    receiptUrl: z.string().meta({ description: "A hosted, printable receipt in the customer's language: a capability link (30 days), new at each read." }),
  })
  .meta({ id: "Receipt", description: "Every field of a remittance receipt (12 CFR 1005.31(b)(2)); from funded on." });

export const readReceipt = defineContract({
  operationId: "readReceipt",
  method: "GET",
  path: "/v1/core/transfers/{transferId}/receipt",
  summary: "The transfer's receipt (from funded on)",
  description:
    "409 transfer.stateInvalid before the transfer is funded. Also e-mailed to the customer at funding when their login identifier is an e-mail address.",
  tags: ["Transfers"],
  auth: "customer",
  gate: "transferRead",
  params: z.object({ transferId: z.string().min(1).max(64).meta({ description: "The transfer.", example: EX.transferId }) }),
  success: { status: 200, description: "The receipt.", schema: ReceiptSchema },
  examples: {
    response: {
      transferId: EX.transferId,
      transferStatus: "funded",
      fundedAt: EX.at(11, 50),
      originAmount: "100.000000",
      originCurrency: "USD",
      principalFee: "2.990000",
      partnerFee: "1.000000",
      taxes: "0.000000",
      totalCustomerCost: "103.990000",
      totalCustomerCostCurrency: "USD",
      fxRate: "18.750000",
      destinationAmount: "1875.000000",
      destinationCurrency: "MXN",
      dateAvailable: "2026-11-23T23:00:00.000Z",
      recipientName: "María López",
      language: "en",
      rightsStatement: "You can cancel this transfer until 21 November 2026 at 10:41 UTC (30 minutes after payment) for a full refund, fees included. ...",
      provider: {
        name: "Demo Partner Remittances",
        phone: "+1 800 555 0100",
        website: "https://demo-partner.example.com/help",
        regulator: "Consumer Financial Protection Bureau, consumerfinance.gov, 855-411-2372",
      },
      cancellableUntil: EX.at(41, 50),
      receiptUrl: "https://remit.example.com/webviews/receipt/wv_Jt6Nc2Xq8Rb4Lm1Vz7Kp3Wd9",
    },
  },
  errors: ["transfer.notFound", "transfer.stateInvalid", "customer.statusInsufficient", "customer.statusBlocking"],
});
