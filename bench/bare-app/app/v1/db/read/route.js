import { sql } from "../sql";

// GET /v1/db/read: one prepared primary-key select, nothing else: the floor of a read.
export async function GET() {
  const [row] = await sql`select id, note from bare_rows where id = ${1}`;
  return Response.json(row ?? null);
}
