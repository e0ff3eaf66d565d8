import { cancellationRight, errorResolutionRight, providerContactLine, type ProviderContactText } from "./consumer-rights";
import { formatDateTime, formatDecimal, formatMoney } from "./format";
import type { Language } from "./language";

/**
 * Version of the disclosure wording; a disclosureToken binds to it (spec 2.6). v2: amounts, the
 * rate and the guarantee's end are written for people in the disclosure's language.
 * v3 (Regulation E 1005.31): the recipient, the date available, the cancellation and
 * error-resolution rights, the provider's contact, and with an EEA origin the conversion charge
 * over the ECB reference rate.
 */
export const DISCLOSURE_VERSION = "2026-11-v3";

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
  recipientName: string;
  /** When the money is available if funded now; absent for a corridor without estimates. */
  dateAvailable?: string;
  provider: ProviderContactText;
  /** EEA origin: the rate's mark-up over the ECB reference rate, in percent, and that rate. */
  conversionCharge?: { percentage: string; referenceRate: string };
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
    recipient: f.recipientName,
    available: f.dateAvailable ? formatDateTime(f.dateAvailable, language, f.timeZone) : null,
    charge: f.conversionCharge
      ? {
          // Two decimals always ("0,00 %"), the decimal comma in French and Spanish.
          percentage: language === "en" ? f.conversionCharge.percentage : f.conversionCharge.percentage.replace(".", ","),
          rate: `1 ${f.originCurrency} = ${formatDecimal(f.conversionCharge.referenceRate, language)} ${f.destinationCurrency}`,
        }
      : null,
    rights: [cancellationRight(language, null), errorResolutionRight(language), providerContactLine(language, f.provider)],
  };
}

/**
 * What a pre-payment remittance disclosure must state: amount sent, fees, rate, amount received,
 * total cost, and the customer's cancellation rights.
 */
const wording: Record<Language, (r: ReturnType<typeof readable>) => string> = {
  en: (r) =>
    [
      `Recipient: ${r.recipient}.`,
      `Amount to send: ${r.send}.`,
      `Fees: ${r.fees}.`,
      `Exchange rate: ${r.rate}.`,
      ...(r.charge ? [`Currency conversion charge: ${r.charge.percentage} % above the ECB euro reference rate (${r.charge.rate}).`] : []),
      `Total to pay: ${r.total}.`,
      `Amount the recipient receives: ${r.receive}.`,
      ...(r.available ? [`Date available: the money will be available to the recipient by ${r.available} if you pay now.`] : []),
      `This price is guaranteed until ${r.until}.`,
      ...r.rights,
    ].join("\n"),
  fr: (r) =>
    [
      `Bénéficiaire : ${r.recipient}.`,
      `Montant envoyé : ${r.send}.`,
      `Frais : ${r.fees}.`,
      `Taux de change : ${r.rate}.`,
      ...(r.charge ? [`Frais de conversion monétaire : ${r.charge.percentage} % au-dessus du taux de référence de l’euro de la BCE (${r.charge.rate}).`] : []),
      `Total à payer : ${r.total}.`,
      `Montant reçu par le bénéficiaire : ${r.receive}.`,
      ...(r.available
        ? [`Date de mise à disposition : les fonds seront disponibles pour le bénéficiaire au plus tard le ${r.available} si vous payez maintenant.`]
        : []),
      `Ce prix est garanti jusqu’au ${r.until}.`,
      ...r.rights,
    ].join("\n"),
  es: (r) =>
    [
      `Beneficiario: ${r.recipient}.`,
      `Importe enviado: ${r.send}.`,
      `Comisiones: ${r.fees}.`,
      `Tipo de cambio: ${r.rate}.`,
      ...(r.charge ? [`Cargo por conversión de divisa: ${r.charge.percentage} % sobre el tipo de referencia del euro del BCE (${r.charge.rate}).`] : []),
      `Total a pagar: ${r.total}.`,
      `Importe que recibe el beneficiario: ${r.receive}.`,
      ...(r.available ? [`Fecha de disponibilidad: el dinero estará disponible para el beneficiario a más tardar el ${r.available} si pagas ahora.`] : []),
      `Este precio está garantizado hasta el ${r.until}.`,
      ...r.rights,
    ].join("\n"),
};

export const disclosureTexts = (language: Language, f: DisclosureFacts): string => wording[language](readable(f, language));
