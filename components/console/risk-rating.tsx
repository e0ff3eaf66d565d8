import { Badge, Card, input, primary } from "@/components/console/ui";
import { when } from "@/lib/operations/console/format";
import { RATINGS } from "@/lib/compliance/risk-rating/model";
import type { CustomerRatingView } from "@/lib/compliance/risk-rating/queries";

type FormAction = (formData: FormData) => Promise<void>;

/**
 * A customer's risk rating on the console (customer and case pages): what stands, what the factors
 * give, each reason, an override standing and the history; the override form proposes a change a
 * second analyst approves on the Approvals page. Never shown to partners.
 */
export function RiskRatingCard({
  view,
  customerId,
  back,
  override,
  recompute,
}: {
  view: CustomerRatingView;
  customerId: string;
  back: string;
  override: FormAction;
  recompute: FormAction;
}) {
  const r = view.rating;
  return (
    <Card title="Risk rating">
      {r ? (
        <div className="text-sm" data-testid="risk-rating">
          <p>
            Rating <Badge>{r.rating}</Badge> · computed <Badge>{r.computedRating}</Badge> from {r.score} points · {when(r.computedAt)}
          </p>
          {r.override ? (
            <p className="mt-1" data-testid="risk-rating-override">
              Overridden to {r.override.rating} by {r.override.proposedBy ?? "?"}, approved by {r.override.approvedBy} on {when(new Date(r.override.at))} until{" "}
              {r.override.expiresAt.slice(0, 10)}: {r.override.reason}
            </p>
          ) : null}
          <ul className="mt-2 list-disc pl-6" data-testid="risk-rating-reasons">
            {r.reasons.length === 0 ? <li>No factor holds.</li> : null}
            {r.reasons.map((x) => (
              <li key={x.factor}>
                {x.description}: {x.detail} ({x.points} points{x.floor ? `, at least ${x.floor}` : ""})
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="text-sm" data-testid="risk-rating">
          Not rated yet.
        </p>
      )}
      <form action={override} className="mt-3 flex flex-wrap items-center gap-2" data-testid="risk-rating-override-form">
        <input type="hidden" name="customerId" value={customerId} />
        <input type="hidden" name="back" value={back} />
        <select name="rating" aria-label="Override rating" className={input} defaultValue={r?.rating ?? "LOW"}>
          {RATINGS.map((x) => (
            <option key={x}>{x}</option>
          ))}
        </select>
        <input name="reason" required minLength={10} className={input} placeholder="Why (a second analyst approves)" aria-label="Override reason" />
        <button className={primary}>Propose override</button>
      </form>
      <form action={recompute} className="mt-2">
        <input type="hidden" name="customerId" value={customerId} />
        <input type="hidden" name="back" value={back} />
        <button className="text-sm text-blue-700 underline">Recompute now</button>
      </form>
      {view.history.length > 0 ? (
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer">History ({view.history.length})</summary>
          <ul className="mt-1" data-testid="risk-rating-history">
            {view.history.map((h) => (
              <li key={h.id}>
                {when(h.createdAt)}: {h.previousRating ?? "none"} → {h.rating} (computed {h.computedRating}, {h.score} points) · {h.cause}
                {h.override ? ` · override by ${h.override.approvedBy}` : ""}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </Card>
  );
}
