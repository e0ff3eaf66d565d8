/**
 * GETs a published document (a reference-rate feed, a sanctions list, a partner's JWKS) and reads
 * at most `maxBytes` of it: the body is streamed and the request cancelled past the cap, so a huge
 * or endless answer costs no memory. Never call it inside a database transaction.
 */
export async function fetchDocument(
  url: string,
  options: { maxBytes: number; signal?: AbortSignal; accept?: string; redirect?: RequestRedirect },
): Promise<Buffer> {
  const res = await fetch(url, { signal: options.signal, redirect: options.redirect ?? "follow", headers: options.accept ? { accept: options.accept } : {} });
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`${url} answered ${res.status}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  try {
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      size += next.value.byteLength;
      if (size > options.maxBytes) throw new Error(`${url} answered more than ${options.maxBytes} bytes`);
      chunks.push(next.value);
    }
  } finally {
    await reader?.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks);
}
