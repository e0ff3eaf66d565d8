import Link from "next/link";
import { Badge, Card, danger, Flash, input, PageTitle, param, primary, type SearchParams } from "@/components/console/ui";
import { listJournals } from "@/lib/finance/books/journals";
import { when } from "@/lib/operations/console/format";
import { requireOperator } from "@/lib/operations/console/session";
import { ACCOUNT_CODES, isTransferAccount } from "@/lib/finance/ledger";
import { ready } from "@/lib/platform/ready";
import { discardManualJournal, proposeManualJournal } from "../actions";
import { JOURNAL_FORM_LINES } from "../journal-form";

export const metadata = { title: "Manual journals · Ledger · Console" };

// blocked:sanctions is not offered: it moves only through its screening case.
const HOUSE_ACCOUNTS = ACCOUNT_CODES.filter((c) => !isTransferAccount(c) && c !== "blocked:sanctions");

export default async function JournalsPage({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator("admin");
  const sp = await searchParams;
  const journals = await listJournals(await ready());
  const back = "/console/ledger/journals";
  return (
    <>
      <PageTitle sub="Prefunding a payout bank, bank charges, write-offs, corrections: proposed by one operator, posted when a second approves it on the Approvals page, dated then (in the open month).">
        Manual journals
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <p className="mb-4 text-sm">
        <Link className="text-blue-700 underline" href="/console/ledger">
          Back to the ledger
        </Link>
      </p>
      <Card title="Propose a journal">
        <form action={proposeManualJournal} className="flex flex-col gap-2">
          <input type="hidden" name="back" value={back} />
          <div className="flex flex-wrap gap-2">
            <input name="memo" required minLength={3} className={input} placeholder="Memo" aria-label="Memo" size={40} />
            <input name="reference" className={input} placeholder="Bank reference" aria-label="Reference" />
          </div>
          {Array.from({ length: JOURNAL_FORM_LINES }, (_, i) => (
            <div key={i} className="flex flex-wrap gap-2">
              <select name={`account${i}`} aria-label={`Line ${i + 1} account`} className={input} defaultValue="">
                <option value="">—</option>
                {HOUSE_ACCOUNTS.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
              <input name={`currency${i}`} className={input} placeholder="Currency" aria-label={`Line ${i + 1} currency`} size={5} />
              <input name={`partnerId${i}`} className={input} placeholder="Partner (payable only)" aria-label={`Line ${i + 1} partner`} size={16} />
              <input name={`debit${i}`} className={input} placeholder="Debit" aria-label={`Line ${i + 1} debit`} size={12} />
              <input name={`credit${i}`} className={input} placeholder="Credit" aria-label={`Line ${i + 1} credit`} size={12} />
            </div>
          ))}
          <div>
            <button className={primary}>Propose</button>
          </div>
        </form>
      </Card>
      {journals.map((j) => (
        <Card
          key={j.id}
          title={
            <span className="flex flex-wrap items-center gap-2" data-testid="manual-journal">
              <span className="font-mono">{j.id}</span> <Badge>{j.state}</Badge> {j.memo}
            </span>
          }
        >
          <p className="mb-2 text-sm text-slate-600">
            Proposed by {j.proposedBy} · {when(j.createdAt)}
            {j.reference ? <> · reference {j.reference}</> : null}
            {j.decidedBy ? (
              <>
                {" "}
                · {j.state.toLowerCase()} by {j.decidedBy} · {when(j.decidedAt)}
              </>
            ) : null}
          </p>
          <table className="mb-2 w-full text-sm">
            <tbody>
              {j.lines.map((l, i) => (
                <tr key={i} className="border-t">
                  <td className="p-1">
                    <Badge>{l.partnerId ? `${l.account}:${l.partnerId}` : l.account}</Badge>
                  </td>
                  <td className="p-1 font-mono">{l.currency}</td>
                  <td className="p-1 text-right font-mono">{l.debit}</td>
                  <td className="p-1 text-right font-mono">{l.credit}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {j.state === "PROPOSED" ? (
            <div className="flex items-center gap-2">
              <p className="text-sm text-slate-600">
                Waiting for a second operator on the{" "}
                <Link className="text-blue-700 underline" href="/console/approvals">
                  Approvals
                </Link>{" "}
                page.
              </p>
              <form action={discardManualJournal}>
                <input type="hidden" name="back" value={back} />
                <input type="hidden" name="id" value={j.id} />
                <button className={danger}>Discard</button>
              </form>
            </div>
          ) : null}
        </Card>
      ))}
    </>
  );
}
