import * as api from "@/lib/api/contracts/bank-transfer";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { readCamt053 } from "@/lib/reconciliation/camt";
import { importStatement } from "@/lib/reconciliation/import";

// POST /v1/sandbox/bank-statements: a camt.053 document, imported as an operator's upload.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.sandboxImportBankStatement, async ({ tx, body, partner, now }) => {
    const statement = await readCamt053(body);
    return { body: await importStatement(tx, statement, now, { partnerId: partner.id }) };
  }),
});
