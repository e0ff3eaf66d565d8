// Next wants a root layout in app/; the bare app serves no page.
export default function RootLayout({ children }) {
  return children;
}
