import type { Language } from "./language";

/** Version of the disclosure wording; a disclosureToken binds to it (spec 2.6). */
export const DISCLOSURE_VERSION = "2026-11-v1";

export interface DisclosureFacts {
  originAmount: string;
  originCurrency: string;
  destinationAmount: string;
  destinationCurrency: string;
  fees: string;
  rate: string;
  total: string;
  expiresAt: string;
}

/**
 * What a pre-payment remittance disclosure must state: amount sent, fees, rate, amount received,
 * total cost, and the customer's cancellation rights.
 */
export const disclosureTexts: Record<Language, (f: DisclosureFacts) => string> = {
  en: (f) =>
    [
      `Amount to send: ${f.originAmount} ${f.originCurrency}.`,
      `Fees: ${f.fees} ${f.originCurrency}.`,
      `Exchange rate: 1 ${f.originCurrency} = ${f.rate} ${f.destinationCurrency}.`,
      `Total to pay: ${f.total} ${f.originCurrency}.`,
      `Amount the recipient receives: ${f.destinationAmount} ${f.destinationCurrency}.`,
      `This price is guaranteed until ${f.expiresAt}.`,
      "You can cancel this transfer before it is funded at no cost. After funding, you can cancel until the money is sent to the payout network; you will be refunded to your original payment method.",
    ].join("\n"),
  fr: (f) =>
    [
      `Montant envoyé : ${f.originAmount} ${f.originCurrency}.`,
      `Frais : ${f.fees} ${f.originCurrency}.`,
      `Taux de change : 1 ${f.originCurrency} = ${f.rate} ${f.destinationCurrency}.`,
      `Total à payer : ${f.total} ${f.originCurrency}.`,
      `Montant reçu par le bénéficiaire : ${f.destinationAmount} ${f.destinationCurrency}.`,
      `Ce prix est garanti jusqu’au ${f.expiresAt}.`,
      "Vous pouvez annuler ce transfert sans frais avant son financement. Après le financement, vous pouvez l’annuler tant que les fonds ne sont pas transmis au réseau de paiement ; vous serez remboursé sur votre moyen de paiement d’origine.",
    ].join("\n"),
  es: (f) =>
    [
      `Importe enviado: ${f.originAmount} ${f.originCurrency}.`,
      `Comisiones: ${f.fees} ${f.originCurrency}.`,
      `Tipo de cambio: 1 ${f.originCurrency} = ${f.rate} ${f.destinationCurrency}.`,
      `Total a pagar: ${f.total} ${f.originCurrency}.`,
      `Importe que recibe el beneficiario: ${f.destinationAmount} ${f.destinationCurrency}.`,
      `Este precio está garantizado hasta el ${f.expiresAt}.`,
      "Puedes cancelar esta transferencia sin coste antes de pagarla. Después del pago, puedes cancelarla mientras el dinero no se haya enviado a la red de pago; se te reembolsará en tu medio de pago original.",
    ].join("\n"),
};
