import * as api from "@/lib/interface/api/contracts/payout-files";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { importPaymentStatusReport } from "@/lib/payments/payouts/status-import";

// POST /v1/sandbox/payment-status-reports: imported as an operator's upload, this partner's transfers only.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.sandboxPaymentStatusReports, async ({ tx, partner, body, now }) => ({
    body: await importPaymentStatusReport(tx, { xml: body, now, partnerId: partner.id }),
  })),
});
