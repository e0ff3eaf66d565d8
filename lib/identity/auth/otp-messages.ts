import type { Language } from "@/lib/platform/i18n/language";

export type OtpPurpose = "REGISTRATION" | "PASSWORD_RESET";

export interface OtpMessageText {
  subject: string;
  text: string;
  html: string;
}

interface Words {
  purpose: Record<OtpPurpose, string>;
  subject: (purpose: string) => string;
  body: (code: string, purpose: string, minutes: number) => string;
  ignore: string;
  alreadyRegisteredSubject: string;
  alreadyRegistered: string;
}

const WORDS: Record<Language, Words> = {
  en: {
    purpose: { REGISTRATION: "creating your account", PASSWORD_RESET: "resetting your password" },
    subject: (p) => `Your verification code for ${p}`,
    body: (code, p, m) => `Your verification code for ${p} is ${code}. It expires in ${m} minutes.`,
    ignore: "If you did not ask for this code, ignore this message.",
    alreadyRegisteredSubject: "Someone tried to register with your identifier",
    alreadyRegistered: "Someone tried to register with this identifier, which already has an account. Log in or reset your password instead.",
  },
  fr: {
    purpose: { REGISTRATION: "la création de votre compte", PASSWORD_RESET: "la réinitialisation de votre mot de passe" },
    subject: (p) => `Votre code de vérification pour ${p}`,
    body: (code, p, m) => `Votre code de vérification pour ${p} est ${code}. Il expire dans ${m} minutes.`,
    ignore: "Si vous n'avez pas demandé ce code, ignorez ce message.",
    alreadyRegisteredSubject: "Quelqu'un a tenté de s'inscrire avec votre identifiant",
    alreadyRegistered: "Quelqu'un a tenté de s'inscrire avec cet identifiant, qui a déjà un compte. Connectez-vous ou réinitialisez votre mot de passe.",
  },
  es: {
    purpose: { REGISTRATION: "crear su cuenta", PASSWORD_RESET: "restablecer su contraseña" },
    subject: (p) => `Su código de verificación para ${p}`,
    body: (code, p, m) => `Su código de verificación para ${p} es ${code}. Caduca en ${m} minutos.`,
    ignore: "Si no ha solicitado este código, ignore este mensaje.",
    alreadyRegisteredSubject: "Alguien intentó registrarse con su identificador",
    alreadyRegistered: "Alguien intentó registrarse con este identificador, que ya tiene una cuenta. Inicie sesión o restablezca su contraseña.",
  },
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The OTP message in the customer's language: subject, plain text and HTML. */
export function otpMessageText(input: { language: Language; purpose: OtpPurpose; code: string | null; ttlSeconds: number }): OtpMessageText {
  const w = WORDS[input.language];
  if (input.code === null) {
    const text = w.alreadyRegistered;
    return { subject: w.alreadyRegisteredSubject, text, html: `<p>${escapeHtml(text)}</p>` };
  }
  const purpose = w.purpose[input.purpose];
  const minutes = Math.round(input.ttlSeconds / 60);
  const body = w.body(input.code, purpose, minutes);
  return {
    subject: w.subject(purpose),
    text: `${body}\n\n${w.ignore}\n`,
    html: `<p>${escapeHtml(body).replace(escapeHtml(input.code), `<strong>${escapeHtml(input.code)}</strong>`)}</p><p>${escapeHtml(w.ignore)}</p>`,
  };
}
