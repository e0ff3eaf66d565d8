import { XMLParser, XMLValidator, type X2jOptions } from "fast-xml-parser";
import { DomainError } from "@/lib/platform/errors";

/**
 * The one way an uploaded ISO 20022 document (camt.053 statements, pain.002 status reports) is
 * parsed (docs/decisions.md, "Hardened XML reading"). Both come from outside (a bank's file, a
 * console upload, the sandbox endpoints), so every refusal is a 400 `validation.bodyMalformed`
 * with a message the operator can act on, never a parser's bare Error turned into a 500:
 * - a DOCTYPE (internal or external entities, DTDs): ISO 20022 messages have none, and refusing it
 *   outright leaves no entity expansion or external fetch to reason about;
 * - nesting deeper than MAX_XML_DEPTH elements (our deepest path, camt.053's
 *   Document/BkToCstmrStmt/Stmt/Ntry/NtryDtls/TxDtls/RmtInf/Strd/CdtrRefInf/Tp/CdOrPrtry/Cd, is 12);
 * - text that is not well-formed XML.
 * Text stays text (no number parsing) and entities are never expanded.
 */
export const MAX_XML_DEPTH = 100;

export type XmlNode = Record<string, unknown>;

const malformed = (message: string) => new DomainError("validation.bodyMalformed", { message, hint: "fix_request" });

const DOCTYPE = /<!DOCTYPE/i;

export interface XmlReadOptions {
  /** Element names always read as arrays (so one and many look alike). */
  arrays: readonly string[];
  /** Keep attributes, as `@name` (camt.053's Amt/@Ccy); off by default. */
  attributes?: boolean;
}

/** Parsers per option set: built once, they are reused for every document. */
const parsers = new Map<string, XMLParser>();
function parserFor(options: XmlReadOptions): XMLParser {
  const key = `${options.attributes ? "a" : "-"}:${options.arrays.join(",")}`;
  let parser = parsers.get(key);
  if (!parser) {
    const arrays = new Set(options.arrays);
    const config: X2jOptions = {
      removeNSPrefix: true,
      ignoreAttributes: !options.attributes,
      attributeNamePrefix: "@",
      parseTagValue: false,
      parseAttributeValue: false,
      processEntities: false,
      trimValues: true,
      maxNestedTags: MAX_XML_DEPTH,
      isArray: (name) => arrays.has(name),
    };
    parser = new XMLParser(config);
    parsers.set(key, parser);
  }
  return parser;
}

/** Refusals that need no parse: a DOCTYPE, and text that is not well-formed XML. */
export function checkXml(xml: string): void {
  if (DOCTYPE.test(xml)) throw malformed("The document has a DOCTYPE declaration; ISO 20022 messages have none and none is accepted.");
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw malformed(`The document is not well-formed XML: line ${valid.err.line}: ${valid.err.msg}`);
}

/** Checks then parses the document; any refusal is 400 validation.bodyMalformed. */
export function readXml(xml: string, options: XmlReadOptions): XmlNode {
  checkXml(xml);
  try {
    return parserFor(options).parse(xml) as XmlNode;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const tooDeep = /nested/i.test(reason);
    throw malformed(tooDeep ? `The document nests elements deeper than ${MAX_XML_DEPTH} levels.` : `The document cannot be read as XML: ${reason}`);
  }
}
