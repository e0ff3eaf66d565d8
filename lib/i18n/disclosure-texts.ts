import { formatDateTime, formatDecimal, formatMoney } from "./format";
import type { Language } from "./language";

/**
 * Version of the disclosure wording; a disclosureToken binds to it (spec 2.6). v2: amounts, the
 * rate and the guarantee's end are written for people in the disclosure's language (issue 14).
 */
export const DISCLOSURE_VERSION = "2026-11-v2";

export interface DisclosureFacts {
  originAmount: string;
  originCurrency: string;
  destinationAmount: string;
  destinationCurrency: string;
  fees: string;
  rate: string;
  total: string;
  expiresAt: string;
  /** The customer's IANA time zone when known; UTC otherwise. */
  timeZone?: string;
}

/** The facts as the customer reads them in `language`: "102,99 USD", "22 novembre 2026 à 20:42 UTC". */
function readable(f: DisclosureFacts, language: Language) {
  return {
    send: formatMoney(f.originAmount, f.originCurrency, language),
    fees: formatMoney(f.fees, f.originCurrency, language),
    rate: `1 ${f.originCurrency} = ${formatDecimal(f.rate, language)} ${f.destinationCurrency}`,
    total: formatMoney(f.total, f.originCurrency, language),
    receive: formatMoney(f.destinationAmount, f.destinationCurrency, language),
    until: formatDateTime(f.expiresAt, language, f.timeZone),
  };
}

/**
 * What a pre-payment remittance disclosure must state: amount sent, fees, rate, amount received,
 * total cost, and the customer's cancellation rights.
 */
const wording: Record<Language, (r: ReturnType<typeof readable>) => string> = {
  en: (r) =>
    [
      `Amount to send: ${r.send}.`,
      `Fees: ${r.fees}.`,
      `Exchange rate: ${r.rate}.`,
      `Total to pay: ${r.total}.`,
      `Amount the recipient receives: ${r.receive}.`,
      `This price is guaranteed until ${r.until}.`,
      "You can cancel this transfer before it is funded at no cost. After funding, you can cancel until the money is sent to the payout network; you will be refunded to your original payment method.",
    ].join("\n"),
  fr: (r) =>
    [
      `Montant envoyé : ${r.send}.`,
      `Frais : ${r.fees}.`,
      `Taux de change : ${r.rate}.`,
      `Total à payer : ${r.total}.`,
      `Montant reçu par le bénéficiaire : ${r.receive}.`,
      `Ce prix est garanti jusqu’au ${r.until}.`,
      "Vous pouvez annuler ce transfert sans frais avant son financement. Après le financement, vous pouvez l’annuler tant que les fonds ne sont pas transmis au réseau de paiement ; vous serez remboursé sur votre moyen de paiement d’origine.",
    ].join("\n"),
  es: (r) =>
    [
      `Importe enviado: ${r.send}.`,
      `Comisiones: ${r.fees}.`,
      `Tipo de cambio: ${r.rate}.`,
      `Total a pagar: ${r.total}.`,
      `Importe que recibe el beneficiario: ${r.receive}.`,
      `Este precio está garantizado hasta el ${r.until}.`,
      "Puedes cancelar esta transferencia sin coste antes de pagarla. Después del pago, puedes cancelarla mientras el dinero no se haya enviado a la red de pago; se te reembolsará en tu medio de pago original.",
    ].join("\n"),
};

export const disclosureTexts = (language: Language, f: DisclosureFacts): string => wording[language](readable(f, language));
