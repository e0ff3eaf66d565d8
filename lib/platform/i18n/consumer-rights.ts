/**
 * The consumer's rights in words (Regulation E 1005.31(b)(2)(iv) and (vi)), in the
 * disclosure's and the receipt's language: the 30-minute cancellation right, the policy after it,
 * and the error-resolution right. One text per language, so the disclosure, the receipt and its
 * hosted page say the same thing.
 */
import { formatDateTime } from "./format";
import type { Language } from "./language";

export interface ProviderContactText {
  name: string | null;
  phone: string | null;
  website: string | null;
  regulator: string | null;
}

/** `until`: the end of the 30 minutes when known (receipt), else null (disclosure: "after payment"); in the customer's `timeZone`. */
export function cancellationRight(language: Language, until: Date | null, timeZone?: string): string {
  const at = until && formatDateTime(until, language, timeZone);
  switch (language) {
    case "fr":
      return (
        (at
          ? `Vous pouvez annuler ce transfert jusqu’au ${at} (30 minutes après le paiement) et être remboursé intégralement, frais compris. `
          : "Vous pouvez annuler ce transfert dans les 30 minutes qui suivent le paiement et être remboursé intégralement, frais compris. ") +
        "Passé ce délai, vous pouvez l’annuler tant que les fonds n’ont pas été transmis au réseau de paiement, avec le même remboursement intégral. Le remboursement est effectué sur votre moyen de paiement d’origine sous 3 jours ouvrés."
      );
    case "es":
      return (
        (at
          ? `Puedes cancelar esta transferencia hasta el ${at} (30 minutos después del pago) y recibir el reembolso total, comisiones incluidas. `
          : "Puedes cancelar esta transferencia en los 30 minutos siguientes al pago y recibir el reembolso total, comisiones incluidas. ") +
        "Después, puedes cancelarla mientras el dinero no se haya enviado a la red de pago, con el mismo reembolso total. El reembolso se hace en tu medio de pago original en un plazo de 3 días hábiles."
      );
    default:
      return (
        (at
          ? `You can cancel this transfer until ${at} (30 minutes after payment) for a full refund, fees included. `
          : "You can cancel this transfer within 30 minutes of payment for a full refund, fees included. ") +
        "After that, you can cancel it for the same full refund until the money is sent to the payout network. Refunds go to your original payment method within 3 business days."
      );
  }
}

export function errorResolutionRight(language: Language): string {
  switch (language) {
    case "fr":
      return "Si vous pensez qu’une erreur s’est produite, signalez-la dans les 180 jours suivant la date de mise à disposition des fonds. Nous l’examinerons et vous répondrons sous 90 jours ; si l’erreur est confirmée, nous vous rembourserons ou renverrons le transfert sans frais.";
    case "es":
      return "Si crees que hubo un error, avísanos en los 180 días siguientes a la fecha de disponibilidad del dinero. Lo investigaremos y te responderemos en 90 días; si se confirma el error, te reembolsaremos o reenviaremos la transferencia sin coste.";
    default:
      return "If you think there has been an error, tell us within 180 days of the date the money was available. We will investigate and answer within 90 days; if we made an error, we will refund you or send the transfer again at no cost.";
  }
}

export function providerContactLine(language: Language, p: ProviderContactText): string {
  const parts = [p.name, p.phone, p.website].filter(Boolean).join(", ");
  const regulator = p.regulator ?? "";
  switch (language) {
    case "fr":
      return `Contact : ${parts}.${regulator ? ` Vous pouvez aussi adresser une réclamation à : ${regulator}.` : ""}`;
    case "es":
      return `Contacto: ${parts}.${regulator ? ` También puedes reclamar ante: ${regulator}.` : ""}`;
    default:
      return `Contact us: ${parts}.${regulator ? ` You can also complain to: ${regulator}.` : ""}`;
  }
}

/** The receipt's rightsStatement: both rights and who to call, times in the customer's `timeZone`. */
export function rightsStatement(language: Language, cancellableUntil: Date | null, provider: ProviderContactText, timeZone?: string): string {
  return [cancellationRight(language, cancellableUntil, timeZone), errorResolutionRight(language), providerContactLine(language, provider)].join("\n");
}
