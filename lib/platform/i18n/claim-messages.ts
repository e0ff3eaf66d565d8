import type { ClaimOutcome, ClaimType } from "@/db/schema/claims";
import { formatMoney } from "./format";
import type { Language } from "./language";

interface ClaimMessageSet {
  subject: string;
  title: string;
  claim: string;
  transfer: string;
  type: string;
  outcome: string;
  amount: string;
  notice: string;
  types: Record<ClaimType, string>;
  outcomes: Record<ClaimOutcome, string>;
  documents: string;
}

/**
 * The e-mail telling a customer how their error claim was resolved (Regulation E 1005.33(c)/(d):
 * the provider reports the results of its investigation to the sender), in their language. The
 * operator's notice is quoted as written.
 */
export const claimMessages = {
  en: {
    subject: "Your claim has been resolved",
    title: "Result of your claim",
    claim: "Claim",
    transfer: "Transfer",
    type: "You reported",
    outcome: "Result",
    amount: "Amount refunded",
    notice: "Our findings",
    types: { NOT_RECEIVED: "The money was not received", WRONG_AMOUNT: "A wrong amount", LATE: "The money arrived late", OTHER: "Another error" },
    outcomes: {
      NO_ERROR: "We found no error.",
      REFUND: "We are refunding you.",
      RESEND: "We are sending the money again.",
    },
    documents: "You may ask us for the documents we relied on.",
  },
  fr: {
    subject: "Votre réclamation a été traitée",
    title: "Résultat de votre réclamation",
    claim: "Réclamation",
    transfer: "Transfert",
    type: "Vous avez signalé",
    outcome: "Résultat",
    amount: "Montant remboursé",
    notice: "Nos conclusions",
    types: {
      NOT_RECEIVED: "L’argent n’a pas été reçu",
      WRONG_AMOUNT: "Un montant erroné",
      LATE: "L’argent est arrivé en retard",
      OTHER: "Une autre erreur",
    },
    outcomes: {
      NO_ERROR: "Nous n’avons constaté aucune erreur.",
      REFUND: "Nous vous remboursons.",
      RESEND: "Nous envoyons l’argent à nouveau.",
    },
    documents: "Vous pouvez nous demander les documents sur lesquels nous nous sommes fondés.",
  },
  es: {
    subject: "Tu reclamación ha sido resuelta",
    title: "Resultado de tu reclamación",
    claim: "Reclamación",
    transfer: "Transferencia",
    type: "Nos indicaste",
    outcome: "Resultado",
    amount: "Importe reembolsado",
    notice: "Nuestras conclusiones",
    types: {
      NOT_RECEIVED: "El dinero no se recibió",
      WRONG_AMOUNT: "Un importe incorrecto",
      LATE: "El dinero llegó tarde",
      OTHER: "Otro error",
    },
    outcomes: {
      NO_ERROR: "No encontramos ningún error.",
      REFUND: "Te devolvemos el dinero.",
      RESEND: "Enviamos el dinero de nuevo.",
    },
    documents: "Puedes pedirnos los documentos en los que nos basamos.",
  },
} satisfies Record<Language, ClaimMessageSet>;

export interface ClaimResolutionFacts {
  claimId: string;
  transferId: string;
  type: ClaimType;
  outcome: ClaimOutcome;
  resolutionAmount: string | null;
  resolutionCurrency: string | null;
  notice: string;
}

/** The message in the customer's language: a subject, plain text, and the same as HTML. */
export function claimResolutionMessage(c: ClaimResolutionFacts, language: Language) {
  const m = claimMessages[language];
  const lines: [string, string][] = [
    [m.claim, c.claimId],
    [m.transfer, c.transferId],
    [m.type, m.types[c.type]],
    [m.outcome, m.outcomes[c.outcome]],
    ...(c.resolutionAmount && c.resolutionCurrency ? [[m.amount, formatMoney(c.resolutionAmount, c.resolutionCurrency, language)] as [string, string]] : []),
  ];
  const text = [m.title, "", ...lines.map(([k, v]) => `${k}: ${v}`), "", `${m.notice}:`, c.notice, "", m.documents].join("\n");
  const html =
    `<h1>${escapeHtml(m.title)}</h1><table>${lines.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join("")}</table>` +
    `<h2>${escapeHtml(m.notice)}</h2><p>${escapeHtml(c.notice).replace(/\n/g, "<br>")}</p><p>${escapeHtml(m.documents)}</p>`;
  return { subject: m.subject, text, html };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
