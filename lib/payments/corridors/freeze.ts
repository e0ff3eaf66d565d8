/** Freezes parsed corridor data so no caller can change a version in memory. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    // Decimal instances are immutable already; freezing them is harmless but skipped for speed.
    for (const child of Object.values(value)) if (Array.isArray(child) || child?.constructor === Object) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
