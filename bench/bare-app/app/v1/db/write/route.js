import { sql } from "../sql";

// POST /v1/db/write: one INSERT (its own transaction, committed): the floor of a write.
export async function POST() {
  const [row] = await sql`insert into bare_writes (note) values (${"bench"}) returning id`;
  return Response.json({ id: String(row.id) }, { status: 201 });
}
