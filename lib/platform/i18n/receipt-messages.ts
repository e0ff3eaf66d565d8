import { formatDateTime, formatDecimal, formatMoney } from "./format";
import type { Language } from "./language";

/** The receipt's labels (hosted page and e-mail). */
export const receiptMessages = {
  en: {
    title: "Transfer receipt",
    transfer: "Transfer",
    date: "Paid on",
    recipient: "Recipient",
    youSent: "Amount sent",
    principalFee: "Transfer fee",
    partnerFee: "Partner fee",
    taxes: "Taxes",
    total: "Total paid",
    rate: "Exchange rate",
    recipientGets: "Amount the recipient receives",
    dateAvailable: "Date available",
    rights: "Your rights",
    provider: "Provider",
    print: "Print",
    expiredTitle: "This receipt link has expired",
    expiredBody: "Open the receipt again from the app to get a new link.",
    subject: "Your transfer receipt",
    link: "Printable receipt",
  },
  fr: {
    title: "Reçu de transfert",
    transfer: "Transfert",
    date: "Payé le",
    recipient: "Bénéficiaire",
    youSent: "Montant envoyé",
    principalFee: "Frais de transfert",
    partnerFee: "Frais du partenaire",
    taxes: "Taxes",
    total: "Total payé",
    rate: "Taux de change",
    recipientGets: "Montant reçu par le bénéficiaire",
    dateAvailable: "Date de mise à disposition",
    rights: "Vos droits",
    provider: "Prestataire",
    print: "Imprimer",
    expiredTitle: "Ce lien de reçu a expiré",
    expiredBody: "Ouvrez à nouveau le reçu depuis l’application pour obtenir un nouveau lien.",
    subject: "Votre reçu de transfert",
    link: "Reçu imprimable",
  },
  es: {
    title: "Recibo de transferencia",
    transfer: "Transferencia",
    date: "Pagado el",
    recipient: "Beneficiario",
    youSent: "Importe enviado",
    principalFee: "Comisión de transferencia",
    partnerFee: "Comisión del socio",
    taxes: "Impuestos",
    total: "Total pagado",
    rate: "Tipo de cambio",
    recipientGets: "Importe que recibe el beneficiario",
    dateAvailable: "Fecha de disponibilidad",
    rights: "Tus derechos",
    provider: "Proveedor",
    print: "Imprimir",
    expiredTitle: "Este enlace del recibo ha caducado",
    expiredBody: "Abre de nuevo el recibo desde la aplicación para obtener un enlace nuevo.",
    subject: "Tu recibo de transferencia",
    link: "Recibo imprimible",
  },
} satisfies Record<Language, Record<string, string>>;

export interface ReceiptLineFacts {
  transferId: string;
  fundedAt: string;
  recipientName: string;
  originAmount: string;
  originCurrency: string;
  principalFee: string;
  partnerFee: string;
  taxes: string;
  totalCustomerCost: string;
  fxRate: string;
  destinationAmount: string;
  destinationCurrency: string;
  dateAvailable: string;
}

/** The receipt's rows, label and value, as the customer reads them in `language` and their `timeZone`. */
export function receiptLines(r: ReceiptLineFacts, language: Language, timeZone: string): [string, string][] {
  const m = receiptMessages[language];
  const money = (amount: string, currency: string) => formatMoney(amount, currency, language);
  return [
    [m.transfer, r.transferId],
    [m.date, formatDateTime(r.fundedAt, language, timeZone)],
    [m.recipient, r.recipientName],
    [m.youSent, money(r.originAmount, r.originCurrency)],
    [m.principalFee, money(r.principalFee, r.originCurrency)],
    [m.partnerFee, money(r.partnerFee, r.originCurrency)],
    [m.taxes, money(r.taxes, r.originCurrency)],
    [m.total, money(r.totalCustomerCost, r.originCurrency)],
    [m.rate, `1 ${r.originCurrency} = ${formatDecimal(r.fxRate, language)} ${r.destinationCurrency}`],
    [m.recipientGets, money(r.destinationAmount, r.destinationCurrency)],
    [m.dateAvailable, formatDateTime(r.dateAvailable, language, timeZone)],
  ];
}
