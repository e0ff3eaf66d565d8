/** The page a dead webview URL shows (expired, completed or unknown): no detail about why. */
export function WebviewExpired({ title, body, language }: { title: string; body: string; language: string }) {
  return (
    <main lang={language} className="mx-auto flex min-h-screen max-w-md flex-col justify-center p-6" data-testid="webview-expired">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-xl font-semibold">{title}</h1>
        <p className="mt-3 text-slate-600">{body}</p>
      </div>
    </main>
  );
}
