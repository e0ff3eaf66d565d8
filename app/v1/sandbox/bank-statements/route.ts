import * as api from "@/lib/interface/api/contracts/bank-transfer";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { readCamt053 } from "@/lib/payments/reconciliation/camt";
import { importStatement } from "@/lib/payments/reconciliation/import";

// POST /v1/sandbox/bank-statements: a camt.053 document, imported as an operator's upload.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.sandboxImportBankStatement, async ({ tx, body, partner, now }) => {
    const statement = await readCamt053(body);
    return { body: await importStatement(tx, statement, now, { partnerId: partner.id }) };
  }),
});
